"""Units and sign of raw battery counters, decided by magnitude AND physical plausibility: the one
rule the device profile's probe (``profile.py``) and the host's trace normalisation
(``pipeline.energy.trace``) both apply, so ``doctor`` and a measurement never disagree.

A fuel gauge's ``current_now`` is in uA on most phones and mA on some (vendors differ). Magnitude
alone misreads small currents: 8 mA printed in uA is 8000, which a "below 20000 means mA" rule
takes as 8 A, 31 W. The rule here asks which unit gives a battery power P = V * |I| that a phone
can draw while discharging: from a phone asleep with its screen off (~4 mA, 0.016 W) to 15 W.
The range spans less than the factor 1000 between the units, so the two readings are disjoint at
any cell voltage (at 3.9 V, uA: |raw| 4.1k-3.8M, mA: |raw| 4.1-3846) and at most one fits; when
none fits the trace is refused with the field and the profile key that would override the unit.
While charging (0.016-150 W) both may fit: then the profile's unit, else uA, the common one.
Below ~4 mA (a phone in deep sleep with its radios off) a uA reading is also a plausible mA one
(3000 is 12 W as mA): there the unit must be set in the profile override, which is held to a
wider floor (``OVERRIDE_FLOOR_W``, ~1.5 mA) that still refuses mA data declared uA (0.5 A as uA
is 0.002 W).
"""
from __future__ import annotations

from dataclasses import dataclass

from android_harness.errors import PowerError

DISCHARGE_W = (0.016, 15.0)       # plausible whole-phone battery power while discharging (ratio < 1000)
OVERRIDE_FLOOR_W = 0.006          # ~1.5 mA: below any phone that is on, so an overridden unit this low is wrong
CHARGE_W = (0.016, 150.0)         # while charging (fast chargers reach ~100 W at the battery; a full battery trickles)
VOLTAGE_V = (2.5, 5.5)            # a Li-ion cell's terminal voltage
NOMINAL_V = 3.85                  # used only when voltage_now is unreadable (said where used)
CURRENT_SCALE = {"uA": 1e-6, "mA": 1e-3}
CHARGING_INTO_A = 0.05            # a net current this large INTO the battery counts as charging
EXTERNAL_POWER_STATUS = ("Charging", "Full", "Not charging")   # "Not charging" = plugged, charge paused
VOLTAGE_SCALE = {"uV": 1e-6, "mV": 1e-3, "V": 1.0}
OVERRIDE_HINT = "set it in a device profile override (TOML key {key!r}, `--profile-override`)"


@dataclass(frozen=True)
class UnitChoice:
    unit: str
    how: str


def voltage_unit(median_raw: float, declared: str = "auto") -> UnitChoice:
    """uV, mV or V for a battery voltage; PowerError when no unit gives 2.5-5.5 V."""
    fits = [u for u, s in VOLTAGE_SCALE.items() if VOLTAGE_V[0] <= abs(median_raw) * s <= VOLTAGE_V[1]]
    if declared != "auto":
        if declared not in fits:
            raise PowerError(f"voltage_now median {median_raw:g} read as {declared} is {abs(median_raw) * VOLTAGE_SCALE[declared]:g} V, "
                             f"outside a battery's {VOLTAGE_V[0]}-{VOLTAGE_V[1]} V; the profile's voltage_unit={declared!r} is "
                             f"wrong ({OVERRIDE_HINT.format(key='voltage_unit')})")
        return UnitChoice(declared, "profile")
    if not fits:
        raise PowerError(f"voltage_now median {median_raw:g} is no battery voltage in uV, mV or V "
                         f"({VOLTAGE_V[0]}-{VOLTAGE_V[1]} V); {OVERRIDE_HINT.format(key='voltage_unit')} "
                         "or fix voltage_now_path")
    return UnitChoice(fits[0], f"voltage unit {fits[0]} from magnitude ~{median_raw:.0f}")


def current_unit(median_abs_raw: float, volts: float, charging: bool, declared: str = "auto",
                 declared_is_override: bool = False) -> UnitChoice:
    """uA or mA for ``current_now`` from P = V*I plausibility. A unit the user overrode must be
    plausible (else PowerError); a unit merely inferred at probe time yields to plausibility."""
    lo, hi = CHARGE_W if charging else DISCHARGE_W
    watts = {u: median_abs_raw * s * volts for u, s in CURRENT_SCALE.items()}
    fits = [u for u, w in watts.items() if lo <= w <= hi]
    state = "charging" if charging else "discharging"
    shown = ", ".join(f"{w:.3g} W as {u}" for u, w in watts.items())
    if declared != "auto" and declared_is_override:
        if not OVERRIDE_FLOOR_W <= watts[declared] <= hi:
            raise PowerError(f"current_now median |{median_abs_raw:g}| at {volts:.2f} V gives {shown}; the overridden "
                             f"current_unit={declared!r} puts a {state} phone outside {OVERRIDE_FLOOR_W}-{hi} W "
                             f"({OVERRIDE_HINT.format(key='current_unit')})")
        return UnitChoice(declared, "profile override")
    if not fits:
        raise PowerError(f"current_now median |{median_abs_raw:g}| at {volts:.2f} V gives {shown}: no unit puts a "
                         f"{state} phone inside {lo}-{hi} W; check current_now_path, or "
                         f"{OVERRIDE_HINT.format(key='current_unit')}")
    unit = fits[0] if len(fits) == 1 or declared not in fits else declared
    how = f"unit {unit} from P=V*I ({watts[unit]:.3g} W)"
    if declared not in ("auto", unit):
        how += f"; the profile's inferred {declared} would give {watts[declared]:.3g} W"
    return UnitChoice(unit, how)


def sign_from_status(median_raw: float | None, status: str) -> tuple[str | None, str]:
    """("charging"|"discharging", how): which sign means current INTO the battery, from the dominant
    status; None when the status cannot tell (Full, Not charging, Unknown, or a zero reading)."""
    if median_raw is None or median_raw == 0 or status not in ("Charging", "Discharging"):
        return None, f"status={status or '?'} cannot tell the sign"
    into = median_raw > 0 if status == "Charging" else median_raw < 0
    return ("charging" if into else "discharging"), f"sign from current_now~{median_raw:.0f} while {status}"
