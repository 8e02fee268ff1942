"""SparCL's task-aware schedules (docs/semantics.md 7-8) as pure functions of a task's length (no state, no torch).

Both schedules are written in fractions of a task's epochs, so a 5-epoch run keeps the shape of
the paper's 50-epoch one:

* TDM (``tdm_schedule``): at each task start the mask *expands* (drop to the target sparsity ``s``,
  grow to ``s - swap``: the new task gets spare capacity); every ``update_every`` of the task the
  mask *swaps* (drop to ``s + swap``, regrow to ``s``); at ``freeze_after`` a *final drop* returns
  to exactly ``s`` and the mask is frozen for the tail of the task. The reference's 0.75 run
  (50 epochs, update every 5) is ``upper 0.74-0.75-0.75 / lower 0.75-0.76-0.75``: expand at 0,
  swap at 5..40, final drop at 45.
* DDR (``ddr_schedule``): at each fraction in ``steps`` remove an equal share of ``fraction`` of
  the task's full data (reference: 7.5% at epochs 5, 10, 15, 20 of 50 -> 30%).

Epoch points are ``round(f * epochs)`` clamped to ``[1, epochs - 1]``, so every event lands on a
real epoch boundary after at least one epoch of training. A one-epoch task has no room for a
schedule: TDM only prunes to ``s`` (no expansion) and DDR removes nothing.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class TdmEvent:
    """One mask update at the start of ``epoch``: drop to ``drop_to`` sparsity, then grow back to
    ``grow_to`` sparsity (``grow_to == drop_to`` means no growth); ``freeze`` stops later updates."""

    epoch: int
    kind: str          # "expand" | "swap" | "final"
    drop_to: float
    grow_to: float
    freeze: bool = False


def _epoch_point(fraction: float, epochs: int) -> int:
    return min(max(int(round(fraction * epochs)), 1), epochs - 1)


def tdm_schedule(epochs: int, sparsity: float, update_every: float, swap: float, freeze_after: float) -> list[TdmEvent]:
    """The mask updates of one task, in epoch order."""
    if epochs < 1:
        raise ValueError(f"epochs must be >= 1, got {epochs}")
    if epochs == 1:
        return [TdmEvent(0, "expand", sparsity, sparsity)]
    grow_start = max(sparsity - swap, 0.0)
    events = [TdmEvent(0, "expand", sparsity, grow_start)]
    final = _epoch_point(freeze_after, epochs)
    period = max(int(round(update_every * epochs)), 1)
    for e in range(period, final, period):
        events.append(TdmEvent(e, "swap", min(sparsity + swap, 1.0), sparsity))
    events.append(TdmEvent(final, "final", sparsity, sparsity, freeze=True))
    return events


def density_trace(events: list[TdmEvent], epochs: int) -> list[float]:
    """Target density (1 - sparsity) the masked layers train at during each epoch of the task."""
    by_epoch = {ev.epoch: ev for ev in events}
    trace, current = [], None
    for e in range(epochs):
        if e in by_epoch:
            current = 1.0 - by_epoch[e].grow_to
        trace.append(float(current))
    return trace


def ddr_schedule(epochs: int, steps: list[float], fraction: float) -> dict[int, float]:
    """Epoch -> share of the task's FULL data removed at the start of that epoch (merged points add up)."""
    if epochs < 2 or not steps or fraction <= 0.0:
        return {}
    share = fraction / len(steps)
    points: dict[int, float] = {}
    for f in steps:
        e = _epoch_point(f, epochs)
        points[e] = points.get(e, 0.0) + share
    return dict(sorted(points.items()))


def ddr_counts(n_samples: int, points: dict[int, float]) -> dict[int, int]:
    """Whole sample counts per removal epoch, summing exactly to ``round(total share * n_samples)``."""
    counts, removed, cum = {}, 0, 0.0
    for e, share in points.items():
        cum += share
        target = int(round(cum * n_samples))
        counts[e] = target - removed
        removed = target
    return counts
