"""Miro's candidate space: (EM, SB) pairs x swap ratio/period x optional SparCL knobs, clipped to reality.

A candidate is one replay configuration a task could run with. The space comes either from the
spec's explicit lists or from one of the authors' grids scaled to this dataset's task size; before
profiling it is clipped to what has been seen so far, to the task's size, and to what the device
can hold (free RAM for EM + SB, free storage for the flash tier), then de-duplicated — as the
authors' ``prep_profiler`` does, with the device's own resources report as the extra input.
"""
from __future__ import annotations

import itertools
from dataclasses import asdict, dataclass, replace
from typing import Any

from pipeline.config import MiroSpec
from pipeline.errors import ConfigError
from pipeline.task_config import TaskConfig

# The authors' (EM, SB) grids (omnia-unist/Miro optim/optimizer.py) and the per-task sample count
# they were designed for; ``scaled_grid`` rescales them to another dataset's task size.
PAPER_GRIDS: dict[str, tuple[int, tuple[tuple[int, int], ...]]] = {
    "cifar100": (5000, ((20000, 3000), (15000, 2000), (12000, 2000), (10000, 2000), (8000, 1000),
                        (6000, 1000), (5000, 3000), (4000, 4000), (3000, 5000), (2500, 1000),
                        (2000, 4000), (1500, 5000), (1000, 5000), (500, 4000))),
    "urbansound8k": (1000, ((800, 600), (1000, 600), (600, 400), (1200, 800), (200, 200), (400, 800),
                            (300, 1000), (500, 400), (100, 1000), (100, 100))),
    "dsads": (768, ((400, 384), (200, 576), (800, 192), (600, 768), (1200, 192), (1500, 768),
                    (700, 576), (2000, 192), (500, 768), (300, 384))),
}
# The static (EM, SB) the authors run without Miro (their *_with_miro.yml rb_size / st_size).
PAPER_DEFAULTS: dict[str, tuple[int, int]] = {"cifar100": (2000, 5000), "urbansound8k": (100, 1000), "dsads": (500, 768)}


@dataclass(frozen=True)
class Candidate:
    """One replay configuration for a task (SparCL knobs are None when not tuned)."""

    em_size: int
    sb_size: int
    swap_ratio: float = 0.25
    swap_period: int = 1
    sparsity: float | None = None
    ddr_fraction: float | None = None

    @property
    def key(self) -> str:
        """A short stable name, e.g. ``em200-sb100-sw0.25p1``."""
        parts = [f"em{self.em_size}", f"sb{self.sb_size}", f"sw{self.swap_ratio:g}p{self.swap_period}"]
        if self.sparsity is not None:
            parts.append(f"sp{self.sparsity:g}")
        if self.ddr_fraction is not None:
            parts.append(f"ddr{self.ddr_fraction:g}")
        return "-".join(parts)

    @property
    def proxy_energy(self) -> float:
        """The authors' energy proxy: samples trained per epoch (EM + SB)."""
        return float(self.em_size + self.sb_size)

    def to_task(self, base: TaskConfig) -> TaskConfig:
        """This candidate as the whole configuration a task runs with (untuned knobs from ``base``)."""
        replay = replace(base.replay, em_size=self.em_size, sb_size=self.sb_size,
                         swap_ratio=self.swap_ratio, swap_period=self.swap_period)
        return TaskConfig(replay, base.sparsity if self.sparsity is None else self.sparsity,
                          base.ddr_fraction if self.ddr_fraction is None else self.ddr_fraction)

    def to_dict(self) -> dict[str, Any]:
        return {"key": self.key, **asdict(self)}


def scaled_grid(name: str, task_samples: int) -> list[tuple[int, int]]:
    """The authors' grid ``name`` with EM and SB scaled by this dataset's samples per task."""
    if name not in PAPER_GRIDS:
        raise ConfigError(f"miro.grid: expected one of {', '.join(map(repr, ['custom', *PAPER_GRIDS]))}, got {name!r}")
    if task_samples < 1:
        raise ConfigError(f"miro: a task needs at least one training sample to scale grid {name!r}, got {task_samples}")
    paper_task, pairs = PAPER_GRIDS[name]
    factor = task_samples / paper_task
    out: list[tuple[int, int]] = []
    for em, sb in pairs:
        pair = (max(1, round(em * factor)), max(1, round(sb * factor)))
        if pair not in out:
            out.append(pair)
    return out


