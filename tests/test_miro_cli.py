"""``edgecl tune --show`` renders miro.json: every profiling run, the chosen one marked, the overhead share."""
from __future__ import annotations

import io

from rich.console import Console

from pipeline.cli.tune_cmd import overhead_line, print_decisions
from pipeline.config import parse_spec
from pipeline.miro.tuner import MiroTuner, TaskInfo
from tests.test_miro_tuner import SurfaceProfiler


def test_decisions_print_with_measurements_and_overhead(tmp_path):
    spec = parse_spec({"miro": {"enabled": True, "start_task": 2, "em_sizes": [50, 200], "sb_sizes": [50, 100]}})
    tuner = MiroTuner(spec, SurfaceProfiler(), results_dir=tmp_path)
    for i in range(3):
        tuner.choose(TaskInfo(i, task_samples=100, seen_samples=100 * i))
    tuner.set_run_totals(energy_j=4 * tuner.profiling_energy_j, seconds=2 * tuner.profiling_seconds)
    data = tuner.to_dict()
    buf = io.StringIO()
    print_decisions(data, Console(file=buf, width=200))
    text = buf.getvalue()
    assert "task 1: default em200-sb400" in text
    assert text.count("chosen") == 2 and "mini-checkpoint" in text
    assert "(simulated)" in text
    assert "25.0% of the run's" in overhead_line(data) and "50.0% of its" in overhead_line(data)
