"""Free and total space on a device folder, from ``df -k`` (toybox and busybox print the same columns:
Filesystem, 1K-blocks, Used, Available, Use%, Mounted on)."""
from __future__ import annotations

SIZE_COLUMN, AVAILABLE_COLUMN = 1, 3


def _df_kib(text: str, column: int) -> int | None:
    """Bytes of ``column`` (in KiB) on the last line of ``df -k DIR`` output; None if unreadable."""
    lines = [ln.split() for ln in text.strip().splitlines() if ln.strip()]
    if len(lines) < 2 or len(lines[-1]) <= AVAILABLE_COLUMN or not lines[-1][column].isdigit():
        return None
    return int(lines[-1][column]) * 1024


def parse_df_available(text: str) -> int | None:
    """Available bytes from ``df -k DIR`` output (the last line's 4th column); None if unreadable."""
    return _df_kib(text, AVAILABLE_COLUMN)


def parse_df_size(text: str) -> int | None:
    """Total bytes of the filesystem from ``df -k DIR`` output (the last line's 2nd column); None if unreadable."""
    return _df_kib(text, SIZE_COLUMN)
