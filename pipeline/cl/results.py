"""What a continual-learning run produces, and its files (numpy-only; the device runner writes the same).

``write`` puts ``result.json`` (everything), ``accuracy_class_il.csv`` / ``accuracy_task_il.csv``
(rows = after task i, columns = task j) and ``tasks.csv`` (per-task costs) into a folder, each
written to a temporary name and renamed.
"""
from __future__ import annotations

import csv
import io
import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from android_harness.device.fileio import write_text_atomic

from android_harness.device.metrics import average_accuracy, summarize


@dataclass
class TaskCost:
    """Work done while training one task (one session): steps of ``B`` rows each, DDR removals, time."""

    task: int
    train_samples: int = 0      # SB rows at the task start
    steps: int = 0
    samples: int = 0            # rows trained (steps x B: every row forwarded and backwarded)
    removed: int = 0            # SB rows DDR removed
    forgotten: int = 0          # over DDR's removals: active rows with a forgetting event in the window
    seconds: float = 0.0        # the session's wall time (training + evaluation)
    mean_loss: float = 0.0


@dataclass
class CLResult:
    """Accuracy matrices, their summary and per-task costs of one run."""

    name: str
    method: str
    dataset: str
    seed: int
    task_classes: list[list[int]]
    class_il: np.ndarray
    task_il: np.ndarray
    costs: list[TaskCost]
    wall_s: float = 0.0
    spec: dict[str, Any] = field(default_factory=dict)
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def summary(self) -> dict[str, float]:
        return summarize(self.class_il, self.task_il)

    def to_dict(self) -> dict[str, Any]:
        def mat(m: np.ndarray) -> list[list[float | None]]:
            return [[None if np.isnan(v) else round(float(v), 4) for v in row] for row in m]

        return {
            "name": self.name, "method": self.method, "dataset": self.dataset, "seed": self.seed,
            "task_classes": self.task_classes, "summary": self.summary,
            "avg_class_il_per_task": [round(float(v), 4) for v in average_accuracy(self.class_il)],
            "avg_task_il_per_task": [round(float(v), 4) for v in average_accuracy(self.task_il)],
            "accuracy_class_il": mat(self.class_il), "accuracy_task_il": mat(self.task_il),
            "costs": [asdict(c) for c in self.costs], "wall_s": round(self.wall_s, 4),
            "spec": self.spec, "extra": self.extra,
        }

    def write(self, folder: str | Path) -> Path:
        """Write the result files into ``folder``; return the path of ``result.json``."""
        folder = Path(folder)
        folder.mkdir(parents=True, exist_ok=True)
        write_text_atomic(folder / "result.json", json.dumps(self.to_dict(), indent=1))
        for name, m in (("accuracy_class_il.csv", self.class_il), ("accuracy_task_il.csv", self.task_il)):
            rows = [["after_task"] + [f"task{j}" for j in range(len(m))]]
            rows += [[str(i)] + ["" if np.isnan(v) else f"{v:.4f}" for v in row] for i, row in enumerate(m)]
            write_text_atomic(folder / name, _csv(rows))
        cost_fields = list(asdict(self.costs[0])) if self.costs else ["task"]
        write_text_atomic(folder / "tasks.csv", _csv([cost_fields] + [[str(v) for v in asdict(c).values()] for c in self.costs]))
        return folder / "result.json"


def _csv(rows: list[list[str]]) -> str:
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerows(rows)
    return buf.getvalue()

