"""Which candidates to profile, for how long: the authors' grid / random / weighted-random, and halving.

Every search calls ``evaluate(candidate, epochs) -> Measurement`` (one profiling run on the device)
and returns every run it made, the measurements the choice was made over, and the epochs spent
(the budget unit: one profiling epoch = one pass over a candidate's scaled EM + SB).

- ``grid``: every candidate, ``epochs`` each (the authors' exhaustive navigator).
- ``random``: a ``fraction`` of the candidates drawn uniformly (their ``random`` navigator).
- ``weighted_random``: drawn with per-candidate probabilities that the previous task's results
  moved: the lowest quarter by accuracy and the lower half by score keep 20% of their probability,
  the rest goes to the other tested candidates (their ``weighted_random`` navigator).
- ``halving``: successive halving — everyone at a few epochs, the best ``1/eta`` by score go on
  with ``eta`` times more, until at most ``eta`` remain; the most rungs that fit ``budget_epochs``.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import Any, Callable

import numpy as np

from pipeline.errors import ConfigError
from pipeline.miro.candidates import Candidate
from pipeline.miro.scorers import Measurement, ScoringSpec, best_index, score

Evaluate = Callable[[Candidate, int], Measurement]
SEARCHES = ("grid", "random", "weighted_random", "halving")


@dataclass
class SearchResult:
    """What a search ran and what it chose."""

    kind: str
    runs: list[Measurement]
    final: list[Measurement]
    chosen: Measurement
    scores: list[float]
    epochs_used: int
    rungs: list[dict[str, Any]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "epochs_used": self.epochs_used, "chosen": self.chosen.candidate.key,
                "final": [{"key": m.candidate.key, "score": (None if math.isinf(s) else s)} for m, s in zip(self.final, self.scores)],
                "rungs": self.rungs, "notes": self.notes}


def _finish(kind: str, runs: list[Measurement], final: list[Measurement], scoring: ScoringSpec,
            rungs: list[dict[str, Any]] | None = None, notes: list[str] | None = None) -> SearchResult:
    i = best_index(final, scoring)
    return SearchResult(kind, runs, final, final[i], score(final, scoring), sum(m.epochs for m in runs),
                        rungs or [], notes or [])


def grid_search(cands: list[Candidate], evaluate: Evaluate, epochs: int, scoring: ScoringSpec, kind: str = "grid") -> SearchResult:
    """Profile every candidate for ``epochs``; choose by ``scoring``."""
    if not cands:
        raise ConfigError("miro: the candidate space is empty after clipping")
    runs = [evaluate(c, epochs) for c in cands]
    return _finish(kind, runs, runs, scoring)


def random_subset(cands: list[Candidate], fraction: float, rng: np.random.Generator,
                  weights: list[float] | None = None) -> list[Candidate]:
    """``fraction`` of ``cands`` (at least one), drawn without replacement, kept in their order."""
    n = len(cands)
    k = min(n, max(1, int(n * fraction)))
    if k >= n:
        return list(cands)
    p = None
    if weights is not None:
        w = np.asarray(weights, dtype=float)
        w = np.clip(w, 1e-12, None)
        p = w / w.sum()
    picked = rng.choice(n, size=k, replace=False, p=p)
    return [cands[i] for i in sorted(int(i) for i in picked)]


class WeightedRandomSampler:
    """The authors' weighted-random navigator, with its probabilities kept across tasks by candidate key."""

    VICTIM_KEEP = 0.2

    def __init__(self) -> None:
        self.weights: dict[str, float] = {}

    def weights_for(self, cands: list[Candidate]) -> list[float]:
        """Current weights (a never-seen candidate gets the mean of the known ones, or 1)."""
        mean = float(np.mean(list(self.weights.values()))) if self.weights else 1.0
        return [self.weights.get(c.key, mean) for c in cands]

    def sample(self, cands: list[Candidate], fraction: float, rng: np.random.Generator) -> list[Candidate]:
        return random_subset(cands, fraction, rng, self.weights_for(cands))

    def update(self, final: list[Measurement], scores: list[float]) -> None:
        """Move probability from the losers of the last profiling to its other tested candidates."""
        if len(final) < 2:
            return
        n = len(final)
        by_acc = sorted(range(n), key=lambda i: final[i].accuracy)
        victims = set(by_acc[:max(1, n // 4)])
        by_score = sorted(range(n), key=lambda i: -scores[i])
        victims |= set(by_score[max(1, n // 2):])
        winners = [i for i in range(n) if i not in victims]
        if not winners:
            return
        current = self.weights_for([m.candidate for m in final])
        freed = 0.0
        for i in victims:
            ticket = current[i] * (1.0 - self.VICTIM_KEEP)
            current[i] -= ticket
            freed += ticket
        for i in winners:
            current[i] += freed / len(winners)
        for m, w in zip(final, current):
            self.weights[m.candidate.key] = w


def halving_plan(n: int, budget_epochs: int, eta: int = 2, max_epochs: int | None = None) -> list[tuple[int, int]]:
    """Rungs as (candidates, epochs each): sizes n, ceil(n/eta), ... down to <= eta.

    Epochs grow by ``eta`` per rung towards the last rung's ``r_last`` (earlier rungs get
    r_last / eta^k, at least 1): the largest ``r_last`` <= ``max_epochs`` whose cost (``plan_cost``)
    fits ``budget_epochs``. A budget too small for one epoch each still profiles everyone once.
    """
    if eta < 2:
        raise ConfigError(f"miro.halving_eta: expected >= 2, got {eta}")
    sizes = [n]
    while sizes[-1] > eta:
        sizes.append(math.ceil(sizes[-1] / eta))
    last = len(sizes) - 1

    def plan(r_last: int) -> list[tuple[int, int]]:
        return [(s, max(1, r_last // eta ** (last - k))) for k, s in enumerate(sizes)]

    cap = max_epochs if max_epochs is not None else max(1, budget_epochs)
    r_last = 1
    while r_last < cap and plan_cost(plan(r_last + 1)) <= budget_epochs:
        r_last += 1
    return plan(r_last)


def plan_cost(plan: list[tuple[int, int]]) -> int:
    """Epochs a plan spends; a rung whose epochs did not grow reuses the previous rung's runs."""
    total, prev = 0, None
    for size, epochs in plan:
        if epochs != prev:
            total += size * epochs
        prev = epochs
    return total


def successive_halving(cands: list[Candidate], evaluate: Evaluate, scoring: ScoringSpec, budget_epochs: int,
                       eta: int = 2, max_epochs: int | None = None) -> SearchResult:
    """Successive halving over ``cands`` within ``budget_epochs`` profiling epochs; choose at the last rung."""
    if not cands:
        raise ConfigError("miro: the candidate space is empty after clipping")
    plan = halving_plan(len(cands), budget_epochs, eta, max_epochs)
    runs: list[Measurement] = []
    rungs: list[dict[str, Any]] = []
    alive = list(cands)
    final: list[Measurement] = []
    done: dict[tuple[str, int], Measurement] = {}
    rung_scoring = scoring
    for k, (size, epochs) in enumerate(plan):
        if k > 0 and not alive:
            break
        alive = alive[:size]
        final = []
        for c in alive:
            if (c.key, epochs) not in done:
                done[(c.key, epochs)] = evaluate(c, epochs)
                runs.append(done[(c.key, epochs)])
            final.append(done[(c.key, epochs)])
        s = score(final, rung_scoring)
        order = sorted(range(len(final)), key=lambda i: (-s[i], final[i].candidate.proxy_energy, i))
        rungs.append({"rung": k, "epochs": epochs, "candidates": [m.candidate.key for m in final],
                      "ranking": [final[i].candidate.key for i in order]})
        last_scoring = rung_scoring
        alive = [final[i].candidate for i in order if not math.isinf(s[i])]
        # The cutline picks the eligible set once, over everyone; later rungs rank survivors by score alone.
        rung_scoring = replace(scoring, cutline=1.0)
    notes = []
    used = sum(m.epochs for m in runs)
    if used > budget_epochs:
        notes.append(f"budget {budget_epochs} epochs is below one epoch per rung; used {used}")
    return _finish("halving", runs, final, last_scoring, rungs, notes)


def run_search(kind: str, cands: list[Candidate], evaluate: Evaluate, scoring: ScoringSpec, *, epochs: int,
               fraction: float = 1.0, budget_epochs: int = 0, eta: int = 2, rng: np.random.Generator | None = None,
               sampler: WeightedRandomSampler | None = None) -> SearchResult:
    """Dispatch by ``kind`` (one of ``SEARCHES``); halving's ``budget_epochs`` 0 = half the grid's."""
    rng = rng if rng is not None else np.random.default_rng(0)
    if kind == "grid":
        return grid_search(cands, evaluate, epochs, scoring)
    if kind == "random":
        return grid_search(random_subset(cands, fraction, rng), evaluate, epochs, scoring, kind="random")
    if kind == "weighted_random":
        sampler = sampler if sampler is not None else WeightedRandomSampler()
        result = grid_search(sampler.sample(cands, fraction, rng), evaluate, epochs, scoring, kind="weighted_random")
        sampler.update(result.final, result.scores)
        return result
    if kind == "halving":
        budget = budget_epochs or max(len(cands), len(cands) * epochs // 2)
        return successive_halving(cands, evaluate, scoring, budget, eta, max_epochs=epochs)
    raise ConfigError(f"miro.search: expected one of {', '.join(map(repr, SEARCHES))}, got {kind!r}")
