"""Turn profiling measurements (accuracy, energy) into scores; the highest score is the choice.

The authors' scorers (omnia-unist/Miro ``optim/optimizer.py``), on our measurements:
- ``cutline`` (their ``highest_ETA``, the paper's cost-effectiveness): keep the top ``cutline``
  share by accuracy, then the argmax of accuracy / energy;
- ``weighted`` (their ``most_efficient``): inside the cutline, a*exp(acc/acc_med) + e*(1 - ln(E/E_med)),
  medians taken over the kept candidates;
- ``lowest_energy``: the cheapest inside the cutline; ``highest_accuracy``: the most accurate.
Candidates outside the cutline score ``-inf``. Energy is the one MEASURED on the device by default:
what the whole task would cost at the candidate's settings (``task_energy_j``, the tuner's
extrapolation of a precise measurement); when a candidate of the comparison has none, every
candidate is ranked by its task's steps instead (never by an imprecise figure). Measurements
without task figures (a profiler that reports none) are ranked by their profiling energy.
``energy="proxy"`` uses the authors' EM + SB samples per epoch instead.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Callable

from pipeline.errors import ConfigError
from pipeline.miro.candidates import Candidate

ENERGY_KINDS = ("measured", "proxy")
_MIN_ENERGY = 1e-9  # an energy of 0 (a gauge that did not tick) must not divide by zero


@dataclass
class Measurement:
    """One profiling run of one candidate: accuracy on the seen classes and what it cost."""

    candidate: Candidate
    accuracy: float
    energy_j: float | None
    seconds: float
    epochs: int
    session_id: str | None = None
    simulated: bool = False
    extra: dict[str, Any] = field(default_factory=dict)
    steps: int | None = None               # steps this profiling run trained
    task_steps: int | None = None          # steps the whole task trains at this candidate's settings
    task_energy_j: float | None = None     # the whole task's energy predicted from a precise measurement

    @property
    def proxy_energy(self) -> float:
        """The authors' proxy: samples trained per epoch x epochs."""
        return self.candidate.proxy_energy * max(self.epochs, 1)

    def energy(self, kind: str = "measured") -> float:
        """Energy by ``kind``; measured falls back to nothing: a missing measurement is an error."""
        if kind == "proxy":
            return self.proxy_energy
        if self.energy_j is None:
            raise ConfigError(f"miro.energy = 'measured' but the profiling run of {self.candidate.key} has no measured energy "
                              "(power sampling off?); use energy = 'proxy' or enable [power]")
        return max(float(self.energy_j), _MIN_ENERGY)

    def to_dict(self) -> dict[str, Any]:
        return {"candidate": self.candidate.to_dict(), "accuracy": self.accuracy, "energy_j": self.energy_j,
                "proxy_energy": self.proxy_energy, "seconds": self.seconds, "epochs": self.epochs,
                "session_id": self.session_id, "simulated": self.simulated, "steps": self.steps,
                "task_steps": self.task_steps, "task_energy_j": self.task_energy_j,
                **({"extra": self.extra} if self.extra else {})}


@dataclass(frozen=True)
class ScoringSpec:
    """How to score: which scorer, the cutline share, the weighted scorer's coefficients, which energy."""

    scorer: str = "cutline"
    cutline: float = 0.5
    acc_weight: float = 0.5
    energy_weight: float = 0.5
    energy: str = "measured"
    cutline_se: float = 0.0               # also keep candidates this many standard errors below the cutline
    eval_samples: int | None = None       # test samples behind each accuracy (the standard error's n)


def accuracy_se(accuracy_pct: float, n: int) -> float:
    """Binomial standard error (points) of an accuracy in % measured on ``n`` test samples."""
    p = min(max(accuracy_pct / 100.0, 0.0), 1.0)
    return 100.0 * math.sqrt(p * (1.0 - p) / n)


def kept_by_cutline(accuracies: list[float], cutline: float, cutline_se: float = 0.0,
                    eval_samples: int | None = None) -> list[int]:
    """Indices of the top ``cutline`` share by accuracy (at least one), best first; ties keep order.

    The authors' cutline is by rank, so two candidates whose accuracies differ by less than the test
    set can resolve are split by noise. With ``cutline_se > 0`` (and ``eval_samples``) a candidate
    within ``cutline_se`` standard errors of the last kept accuracy is kept too: below the cutline
    only when the evaluation says it is worse."""
    n = len(accuracies)
    keep = max(int(n * cutline), 1)
    order = sorted(range(n), key=lambda i: (-accuracies[i], i))
    kept = order[:keep]
    if cutline_se > 0 and eval_samples:
        last = accuracies[kept[-1]]
        floor = last - cutline_se * accuracy_se(last, eval_samples)
        kept += [i for i in order[keep:] if accuracies[i] >= floor]
    return kept


