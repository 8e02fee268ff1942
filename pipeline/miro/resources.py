"""The battery-aware policy: the device's state changes how Miro scores and how much it profiles.

Miro's paper claims configuration "based on resource states"; its code re-profiles per task but
reads no battery, thermal or memory input. Here the state the device reports before each task
picks a mode:

- ``normal``: the spec's scorer and cutline, the whole candidate space.
- ``saver`` (battery <= ``battery_low`` and not charging, or thermal throttling): energy weighs
  more — the cutline widens (more cheap candidates survive the accuracy cut), the weighted scorer
  moves weight to energy, ``highest_accuracy`` becomes ``cutline`` — and the candidate space
  shrinks to its cheaper half, so profiling itself costs less.
- ``critical`` (battery <= ``battery_critical`` and not charging): ``lowest_energy`` inside a wide
  cutline, over the cheapest quarter of the space.
- memory pressure (MemAvailable / MemTotal below ``mem_pressure``) is orthogonal: EM + SB may take
  half the usual share of free RAM, and the space shrinks to its cheaper half.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from pipeline.miro.candidates import Candidate
from pipeline.miro.scorers import ScoringSpec

MODES = ("normal", "saver", "critical")


@dataclass(frozen=True)
class DeviceState:
    """What the device reported before a task (None = not reported)."""

    battery_pct: float | None = None
    charging: bool | None = None
    thermal_throttled: bool = False
    temp_c: float | None = None
    mem_available_bytes: int | None = None
    mem_total_bytes: int | None = None
    storage_free_bytes: int | None = None

    @property
    def mem_available_fraction(self) -> float | None:
        if not self.mem_available_bytes or not self.mem_total_bytes:
            return None
        return self.mem_available_bytes / self.mem_total_bytes

    def to_dict(self) -> dict[str, Any]:
        return {k: getattr(self, k) for k in self.__dataclass_fields__}


@dataclass(frozen=True)
class ResourcePolicySpec:
    """Thresholds and how hard each mode leans towards energy."""

    battery_low: float = 20.0
    battery_critical: float = 10.0
    thermal_temp_c: float = 45.0
    mem_pressure: float = 0.15
    saver_cutline_factor: float = 2.0
    saver_energy_weight: float = 0.8
    saver_keep: float = 0.5
    critical_keep: float = 0.25
    pressure_keep: float = 0.5
    pressure_ram_factor: float = 0.5


@dataclass
class PolicyDecision:
    """The mode for one task and what it changes."""

    mode: str
    scoring: ScoringSpec
    keep_share: float = 1.0
    ram_share_factor: float = 1.0
    memory_pressure: bool = False
    reasons: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"mode": self.mode, "scorer": self.scoring.scorer, "cutline": self.scoring.cutline,
                "acc_weight": self.scoring.acc_weight, "energy_weight": self.scoring.energy_weight,
                "keep_share": self.keep_share, "ram_share_factor": self.ram_share_factor,
                "memory_pressure": self.memory_pressure, "reasons": list(self.reasons)}


def decide(state: DeviceState | None, base: ScoringSpec, spec: ResourcePolicySpec = ResourcePolicySpec()) -> PolicyDecision:
    """The mode for the next task given the device's ``state`` (None = nothing known = normal)."""
    if state is None:
        return PolicyDecision("normal", base)
    reasons: list[str] = []
    on_battery = state.charging is not True
    mode = "normal"
    if state.battery_pct is not None and on_battery and state.battery_pct <= spec.battery_critical:
        mode = "critical"
        reasons.append(f"battery {state.battery_pct:g}% <= critical {spec.battery_critical:g}%")
    elif state.battery_pct is not None and on_battery and state.battery_pct <= spec.battery_low:
        mode = "saver"
        reasons.append(f"battery {state.battery_pct:g}% <= low {spec.battery_low:g}%")
    hot = state.thermal_throttled or (state.temp_c is not None and state.temp_c >= spec.thermal_temp_c)
    if hot:
        reasons.append("thermal throttling" if state.thermal_throttled else f"temperature {state.temp_c:g} C >= {spec.thermal_temp_c:g} C")
        if mode == "normal":
            mode = "saver"
    scoring, keep = base, 1.0
    if mode == "saver":
        scoring = replace(base, cutline=min(1.0, base.cutline * spec.saver_cutline_factor),
                          energy_weight=spec.saver_energy_weight, acc_weight=1.0 - spec.saver_energy_weight,
                          scorer="cutline" if base.scorer == "highest_accuracy" else base.scorer)
        keep = spec.saver_keep
    elif mode == "critical":
        scoring = replace(base, scorer="lowest_energy", cutline=min(1.0, base.cutline * spec.saver_cutline_factor),
                          energy_weight=spec.saver_energy_weight, acc_weight=1.0 - spec.saver_energy_weight)
        keep = spec.critical_keep
    frac = state.mem_available_fraction
    pressure = frac is not None and frac < spec.mem_pressure
    ram_factor = 1.0
    if pressure:
        reasons.append(f"memory pressure: {frac:.0%} of RAM available < {spec.mem_pressure:.0%}")
        keep = min(keep, spec.pressure_keep)
        ram_factor = spec.pressure_ram_factor
    return PolicyDecision(mode, scoring, keep, ram_factor, pressure, reasons)


def shrink(cands: list[Candidate], keep_share: float) -> list[Candidate]:
    """The cheapest ``keep_share`` of ``cands`` by samples per epoch (at least one), in their order."""
    if keep_share >= 1.0 or len(cands) <= 1:
        return list(cands)
    n = max(1, int(round(len(cands) * keep_share)))
    cheapest = sorted(range(len(cands)), key=lambda i: (cands[i].proxy_energy, i))[:n]
    return [cands[i] for i in sorted(cheapest)]
