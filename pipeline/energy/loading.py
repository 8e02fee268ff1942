"""One call from a power.csv path (and the device's profile) to a PowerTrace."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from pipeline.energy.power_csv import read_power_csv
from pipeline.energy.trace import CounterConvention, PowerTrace, normalise


def load_trace(path: str | Path, profile: Any = None, *, simulated: bool | None = None) -> PowerTrace:
    """``profile`` is a DeviceProfile or its JSON dict (None: infer everything from the trace);
    ``simulated`` defaults to the profile's flag."""
    conv = CounterConvention.from_profile(profile) if profile is not None else CounterConvention()
    if simulated is None:
        get = profile.get if isinstance(profile, dict) else (lambda k, d=None: getattr(profile, k, d))
        simulated = bool(get("simulated", False)) if profile is not None else False
    return normalise(read_power_csv(path), conv, simulated=simulated)
