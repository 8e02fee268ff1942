"""TDM's mask update (docs/semantics.md 8): drop by ``|w| + lam * |g_prev|``, regrow at random.

Per layer, in the signature's mask order: if the live count exceeds ``keep_count(units, drop_to)``
keep that many live units by stable top-k of the score, else keep every live unit; then
``n_grow = max(0, keep_count(units, grow_to) - kept)`` of the non-kept units (ascending) become
live, chosen by ``sample(|dead|, n_grow)`` of the ONE ``TDM_GROW`` stream of this update. The
caller zeroes every weight outside ``survivors`` (kept units), so dropped weights become 0 and
grown ones start at exactly 0, and clears their optimizer state.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping

import numpy as np

from android_harness.device.rng import Stream
from android_harness.device.sparcl.masks import expand_units, keep_count, stable_top_k, unit_scores, units_of


@dataclass
class TdmResult:
    masks: dict[str, np.ndarray]                 # new float32 weight masks
    survivors: dict[str, np.ndarray]             # float32: live before and kept (multiply into the weights)
    scores: dict[str, np.ndarray] = field(default_factory=dict)   # per unit, for the near-tie check
    keep: dict[str, int] = field(default_factory=dict)            # the drop's k (0 = nothing dropped)


def tdm_update(weights: Mapping[str, np.ndarray], masks: Mapping[str, np.ndarray], g_prev: Mapping[str, np.ndarray] | None,
               drop_to: float, grow_to: float, lam: float, grow_stream: Stream, order: list[str],
               structured: bool = False) -> TdmResult:
    """One mask update over the layers ``order`` (the signature's mask names)."""
    res = TdmResult({}, {})
    for name in order:
        shape = tuple(np.shape(masks[name]))
        live = units_of(masks[name], structured)
        scores = unit_scores(np.asarray(weights[name]), None if g_prev is None else g_prev[name], lam, structured)
        k_drop = keep_count(live.size, drop_to)
        if int(live.sum()) > k_drop:
            kept = stable_top_k(scores, k_drop, eligible=live)
            res.keep[name] = k_drop
        else:
            kept = live.copy()
            res.keep[name] = 0
        new = kept.copy()
        n_grow = max(0, keep_count(live.size, grow_to) - int(kept.sum()))
        if n_grow:
            dead = np.flatnonzero(~kept)
            new[dead[grow_stream.sample(dead.size, n_grow)]] = True
        res.masks[name] = expand_units(new, shape, structured)
        res.survivors[name] = expand_units(kept, shape, structured)
        res.scores[name] = scores
    return res