def paper_default(name: str, task_samples: int) -> tuple[int, int]:
    """The static (EM, SB) the authors compare against, scaled like ``scaled_grid``."""
    paper_task, _ = PAPER_GRIDS[name]
    em, sb = PAPER_DEFAULTS[name]
    factor = task_samples / paper_task
    return max(1, round(em * factor)), max(1, round(sb * factor))


def build_candidates(miro: MiroSpec, task_samples: int | None = None) -> list[Candidate]:
    """The unclipped space: (EM, SB) pairs from the spec or a scaled paper grid, x the other knobs."""
    if miro.grid == "custom":
        pairs = list(itertools.product(miro.em_sizes, miro.sb_sizes))
    else:
        if task_samples is None:
            raise ConfigError(f"miro.grid = {miro.grid!r} needs the task size to scale the grid")
        pairs = scaled_grid(miro.grid, task_samples)
    periods = list(miro.swap_periods or [1])
    sparsities: list[float | None] = list(miro.sparsities or [None])
    ddrs: list[float | None] = list(miro.ddr_fractions or [None])
    out: list[Candidate] = []
    for (em, sb), ratio, period, sp, ddr in itertools.product(pairs, miro.swap_ratios or [0.0], periods, sparsities, ddrs):
        c = Candidate(int(em), int(sb), float(ratio), int(period), sp, ddr)
        if c not in out:
            out.append(c)
    return out


@dataclass(frozen=True)
class DataLimits:
    """What the data allows this task: samples stored from earlier tasks, samples in this task."""

    seen_samples: int
    task_samples: int


@dataclass(frozen=True)
class DeviceLimits:
    """What the device can hold, from its resources report.

    ``ram_share`` is the part of MemAvailable that EM + SB may occupy (the rest is the runtime,
    the model and the OS); ``storage_free_bytes`` bounds how many past samples the flash tier holds.
    """

    mem_available_bytes: int | None = None
    storage_free_bytes: int | None = None
    bytes_per_sample: int = 1
    ram_share: float = 0.25
    storage_share: float = 0.5

    @property
    def max_ram_samples(self) -> int | None:
        if self.mem_available_bytes is None:
            return None
        return int(self.mem_available_bytes * self.ram_share) // max(self.bytes_per_sample, 1)

    @property
    def max_storage_samples(self) -> int | None:
        if self.storage_free_bytes is None:
            return None
        return int(self.storage_free_bytes * self.storage_share) // max(self.bytes_per_sample, 1)


def clip_candidate(c: Candidate, data: DataLimits, device: DeviceLimits | None = None) -> Candidate:
    """``c`` shrunk to fit: EM <= samples seen (and storable), SB <= task size, EM + SB <= RAM budget.

    When RAM is short, EM gives way first (it can be refilled from flash by swapping), then SB.
    Swapping is off when there is nothing in storage to swap with.
    """
    em = min(c.em_size, max(data.seen_samples, 0))
    sb = max(1, min(c.sb_size, max(data.task_samples, 1)))
    if device is not None:
        store = device.max_storage_samples
        if store is not None:
            em = min(em, store)
        ram = device.max_ram_samples
        if ram is not None:
            ram = max(ram, 1)
            if em + sb > ram:
                em = max(0, ram - sb)
                sb = min(sb, ram - em)
    ratio = c.swap_ratio if em > 0 else 0.0
    return replace(c, em_size=em, sb_size=max(sb, 1), swap_ratio=ratio)


def clip_candidates(cands: list[Candidate], data: DataLimits, device: DeviceLimits | None = None) -> list[Candidate]:
    """Clip every candidate (``clip_candidate``) and drop the duplicates clipping creates, in order."""
    out: list[Candidate] = []
    for c in cands:
        clipped = clip_candidate(c, data, device)
        if clipped not in out:
            out.append(clipped)
    return out
