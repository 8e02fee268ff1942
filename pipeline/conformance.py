"""Conformance of two runs of the same session(s) (docs/semantics.md 8, 11): traces and the near-tie rule.

Two runners on the SAME program must write equal traces, line for line. Two different programs (the
torch-eager host trainer against a device runtime) must agree on everything discrete — kinds and
order of the lines, sample ids of every step, EM references, swap plans, removed rows, evaluation
counts — with losses within ``LOSS_TOL``; their weights differ in the last float bits, so a top-k
(TDM's drop, DGM's refresh) may differ where two scores are within ``NEAR_TIE`` relative of the
k-th score. ``compare_traces`` accepts such a mask difference only when ``MaskRecorder`` data shows
it is a near tie, and then stops: from there the two runs legitimately follow different masks.
"""
from __future__ import annotations

import json
import struct
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from android_harness.device.engine import EngineObserver
from android_harness.device.sparcl.masks import units_of

LOSS_TOL = 1e-5
NEAR_TIE = 1e-5


def read_trace(paths: list[str | Path]) -> list[dict]:
    """The lines of one or more trace files, in order (one session per task: pass them in task order)."""
    return [json.loads(line) for p in paths for line in Path(p).read_text().splitlines()]


def loss_value(bits: str) -> float:
    return struct.unpack("<f", int(bits, 16).to_bytes(4, "little"))[0]


@dataclass
class TopK:
    """One top-k a runner made: the units it kept, the scores it ranked, and k."""

    kept: dict[str, np.ndarray]
    scores: dict[str, np.ndarray]
    keep: dict[str, int]


class MaskRecorder(EngineObserver):
    """Records every TDM drop and DGM refresh of a run (by ``(kind, task, epoch or step)``)."""

    def __init__(self) -> None:
        self.topk: dict[tuple[str, int, int], TopK] = {}

    def on_tdm(self, task, epoch, result) -> None:
        scores = {n: np.array(s, np.float64) for n, s in result.scores.items()}
        kept = {n: units_of(m, scores[n].size != m.size) for n, m in result.survivors.items()}   # per unit
        self.topk[("tdm", task, epoch)] = TopK(kept, scores, dict(result.keep))

    def on_dgm(self, task, step, grads, weight_masks, masks) -> None:
        kept, scores, keep = {}, {}, {}
        for n, m in masks.items():
            live = np.asarray(weight_masks[n]).reshape(-1) > 0
            s = np.abs(np.asarray(grads[n]), dtype=np.float64).reshape(-1)
            scores[n] = np.where(live, s, -np.inf)
            kept[n] = np.asarray(m).reshape(-1) > 0
            keep[n] = int(kept[n].sum())
        self.topk[("dgm", task, step)] = TopK(kept, scores, keep)


def kth_score(scores: np.ndarray, k: int) -> float:
    return float(np.sort(scores)[::-1][k - 1])


def near_tie(a: TopK, b: TopK) -> str | None:
    """None when every unit kept by one side only scores within ``NEAR_TIE`` relative of the k-th
    score (on both sides' scores), else a description of the first unit that does not."""
    for name in a.kept:
        diff = np.flatnonzero(a.kept[name] != b.kept[name])
        if diff.size == 0:
            continue
        if a.keep[name] != b.keep[name] or a.keep[name] == 0:
            return f"{name}: the two sides kept {a.keep[name]} and {b.keep[name]} units"
        for side in (a, b):
            kth = kth_score(side.scores[name], side.keep[name])
            far = np.abs(side.scores[name][diff] - kth) > NEAR_TIE * abs(kth)
            if far.any():
                u = int(diff[np.argmax(far)])
                return f"{name}: unit {u} scores {side.scores[name][u]!r}, k-th score {kth!r}: not a near tie"
    return None


@dataclass
class Comparison:
    lines: int                                  # lines compared
    lengths: tuple[int, int] = (0, 0)           # lines of the two traces
    max_loss_diff: float = 0.0
    near_tie_at: str | None = None              # where an explained mask difference stopped the comparison
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems

    @property
    def complete(self) -> bool:
        """No problem, no near tie stopped it, and every line of both traces was compared: the runs conform."""
        return self.ok and self.near_tie_at is None and self.lines == self.lengths[0] == self.lengths[1]


def compare_traces(a: list[dict], b: list[dict], loss_tol: float = 0.0, rec_a: MaskRecorder | None = None,
                   rec_b: MaskRecorder | None = None) -> Comparison:
    """``loss_tol = 0``: the same program, every line equal. Otherwise the host-vs-device rules above."""
    out = Comparison(0, (len(a), len(b)))
    for i, (x, y) in enumerate(zip(a, b)):
        if not _line_conforms(f"line {i} ({x.get('k')} task {x.get('task')})", x, y, loss_tol, rec_a, rec_b, out):
            return out
        out.lines += 1
        if out.near_tie_at is not None:
            return out
    if len(a) != len(b):
        out.problems.append(f"{len(a)} lines against {len(b)}")
    return out


def _line_conforms(where: str, x: dict, y: dict, loss_tol: float, rec_a: MaskRecorder | None,
                   rec_b: MaskRecorder | None, out: Comparison) -> bool:
    """One line pair; False (with a problem recorded) when they do not conform."""
    if loss_tol == 0.0 or x["k"] not in ("step", "tdm", "dgm") or x.get("task") != y.get("task") or x["k"] != y["k"]:
        if x != y:
            out.problems.append(f"{where}: {x} != {y}")
        return x == y
    if x["k"] == "step":
        d = abs(loss_value(x["loss"]) - loss_value(y["loss"]))
        out.max_loss_diff = max(out.max_loss_diff, d)
        if x["ids"] != y["ids"] or x["step"] != y["step"] or x["epoch"] != y["epoch"]:
            out.problems.append(f"{where}: sample order differs")
        elif d > loss_tol:
            out.problems.append(f"{where}: losses differ by {d:g} > {loss_tol:g}")
        return out.ok
    if x == y:
        return True
    key = (x["k"], x["task"], x.get("epoch", x.get("step")))
    if rec_a is None or rec_b is None or key not in rec_a.topk or key not in rec_b.topk:
        out.problems.append(f"{where}: masks differ and no recorded top-k explains it")
        return False
    ta, tb = rec_a.topk[key], rec_b.topk[key]
    if x["k"] == "tdm" and all(np.array_equal(ta.kept[n], tb.kept[n]) for n in ta.kept):
        out.problems.append(f"{where}: same units kept but different masks (the grow must be equal)")
        return False
    why = near_tie(ta, tb)
    if why is not None:
        out.problems.append(f"{where}: {why}")
        return False
    out.near_tie_at = where
    return True
