"""``edgecl tune --show`` renders miro.json: every profiling run, the chosen one marked, the overhead share."""
from __future__ import annotations

import io
from pathlib import Path

from rich.console import Console

from pipeline.cli.tune_cmd import overhead_line, print_decisions
from pipeline.config import parse_spec
from pipeline.errors import ConfigError
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


def _tune(*args: str):
    from typer.testing import CliRunner

    from pipeline.cli.app import app

    return CliRunner().invoke(app, ["tune", *args], env={"COLUMNS": "200"})


def test_tune_takes_set_and_vphone_like_run(monkeypatch, tmp_path):
    """--set overrides reach the spec Miro runs, --vphone asks for a virtual phone; both refused like run's."""
    import pipeline.miro.run as miro_run

    spec = Path(__file__).resolve().parents[1] / "experiments" / "split-digits.toml"
    bad = _tune(str(spec), "--set", "train.epochs=zero")
    assert isinstance(bad.exception, ConfigError) and "train.epochs" in str(bad.exception)
    both = _tune(str(spec), "--vphone", "--serial", "emulator-5554")
    assert isinstance(both.exception, ConfigError) and "not both" in str(both.exception)
    seen = {}

    def record(spec_path, out, *, device=None, overrides=None, vphone=False, **_):
        seen.update(spec=miro_run.load_spec(spec_path, overrides), device=device, vphone=vphone)
        raise SystemExit(0)

    monkeypatch.setattr(miro_run, "run_with_miro", record)
    _tune(str(spec), "--vphone", "--set", "train.epochs=2")
    assert seen["vphone"] and seen["device"] is None
    assert seen["spec"].train.epochs == 2 and seen["spec"].miro.enabled
