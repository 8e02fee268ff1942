"""Miro's searches: halving finds the known best of a synthetic response surface for less than the grid."""
from __future__ import annotations

import math

import numpy as np

from pipeline.miro.candidates import Candidate
from pipeline.miro.scorers import Measurement, ScoringSpec, best_index
from pipeline.miro.search import WeightedRandomSampler, halving_plan, plan_cost, random_subset, run_search

SCORING = ScoringSpec("cutline", cutline=0.5)
GRID = [Candidate(em, sb) for em in (25, 50, 100, 200, 400, 800) for sb in (50, 100, 200)]


def _true_accuracy(c: Candidate) -> float:
    """Diminishing returns in EM and SB, a ceiling at 0.9 (the paper's accuracy shape)."""
    return 0.9 * (1 - math.exp(-c.em_size / 150)) * (1 - math.exp(-c.sb_size / 60)) + 0.05


def _surface(seed: int = 0):
    rng = np.random.default_rng(seed)
    calls: list[tuple[str, int]] = []

    def evaluate(c: Candidate, epochs: int) -> Measurement:
        calls.append((c.key, epochs))
        learned = 1 - 0.5 ** (epochs + 1)  # short runs see a scaled-down accuracy
        noise = rng.normal(0, 0.01 / epochs)
        energy = 0.01 * (c.em_size + c.sb_size) * epochs * (1 + rng.normal(0, 0.01))
        return Measurement(c, _true_accuracy(c) * learned + noise, energy, seconds=epochs, epochs=epochs)

    return evaluate, calls


def _known_best() -> Candidate:
    exact = [Measurement(c, _true_accuracy(c), 0.01 * (c.em_size + c.sb_size) * 4, 1.0, 4) for c in GRID]
    return exact[best_index(exact, SCORING)].candidate


def test_halving_plan_fits_the_budget():
    plan = halving_plan(18, budget_epochs=36, eta=2, max_epochs=4)
    assert [s for s, _ in plan] == [18, 9, 5, 3, 2]
    assert plan_cost(plan) <= 36 and plan[0][1] == 1 and plan[-1][1] == 4
    assert plan_cost(halving_plan(18, budget_epochs=5, eta=2)) > 5  # too small: everyone still runs once


def test_halving_picks_the_known_best_for_less_than_the_grid():
    best = _known_best()
    evaluate, calls = _surface()
    grid = run_search("grid", GRID, evaluate, SCORING, epochs=4)
    grid_epochs = grid.epochs_used
    evaluate, calls = _surface()
    halving = run_search("halving", GRID, evaluate, SCORING, epochs=4)
    assert grid.chosen.candidate == best
    assert halving.chosen.candidate == best
    assert halving.epochs_used <= grid_epochs // 2
    assert len(set(calls)) == len(calls)  # no run repeated
    assert halving.rungs[0]["epochs"] < halving.rungs[-1]["epochs"]


def test_random_subset_size_and_determinism():
    rng = np.random.default_rng(3)
    a = random_subset(GRID, 0.2, rng)
    assert len(a) == 3 and all(c in GRID for c in a)
    assert random_subset(GRID, 0.2, np.random.default_rng(3)) == a


def test_weighted_random_moves_probability_to_winners():
    evaluate, _ = _surface()
    sampler = WeightedRandomSampler()
    result = run_search("weighted_random", GRID, evaluate, SCORING, epochs=2, fraction=1.0, sampler=sampler)
    w = sampler.weights_for(GRID)
    worst = min(range(len(GRID)), key=lambda i: result.final[i].accuracy)
    chosen = GRID.index(result.chosen.candidate)
    assert w[worst] < 1.0 < w[chosen]
    assert sum(w) == np.float64(len(GRID)) or abs(sum(w) - len(GRID)) < 1e-9
