"""Reading ``rails.txt`` (docs/contracts.md): the samplers' ODPM snapshots, one block per read.

Each block is ``@@ rails t0=<s> t1=<s> clock=<CLOCK> source=<what was read>``, the text exactly as
the phone printed it (the HAL dump's energy meter table, ``dumpsys powerstats`` lines, or the iio
``energy_value`` files), then ``@@ end``. ``t0``/``t1`` bracket the read on the sampler's clock, so
a snapshot's time is their midpoint, known to +-half the read's duration. A torn last block (a
killed sampler) is dropped; a malformed complete block is a PowerError naming its line.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from android_harness.power_number import finite_number
from android_harness.rail_parse import RailSnapshot, parse_rails
from pipeline.energy.power_csv import read_trace_text
from pipeline.errors import PowerError

BLOCK = "@@ rails"
END = "@@ end"


@dataclass
class RailSeries:
    """Cumulative ODPM energy per snapshot; ``total_j`` sums the rails every snapshot has."""

    path: str
    clock: str
    t: np.ndarray                  # snapshot time (midpoint of the read), sampler clock
    half_width_s: np.ndarray       # +- of that time
    rails: list[str]
    energy_uws: np.ndarray         # [snapshot, rail] cumulative since boot
    fmt: str
    resets: list[int] = field(default_factory=list)    # snapshot k: some rail went down between k-1 and k

    @property
    def total_j(self) -> np.ndarray:
        return self.energy_uws.sum(axis=1) / 1e6

    def __len__(self) -> int:
        return len(self.t)


def _header(line: str, n: int, path: str) -> dict[str, str]:
    out = {}
    for part in line[len(BLOCK):].split():
        k, sep, v = part.partition("=")
        if not sep:
            raise PowerError(f"{path} line {n}: block header field {part!r} is not key=value")
        out[k] = v
    for k in ("t0", "t1"):
        if k not in out:
            raise PowerError(f"{path} line {n}: block header lacks {k}=")
    return out


def parse_rails_log(text: str, path: str = "rails.txt") -> RailSeries:
    blocks: list[tuple[float, float, str, RailSnapshot]] = []
    head: dict[str, str] | None = None
    start, body = 0, []
    for n, line in enumerate(text.split("\n"), 1):
        if line.startswith(BLOCK):
            if head is not None:
                raise PowerError(f"{path} line {n}: a new block before the one at line {start} ended")
            head, start, body = _header(line, n, path), n, []
        elif line.startswith(END):
            if head is None:
                raise PowerError(f"{path} line {n}: '@@ end' without a block")
            t0 = finite_number(head["t0"], f"{path} line {start}: t0")
            t1 = finite_number(head["t1"], f"{path} line {start}: t1")
            if t1 < t0:
                raise PowerError(f"{path} line {start}: t1 {t1} before t0 {t0}")
            try:
                snap = parse_rails("\n".join(body))
            except PowerError as exc:
                raise PowerError(f"{path} block at line {start}: {exc}") from None
            blocks.append((t0, t1, head.get("clock", "CLOCK_MONOTONIC"), snap))
            head = None
        elif head is not None:
            body.append(line)
    if not blocks:
        raise PowerError(f"{path}: no complete rail snapshot")
    clocks = {b[2] for b in blocks}
    if len(clocks) > 1:
        raise PowerError(f"{path}: snapshots on more than one clock ({', '.join(sorted(clocks))})")
    names = sorted(set.intersection(*(set(b[3].by_rail()) for b in blocks)))
    if not names:
        raise PowerError(f"{path}: no rail appears in every snapshot")
    t = np.array([(a + b) / 2 for a, b, _, _ in blocks])
    if np.any(np.diff(t) <= 0):
        raise PowerError(f"{path}: snapshot times do not increase; two samplers wrote one file?")
    e = np.array([[b[3].by_rail()[r].energy_uws for r in names] for b in blocks])
    resets = [int(k) for k in np.flatnonzero((np.diff(e, axis=0) < 0).any(axis=1)) + 1]
    return RailSeries(path, clocks.pop(), t, np.array([(b - a) / 2 for a, b, _, _ in blocks]), names, e,
                      blocks[0][3].fmt, resets)


def read_rails_log(path: str | Path) -> RailSeries:
    return parse_rails_log(read_trace_text(path, "rail log"), str(path))
