"""edgecl-runner's own command line (x86_64 build): --help and --version answer, and a bad command or
folder is one line on stderr, exit 2, with nothing written anywhere (no folder made, no lock or
heartbeat beside a folder that is not a storage root's runner/queue)."""
from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests._native_bins import runner_binary

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def runner() -> Path:
    return runner_binary("x86_64")


def _run(runner: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([str(runner), *args], capture_output=True, text=True, timeout=60, cwd=cwd)


def _files(where: Path) -> list[str]:
    return sorted(str(p.relative_to(where)) for p in where.rglob("*"))


def test_help_and_version(runner: Path, tmp_path: Path) -> None:
    help_ = _run(runner, "--help", cwd=tmp_path)
    assert help_.returncode == 0 and help_.stderr == ""
    assert help_.stdout.startswith("usage: edgecl-runner run SESSION_DIR | serve QUEUE_DIR [IDLE_S]")
    assert "check-program MODEL_DIR..." in help_.stdout
    version = _run(runner, "--version", cwd=tmp_path)
    assert version.returncode == 0 and version.stdout.startswith("edgecl-runner 0.") and version.stdout.count("\n") == 1


@pytest.mark.parametrize("args, line", [
    (["run", "{tmp}/nonexistent"], "edgecl-runner: run: '{tmp}/nonexistent' is not a session folder (no session.json in it)"),
    (["serve", "{tmp}/nonexistent", "1"], "edgecl-runner: serve: '{tmp}/nonexistent' is not an existing "
                                          "<storage_root>/runner/queue folder (the host creates it)"),
    (["serve", "{tmp}/box", "1"], "edgecl-runner: serve: '{tmp}/box' is not an existing <storage_root>/runner/queue "
                                  "folder (the host creates it)"),
    (["bogus"], "edgecl-runner: unknown command 'bogus'"),
    ([], "edgecl-runner: no command"),
])
def test_a_usage_error_is_one_line_exit_2_and_writes_nothing(runner: Path, tmp_path: Path, args: list[str], line: str) -> None:
    (tmp_path / "box").mkdir()
    before = _files(tmp_path)
    out = _run(runner, *[a.format(tmp=tmp_path) for a in args], cwd=tmp_path / "box")
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr == line.format(tmp=tmp_path) + " (edgecl-runner --help)\n"
    assert _files(tmp_path) == before
