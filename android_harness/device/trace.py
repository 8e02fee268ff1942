"""``trace.jsonl`` (docs/semantics.md 11): what two conforming runners must write identically.

One compact JSON object a line (separators ``,`` and ``:``, keys in the documented order), appended
when ``session.json`` has ``"trace": true``. Masks are hashed (FNV-1a 64 of their float32 bytes,
16 lowercase hex digits), a loss is its float32 bit pattern (8 hex digits), an evaluation is the
number of correct test samples per task, so every value is exact. A checkpoint records the
trace's byte length; a resumed session cuts the file back to it before continuing.
"""
from __future__ import annotations

import json
import os
from typing import Any

import numpy as np

from android_harness.device.disk_space import append_whole

FNV_OFFSET = 0xCBF29CE484222325
FNV_PRIME = 0x100000001B3


def fnv1a64(data: bytes) -> str:
    h = FNV_OFFSET
    for byte in data:
        h = ((h ^ byte) * FNV_PRIME) & 0xFFFFFFFFFFFFFFFF
    return f"{h:016x}"


def mask_hash(mask: np.ndarray) -> str:
    """FNV-1a 64 of a 0/1 mask's little-endian float32 bytes (vectorised over the 0/1 structure)."""
    return fnv1a64(np.ascontiguousarray(mask, dtype="<f4").tobytes())


def loss_bits(loss: np.float32) -> str:
    return f"{int(np.asarray(loss, np.float32).view(np.uint32)):08x}"


class Trace:
    """Appends trace lines (or nothing when disabled)."""

    def __init__(self, path: str, enabled: bool) -> None:
        self.path, self.enabled = path, enabled

    def reset_to(self, size: int) -> None:
        """Cut the file back to ``size`` bytes (a resume continues where its checkpoint was taken)."""
        if not self.enabled:
            return
        if os.path.exists(self.path) and os.path.getsize(self.path) > size:
            with open(self.path, "rb+") as f:
                f.truncate(size)

    def size(self) -> int:
        return os.path.getsize(self.path) if self.enabled and os.path.exists(self.path) else 0

    def write(self, record: dict[str, Any]) -> None:
        if not self.enabled:
            return
        fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            append_whole(fd, self.path, (json.dumps(record, separators=(",", ":")) + "\n").encode())
        finally:
            os.close(fd)

    def masks(self, kind: str, task: int, where: str, at: int, masks: dict[str, np.ndarray], order: list[str]) -> None:
        if self.enabled:
            self.write({"k": kind, "task": task, where: at, "masks": {n: mask_hash(masks[n]) for n in order}})
