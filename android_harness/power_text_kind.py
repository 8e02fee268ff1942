"""Which power text a user handed over, when it is not the one a parser reads.

A parser that finds no trace of its own format asks ``refuse_foreign`` first, so the refusal says
"this is X, not Y" and how to get Y, instead of blaming the phone ("no power monitor") for a file
that came from another command. Only forms a phone's shell really prints are named.
"""
from __future__ import annotations

import re

from android_harness.errors import PowerError

# BatteryStats.dumpCheckinLocked: ``<version>,<uid>,<category>,<type>,..`` (``9,0,i,vers,..``,
# ``9,10123,l,pr,..``) and the history lines ``<version>,h,..`` / ``<version>,hsp,..``.
_CHECKIN = re.compile(r"^\d+,(?:\d+,[a-z]{1,2},[A-Za-z_]\w*|hsp?),")
_KINDS = (
    (re.compile(r"^Current Battery Service state:\s*$", re.M), "`dumpsys battery` output"),
    (re.compile(r"^=+ PowerStats HAL 2\.0 ", re.M),
     "the PowerStats HAL dump (`dumpsys android.hardware.power.stats.IPowerStats/default`)"),
    (re.compile(r"^\s*ChannelId:\s*\d+,", re.M), "`dumpsys powerstats` output"),
    (re.compile(r"^(?:Battery History |Statistics since last charge:|Daily stats:)", re.M),
     "`dumpsys batterystats` output (its human-readable form)"),
    (re.compile(r"^t,current,voltage", re.M), "an edgecl power.csv"),
)
CHECKIN_KIND = "`dumpsys batterystats --checkin` output (comma-separated check-in lines such as '9,0,i,vers,..')"


def text_kind(text: str) -> str | None:
    """A short name of the command that printed ``text``, where it is one of the known forms."""
    lines = [ln.strip() for ln in text.splitlines()[:200] if ln.strip()]
    checkin = sum(1 for ln in lines if _CHECKIN.match(ln))
    if checkin and checkin * 2 >= len(lines):
        return CHECKIN_KIND
    for pattern, kind in _KINDS:
        if pattern.search(text):
            return kind
    return None


def refuse_foreign(text: str, wanted: str, way_out: str) -> None:
    """PowerError ``this is <kind>, not <wanted>; <way_out>`` when ``text`` is a known other form
    (``wanted`` spelled as ``text_kind`` names it, so a damaged file of the wanted kind passes)."""
    kind = text_kind(text)
    if kind is not None and kind != wanted:
        raise PowerError(f"this is {kind}, not {wanted}; {way_out}")
