"""Equal-steps profiling, and a profiling run's energy extrapolated to the whole task.

Why equal steps: with the paper's one subset fraction for every candidate, a bigger EM + SB also
trains MORE steps during profiling, so a few profiling epochs rank candidates by how long they
trained rather than by what they trained on. With ``miro.profile_batches = k`` each candidate's
profiling subset is sized to ``k`` batches per epoch (its own EM : SB ratio kept, through a
per-candidate subset fraction), so every candidate trains exactly ``epochs * k`` steps of ``B``
rows (docs/semantics.md 3.5: the last step wraps, every step has ``B`` real rows).

Why extrapolate: a profiling run's energy covers a few steps on a subset; the choice needs what the
WHOLE task would cost at that candidate's settings. Measured energy per profiling step times the
steps the task would train (``task_steps``) is that figure (the authors' commented-out measured
variant); their EM + SB proxy stays the other variant. Sizes follow docs/semantics.md 2 and 5.3
exactly (SB rows, EM slots, the profiling subset's rounding), so the steps here are the runner's.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from pipeline.errors import ConfigError


@dataclass(frozen=True)
class SubsetShape:
    """One candidate's profiling subset: the fraction the session gets and what it yields."""

    subset_fraction: float
    sb_rows: int
    em_slots: int
    steps_per_epoch: int

    @property
    def pool(self) -> int:
        return self.sb_rows + self.em_slots


def sb_rows(sb_size: int, task_samples: int) -> int:
    """SB rows of a task (semantics 2): every training row up to ``sb_size``."""
    return max(0, min(sb_size, task_samples))


def em_slots(em_size: int, seen_samples: int, replay: bool) -> int:
    """EM slots at a task start (semantics 5.3): water filling stops at ``em_size`` or at every stored record."""
    return max(0, min(em_size, seen_samples)) if replay else 0


def subset_count(n: int, fraction: float) -> int:
    """Rows a profiling subset keeps of ``n`` (semantics 2): ``max(1, round(f * n))``, all when ``f = 1``."""
    if n <= 0:
        return 0
    return n if fraction >= 1.0 else max(1, round(fraction * n))


def steps_in_epoch(pool: int, batch: int) -> int:
    """Steps of one epoch over ``pool`` rows (semantics 3.5)."""
    return math.ceil(pool / batch) if pool > 0 else 0


def subset_shape(sb: int, em: int, fraction: float, batch: int) -> SubsetShape:
    """What a profiling session at ``fraction`` trains on, for a task with ``sb`` SB rows and ``em`` EM slots."""
    s, m = subset_count(sb, fraction), subset_count(em, fraction)
    return SubsetShape(fraction, s, m, steps_in_epoch(s + m, batch))


def equal_steps_shape(sb: int, em: int, batches: int, batch: int) -> SubsetShape:
    """The subset of ``batches`` batches per epoch (as near ``(batches - 1/2) * batch`` rows as the
    rounding allows), keeping the EM : SB ratio. ConfigError when EM + SB is smaller than that."""
    if batches < 1 or batch < 1:
        raise ConfigError(f"miro.profile_batches: expected >= 1 batches of >= 1 rows, got {batches} x {batch}")
    total = sb + em
    if steps_in_epoch(total, batch) < batches:
        raise ConfigError(f"miro.profile_batches = {batches}: a candidate with {sb} SB rows + {em} EM slots has only "
                          f"{steps_in_epoch(total, batch)} batch(es) of {batch}; lower profile_batches")
    lo, hi = (batches - 1) * batch + 1, batches * batch
    mid = (lo + hi) / 2
    for target in sorted(range(lo, hi + 1), key=lambda t: (abs(t - mid), t)):
        shape = subset_shape(sb, em, min(1.0, target / total), batch)
        if shape.steps_per_epoch == batches:
            return shape
    raise ConfigError(f"miro.profile_batches = {batches}: no subset of {sb} SB rows + {em} EM slots gives exactly "
                      f"{batches} batch(es) of {batch}")


def common_batches(sizes: list[tuple[int, int]], wanted: int, batch: int) -> int:
    """``wanted`` batches, or fewer when the smallest candidate (``(sb, em)`` pairs) cannot fill them:
    every candidate must train the same steps."""
    if not sizes:
        raise ConfigError("miro: no candidates to size the profiling subsets for")
    return max(1, min([wanted] + [steps_in_epoch(sb + em, batch) for sb, em in sizes]))


def task_steps(sb: int, em: int, epochs: int, batch: int) -> int:
    """Steps the whole task trains with ``sb`` SB rows and ``em`` EM slots (no DDR removal counted)."""
    return epochs * steps_in_epoch(sb + em, batch)


def extrapolate(energy_j: float, profiled_steps: int, full_steps: int) -> float:
    """A profiling run's energy per step times the task's steps: the task's energy at those settings."""
    if profiled_steps < 1:
        raise ConfigError(f"miro: cannot extrapolate the energy of a profiling run of {profiled_steps} steps")
    return energy_j / profiled_steps * full_steps
