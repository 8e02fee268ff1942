"""Simulated phone counters for the energy tests: a known power profile seen through a
sample-and-hold averaging fuel gauge, a coulomb counter and ODPM accumulators, written in the
power.csv / rails.txt contracts (docs/contracts.md)."""
from __future__ import annotations

import json
from dataclasses import dataclass, field

import numpy as np

VOLTS = 3.9


@dataclass
class Profile:
    """True battery power: ``idle_w`` everywhere except the (t0, t1, watts) spans."""

    idle_w: float
    spans: list[tuple[float, float, float]] = field(default_factory=list)

    def energy(self, a: float, b: float) -> float:
        """Exact integral over [a, b]."""
        return float(self.cumulative(np.array([b]))[0] - self.cumulative(np.array([a]))[0])

    def cumulative(self, t: np.ndarray) -> np.ndarray:
        """Exact integral from 0 to each of ``t``."""
        t = np.asarray(t, dtype=float)
        e = self.idle_w * t
        for s0, s1, w in self.spans:
            e = e + (w - self.idle_w) * np.clip(np.minimum(t, s1) - s0, 0.0, s1 - s0)
        return e


def refresh_times(t0: float, t1: float, period: float, phase: float, tick: float | None, rng) -> np.ndarray:
    """Regular refreshes every ``period`` from ``t0 + phase``; or the vphone's: a ``tick`` loop
    (with a little scheduling delay) publishing once at least ``period`` passed since the last."""
    if tick is None:
        return np.arange(t0 + phase, t1, period)
    out, last, now = [], t0 + phase, t0 + phase
    out.append(now)
    while now < t1:
        now += tick + rng.uniform(0.0, 0.01)
        if now - last >= period:
            out.append(now)
            last = now
    return np.array(out)


def simulate(profile: Profile, t0: float, t1: float, *, period: float = 1.0, phase: float = 0.37, rate: float = 10.0,
             noise_a: float = 0.0, tick: float | None = None, seed: int = 0, charge_counter: bool = True,
             rails: bool = False, rail_period: float = 0.5, clock: str = "CLOCK_MONOTONIC") -> tuple[str, str | None]:
    """(power.csv text, rails.txt text or None) for [t0, t1] of ``profile``."""
    rng = np.random.default_rng(seed)

    def energy_to(t):
        return profile.cumulative(t) - profile.cumulative(np.array([t0 - 3 * period]))[0]

    r = refresh_times(t0 - 2 * period, t1, period, phase, tick, rng)
    avg_w = np.diff(energy_to(r)) / np.diff(r)                  # average over [r_{k-1}, r_k], shown from r_k
    published = avg_w / VOLTS + rng.normal(0.0, noise_a, len(avg_w)) if noise_a else avg_w / VOLTS
    charge = 3_000_000 - energy_to(r[1:]) / VOLTS / 3.6e-3      # uAh at each refresh
    s = np.arange(t0, t1, 1.0 / rate)
    k = np.searchsorted(r[1:], s, side="right") - 1             # the last refresh at or before each sample
    lines = ["# edgecl power.csv v1", f"# clock={clock}", f"# rate_hz={rate:g}", "# sampler=sim",
             "t,current,voltage,charge_counter,capacity,status,temp"]
    for tj, kj in zip(s, k):
        if kj < 0:
            continue
        cc = f"{int(charge[kj])}" if charge_counter else "3000000"
        lines.append(f"{tj:.6f},{-published[kj] * 1e6:.0f},{int(VOLTS * 1e6)},{cc},80,Discharging,300")
    rails_text = None
    if rails:
        blocks = []
        for tr in np.arange(t0, t1, rail_period):
            uws = 1e9 + float(energy_to(np.array([tr]))[0]) * 1e6 * np.array([0.5, 0.3, 0.2])
            body = "\n".join(f"CH{i}(T={int(tr * 1000)})[RAIL{i}], {int(v)}" for i, v in enumerate(uws))
            blocks.append(f"@@ rails t0={tr:.6f} t1={tr:.6f} clock={clock} source=sim\nt={int(tr * 1000)}\n{body}\n@@ end")
        rails_text = "\n".join(blocks) + "\n"
    return "\n".join(lines) + "\n", rails_text


def session_events(t_launch: float, t_first: float, t_end: float, phases: list[tuple[str, float, float]],
                   task: int = 0, heartbeat_s: float | None = None, pauses: list[tuple[float, float]] = (),
                   t_boot_offset: float | None = None) -> list[dict]:
    """events.jsonl of one runner: session_start at ``t_first`` (launched at ``t_launch``), the
    phases (name, t0, t1), session_end at ``t_end``; heartbeats every ``heartbeat_s`` except inside ``pauses``."""
    evs = [{"t": t_first, "type": "session_start", "session_id": "s", "t_launch": t_launch,
            **({"heartbeat_s": heartbeat_s} if heartbeat_s else {})},
           {"t": phases[0][1] if phases else t_first, "type": "task_start", "task": task}]
    for name, a, b in phases:
        evs.append({"t": a, "type": "phase_start", "phase": name, "task": task})
        evs.append({"t": b, "type": "phase_end", "phase": name, "task": task})
    evs.append({"t": phases[-1][2] if phases else t_end, "type": "task_end", "task": task})
    if heartbeat_s:
        for tb in np.arange(t_first + heartbeat_s, t_end, heartbeat_s):
            if not any(a <= tb < b for a, b in pauses):
                evs.append({"t": float(tb), "type": "heartbeat"})
    evs.append({"t": t_end, "type": "session_end", "status": "ok"})
    evs.sort(key=lambda e: e["t"])
    out = []
    for i, e in enumerate(evs):
        e = {"seq": i, **e}
        if t_boot_offset is not None:
            e["t_boot"] = round(e["t"] + t_boot_offset, 6)
        out.append(e)
    return out


def write_session(folder, power_csv: str, events: list[dict], result: dict | None = None, rails: str | None = None):
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "power.csv").write_text(power_csv)
    (folder / "events.jsonl").write_text("".join(json.dumps(e) + "\n" for e in events))
    if result is not None:
        (folder / "result.json").write_text(json.dumps(result))
    if rails is not None:
        (folder / "rails.txt").write_text(rails)
    return folder
