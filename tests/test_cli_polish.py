"""CLI details a new user trips over: help text that keeps [brackets], --serial documented on every
command, run --set, datasets --root judged by the files, caches under $EDGECL_HOME, and third-party
export chatter silenced unless --verbose."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import click
import typer
from typer.testing import CliRunner

from pipeline.cli.app import app

ROOT = Path(__file__).resolve().parents[1]
SPEC = ROOT / "experiments" / "split-digits.toml"


def _commands(group: click.Group, prefix: str = ""):
    for name, cmd in group.commands.items():
        if isinstance(cmd, click.Group):
            yield from _commands(cmd, f"{prefix}{name} ")
        else:
            yield f"{prefix}{name}", cmd


def test_tune_help_keeps_the_miro_table_name():
    res = CliRunner().invoke(app, ["tune", "--help"], env={"COLUMNS": "200"})
    assert res.exit_code == 0 and "its [miro] table is used" in res.output


def test_every_serial_option_has_help_text():
    with_serial = []
    for name, cmd in _commands(typer.main.get_command(app)):
        for p in cmd.params:
            if "--serial" in getattr(p, "opts", []):
                with_serial.append(name)
                assert p.help and "serial" in p.help, f"{name}: --serial has no help"
    assert {"run", "sessions", "attach", "cancel", "shell", "push", "trace", "doctor"} <= set(with_serial)


def test_run_takes_set_overrides_checked_before_any_device():
    res = CliRunner().invoke(app, ["run", str(SPEC), "--set", "train.epochs=0", "--set", "data.tasks=2"])
    assert isinstance(res.exception, Exception) and "train.epochs: expected a value >= 1, got 0" in str(res.exception)
    bad = CliRunner().invoke(app, ["run", str(SPEC), "--set", "train.epochs"])
    assert "expected key=value" in str(bad.exception)


def test_datasets_root_is_judged_by_its_files(tmp_path):
    from tests.test_datasets import write_mnist_folder

    runner = CliRunner()
    empty = runner.invoke(app, ["datasets", "--root", str(tmp_path)], env={"COLUMNS": "250"})
    rows = {line.split("│")[1].strip(): line for line in empty.output.splitlines() if line.count("│") > 4}
    for name in ("mnist", "fashion_mnist", "cifar10", "cifar100"):
        assert "│ no " in rows[name], rows[name]
    assert "missing train-images-idx3-ubyte" in empty.output
    write_mnist_folder(tmp_path)
    full = runner.invoke(app, ["datasets", "--root", str(tmp_path)], env={"COLUMNS": "250"})
    rows = {line.split("│")[1].strip(): line for line in full.output.splitlines() if line.count("│") > 4}
    assert "│ yes " in rows["mnist"] and "│ no " in rows["cifar10"]
    assert 'kind = "arrays"' in full.output and 'kind = "ts"' in full.output


def test_export_caches_under_edgecl_home_and_is_quiet_unless_verbose(tmp_path):
    """No .edgecl-cache in the working folder; no torch/ExecuTorch warnings or log lines on stderr; --verbose
    brings them back."""
    env = {**os.environ, "EDGECL_HOME": str(tmp_path / "home"), "PYTHONPATH": str(ROOT)}
    env.pop("TORCH_LOGS", None)
    work = tmp_path / "work"
    work.mkdir()
    cmd = [sys.executable, "-m", "pipeline.cli.app", "export", str(SPEC), "--runtime", "executorch",
           "--out", str(tmp_path / "out"), "--no-fast-passes", "--force"]
    quiet = subprocess.run(cmd, cwd=work, env=env, capture_output=True, text=True, timeout=600)
    assert quiet.returncode == 0, quiet.stderr
    assert list(work.iterdir()) == []
    assert any((tmp_path / "home" / "cache" / "data").iterdir())
    for noise in ("Warning", "W1", "Failed to load"):
        assert noise not in quiet.stderr, quiet.stderr[-2000:]
    loud = subprocess.run(cmd[:3] + ["--verbose"] + cmd[3:], cwd=work, env=env, capture_output=True, text=True,
                          timeout=600)
    assert loud.returncode == 0 and "Warning" in loud.stderr