def _energies(ms: list[Measurement], kind: str) -> list[float]:
    """What each candidate costs, on ONE basis for the whole comparison (module doc)."""
    if kind == "measured" and all(m.task_steps is not None for m in ms):
        if all(m.task_energy_j is not None for m in ms):
            return [max(float(m.task_energy_j), _MIN_ENERGY) for m in ms]
        return [float(max(m.task_steps, 1)) for m in ms]
    return [m.energy(kind) for m in ms]


def energy_basis(ms: list[Measurement], kind: str) -> str:
    """Which figure ``_energies`` ranks ``ms`` by: "proxy", "task_energy", "task_steps" or "profiling_energy"."""
    if kind == "proxy":
        return "proxy"
    if all(m.task_steps is not None for m in ms):
        return "task_energy" if all(m.task_energy_j is not None for m in ms) else "task_steps"
    return "profiling_energy"


def cutline_scores(ms: list[Measurement], spec: ScoringSpec) -> list[float]:
    """Paper's cost-effectiveness: accuracy / energy inside the cutline, -inf outside."""
    acc = [m.accuracy for m in ms]
    energy = _energies(ms, spec.energy)
    kept = set(kept_by_cutline(acc, spec.cutline, spec.cutline_se, spec.eval_samples))
    return [acc[i] / energy[i] if i in kept else -math.inf for i in range(len(ms))]


def weighted_scores(ms: list[Measurement], spec: ScoringSpec) -> list[float]:
    """a*exp(acc/acc_med) + e*(1 - ln(E/E_med)) inside the cutline (medians over the kept ones)."""
    acc = [m.accuracy for m in ms]
    energy = _energies(ms, spec.energy)
    kept = kept_by_cutline(acc, spec.cutline, spec.cutline_se, spec.eval_samples)
    med = kept[len(kept) // 2]  # the authors' median: the middle of the kept set sorted by accuracy
    acc_med = max(acc[med], 1e-9)
    e_med = energy[med]
    return [spec.acc_weight * math.exp(acc[i] / acc_med) + spec.energy_weight * (1.0 - math.log(energy[i] / e_med))
            if i in set(kept) else -math.inf for i in range(len(ms))]


def lowest_energy_scores(ms: list[Measurement], spec: ScoringSpec) -> list[float]:
    """The cheapest inside the cutline wins (score = -energy)."""
    acc = [m.accuracy for m in ms]
    energy = _energies(ms, spec.energy)
    kept = set(kept_by_cutline(acc, spec.cutline, spec.cutline_se, spec.eval_samples))
    return [-energy[i] if i in kept else -math.inf for i in range(len(ms))]


def highest_accuracy_scores(ms: list[Measurement], spec: ScoringSpec) -> list[float]:
    """The most accurate wins; energy breaks ties (cheaper first)."""
    energy = _energies(ms, spec.energy)
    top = max(energy) if energy else 1.0
    return [m.accuracy - 1e-9 * e / max(top, _MIN_ENERGY) for m, e in zip(ms, energy)]


SCORERS: dict[str, Callable[[list[Measurement], ScoringSpec], list[float]]] = {
    "cutline": cutline_scores,
    "weighted": weighted_scores,
    "lowest_energy": lowest_energy_scores,
    "highest_accuracy": highest_accuracy_scores,
}


def score(ms: list[Measurement], spec: ScoringSpec) -> list[float]:
    """Scores of ``ms`` under ``spec`` (same order)."""
    if spec.scorer not in SCORERS:
        raise ConfigError(f"miro.scorer: expected one of {', '.join(map(repr, SCORERS))}, got {spec.scorer!r}")
    if spec.energy not in ENERGY_KINDS:
        raise ConfigError(f"miro.energy: expected one of {', '.join(map(repr, ENERGY_KINDS))}, got {spec.energy!r}")
    if not ms:
        return []
    return SCORERS[spec.scorer](ms, spec)


def best_index(ms: list[Measurement], spec: ScoringSpec) -> int:
    """Index of the winner: highest score, ties to the cheaper candidate (proxy), then list order."""
    if not ms:
        raise ConfigError("miro: nothing was profiled, so there is nothing to choose from")
    scores = score(ms, spec)
    return max(range(len(ms)), key=lambda i: (scores[i], -ms[i].candidate.proxy_energy, -i))


def cost_effectiveness(accuracy: float, energy_j: float) -> float:
    """Accuracy per joule — the figure Miro maximises and the bench compares."""
    return accuracy / max(energy_j, _MIN_ENERGY)


def hindsight_choice(accuracies: list[float], energies: list[float], spec: ScoringSpec) -> int:
    """The exhaustive oracle: Miro's own rule (the cutline on accuracy, then the best accuracy / energy)
    applied to every configuration's FINAL accuracy and total energy, known in hindsight."""
    if not accuracies or len(accuracies) != len(energies):
        raise ConfigError(f"miro oracle: expected one energy per accuracy, got {len(accuracies)} and {len(energies)}")
    kept = kept_by_cutline(accuracies, spec.cutline, spec.cutline_se, spec.eval_samples)
    return max(kept, key=lambda i: (cost_effectiveness(accuracies[i], energies[i]), -energies[i], -i))
