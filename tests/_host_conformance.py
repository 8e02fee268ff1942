"""The check device tests share: a finished ``edgecl run`` folder equals the torch-eager host trainer on
the same spec (every discrete trace line, losses within LOSS_TOL, no near tie, the same class-IL)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from pipeline.cl.trainer import HostTrainer
from pipeline.config import ExperimentSpec
from pipeline.conformance import LOSS_TOL, compare_traces, read_trace


def run_sessions(folder: Path) -> list[Path]:
    """The run's task session folders, in task order (from summary.json)."""
    summary = json.loads((folder / "summary.json").read_text())
    return [folder / "sessions" / t["session_id"] for t in summary["tasks"]]


def assert_conforms_to_host(spec: ExperimentSpec, folder: Path, host_root: Path) -> None:
    summary = json.loads((folder / "summary.json").read_text())
    host = HostTrainer(spec, progress=False, root=host_root)
    result = host.run()
    cmp = compare_traces(read_trace([s / "trace.jsonl" for s in host.sessions]),
                         read_trace([s / "trace.jsonl" for s in run_sessions(folder)]), LOSS_TOL)
    assert cmp.ok and cmp.near_tie_at is None, (cmp.problems, cmp.near_tie_at)
    assert summary["metrics"]["class_il"] == pytest.approx(result.summary["class_il"], abs=1e-9)
