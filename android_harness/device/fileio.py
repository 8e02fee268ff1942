"""File helpers shared by the host and the device (standard library only).

One way to hash a file and one way to replace a file so readers never see it half-written: the
manifest, the deploy check, the task shards' index and result files all rely on these.
"""
from __future__ import annotations

import hashlib
import os
from pathlib import Path

CHUNK = 1 << 20


def sha256_file(path: str | Path) -> str:
    """Hex sha256 of a file, read in 1 MiB chunks."""
    h = hashlib.sha256()
    with open(path, "rb") as f:
        while block := f.read(CHUNK):
            h.update(block)
    return h.hexdigest()


def write_text_atomic(path: str | Path, text: str) -> None:
    """Write ``text`` to a sibling temp file, then rename it over ``path`` (atomic on POSIX); a temp that
    could not be written whole (a full disk) is removed."""
    path = Path(path)
    tmp = path.with_name(path.name + ".tmp")
    try:
        tmp.write_text(text, encoding="utf-8")
    except OSError:
        tmp.unlink(missing_ok=True)
        raise
    os.replace(tmp, path)
