"""Spec-time limits: every bad value is rejected with exit 2, naming the
field, before any device is touched; hostile names never become paths outside their root."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from android_harness.device.paths import UnsafePathError, check_name, name_problem, under_root
from pipeline.config import load_spec
from pipeline.errors import ConfigError
from pipeline.spec_limits import data_problems, replay_ram_problem

REPO = Path(__file__).resolve().parents[1]
SPEC = REPO / "experiments" / "split-digits.toml"

HOSTILE_NAMES = [
    "..", ".", "../escape", "../../escape", "a/../../b", "/etc/passwd", "/abs", "a/b", "a\\b", "~root",
    ".hidden", "-rf", "a b", "a\nb", "a\x00b", "x" * 65, "é", "$(reboot)", "`id`", "a;rm -rf /", "*", "",
]


@pytest.mark.parametrize("name", HOSTILE_NAMES)
def test_hostile_name_is_refused_and_never_escapes(name: str, tmp_path: Path) -> None:
    assert name_problem(name, "name") is not None
    with pytest.raises(UnsafePathError, match="name"):
        check_name(name, "name")
    root = tmp_path / "root"
    root.mkdir()
    try:
        path = under_root(root, name)
    except UnsafePathError:
        return
    assert path == str(root.resolve()) or path.startswith(str(root.resolve()) + os.sep)


def test_safe_names_pass() -> None:
    for name in ("split-digits", "demo", "run_1.v2", "A" * 64):
        assert check_name(name, "name") == name


def test_under_root_refuses_a_symlink_out(tmp_path: Path) -> None:
    root = tmp_path / "root"
    root.mkdir()
    (root / "link").symlink_to(tmp_path)
    with pytest.raises(UnsafePathError, match="outside"):
        under_root(root, "link", "x")
    assert under_root(root, "a", "b").startswith(str(root.resolve()))


@pytest.mark.parametrize("key, value, field", [
    ("name", "../../escape", "name"),
    ("name", "/tmp/abs", "name"),
    ("name", "", "name"),
    ("name", "a/b", "name"),
    ("model.hidden", [0], "model.hidden[0]"),
    ("model.hidden", [100, -5], "model.hidden[1]"),
])
def test_static_limits(key: str, value: object, field: str) -> None:
    with pytest.raises(ConfigError) as err:
        load_spec(SPEC, {key: value})
    assert any(p.startswith(field + ":") for p in err.value.problems), err.value.problems
    assert err.value.exit_code == 2


def test_data_limits() -> None:
    spec = load_spec(SPEC, {"train.batch_size": 4096, "replay.em_size": 10**9})
    problems = data_problems(spec, [270, 271, 265])
    assert problems[0].startswith("train.batch_size: 4096 is larger than task 3's 265 training samples")
    assert problems[1].startswith("replay.em_size: 1000000000 exceeds the 806 training samples")
    assert data_problems(load_spec(SPEC), [270, 271, 265]) == []


def test_ram_limit() -> None:
    spec = load_spec(SPEC, {"replay.em_size": 1000, "replay.sb_size": 10**8})
    problem = replay_ram_problem(spec, (64,), 10, ram_bytes=8 * 2**30, largest_task=10**8)
    assert problem is not None and problem.startswith("replay.em_size + replay.sb_size:")
    assert replay_ram_problem(load_spec(SPEC), (64,), 10, ram_bytes=8 * 2**30, largest_task=300) is None


@pytest.mark.parametrize("old, new, field", [
    ('name = "split-digits"', 'name = "../../escape"', "name:"),
    ("hidden = [100, 100]", "hidden = [0]", "model.hidden[0]:"),
    ("batch_size = 32\n", "batch_size = 4096\n", "train.batch_size:"),
    ("em_size = 200", "em_size = 1000000000", "replay.em_size:"),
])
def test_cli_rejects_before_any_device_call(old: str, new: str, field: str, tmp_path: Path) -> None:
    """``edgecl run`` exits 2 naming the field; the adb server it would use does not exist, so any
    device call would fail with another message and exit code."""
    text = SPEC.read_text()
    assert old in text
    spec = tmp_path / "bad.toml"
    spec.write_text(text.replace(old, new, 1))
    env = {**os.environ, "ADB_SERVER_SOCKET": "tcp:127.0.0.1:9", "EDGECL_HOME": str(tmp_path / "home"),
           "PYTHONPATH": str(REPO)}
    proc = subprocess.run([sys.executable, "-m", "pipeline.cli.app", "run", str(spec), "--serial", "nosuch",
                           "--out", str(tmp_path / "out")], capture_output=True, text=True, env=env, timeout=300)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert field in proc.stdout + proc.stderr
    assert not (tmp_path / "out").exists()
