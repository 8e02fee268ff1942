"""Free space on a device folder, from ``df -k`` (toybox and busybox print the same columns)."""
from __future__ import annotations


def parse_df_available(text: str) -> int | None:
    """Available bytes from ``df -k DIR`` output (the last line's 4th column, in KiB); None if unreadable."""
    lines = [ln.split() for ln in text.strip().splitlines() if ln.strip()]
    if len(lines) < 2 or len(lines[-1]) < 4 or not lines[-1][3].isdigit():
        return None
    return int(lines[-1][3]) * 1024
