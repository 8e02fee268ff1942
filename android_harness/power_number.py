"""One counter value as a finite float: the number reader every power parser shares (perfetto's here,
``power.csv`` and ``rails.txt`` in ``pipeline.energy``), so a bad cell reads the same everywhere."""
from __future__ import annotations

import math

from android_harness.errors import PowerError


def finite_number(text: str, where: str) -> float:
    """``text`` as a finite float, or a PowerError ``<where>=<text> is not a (finite) number`` (never a
    ValueError, never inf/nan passed on as a sample)."""
    try:
        value = float(text)
    except ValueError:
        raise PowerError(f"{where}={text!r} is not a number") from None
    if not math.isfinite(value):
        raise PowerError(f"{where}={text!r} is not a finite number")
    return value
