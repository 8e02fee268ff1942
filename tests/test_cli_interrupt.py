"""What ``edgecl run`` says and leaves after Ctrl-C (pipeline/cli/run_interrupt.py); the device test
``device_tests/test_faults.py::test_ctrl_c_of_a_run_...`` interrupts a real run on a phone."""
from __future__ import annotations

import json
from pathlib import Path

from rich.console import Console

from pipeline.cli.run_interrupt import MARKER, RunProgress, report_interrupt, resume_command


def _folder(tmp_path: Path, done: list[int]) -> Path:
    folder = tmp_path / "r-20261201-000000"
    (folder / "sessions").mkdir(parents=True)
    (folder / "spec.json").write_text("{}")
    for t in done:
        rec = folder / "sessions" / f"{folder.name}-task{t}" / "task.json"
        rec.parent.mkdir()
        rec.write_text(json.dumps({"task": t}))
    return folder


def _say(folder: Path, progress: RunProgress, resume: str, **kw) -> str:
    console = Console(record=True, width=400)
    report_interrupt(console, folder, progress, resume, **kw)
    return console.export_text()


def test_resume_command_rebuilds_the_same_spec() -> None:
    cmd = resume_command(Path("my spec.toml"), Path("/r/x"), ["--serial", "S@127.0.0.1:5037"], ["train.lr=0.1"], "ort")
    assert cmd == "edgecl run 'my spec.toml' --resume /r/x --serial S@127.0.0.1:5037 --set train.lr=0.1 --runtime ort"


def test_before_the_run_started_nothing_is_marked(tmp_path: Path) -> None:
    text = _say(tmp_path / "never", RunProgress(), "edgecl run s.toml --resume x")
    assert "before the run started: nothing was recorded" in text and not (tmp_path / "never").exists()


def test_a_vphone_run_whose_store_went_with_the_phone_cannot_be_resumed(tmp_path: Path) -> None:
    folder = _folder(tmp_path, [0])
    progress = RunProgress(f"{folder.name}-task1", 1, 3)
    text = _say(folder, progress, "edgecl run s.toml --resume x --vphone", scoped_vphone=True, store_on_phone=True)
    assert f"1 of 3 tasks complete in {folder}" in text and "cannot be resumed: run it again" in text
    assert "--resume" not in text
    marker = json.loads((folder / MARKER).read_text())
    assert (marker["completed_tasks"], marker["session"], marker["resume"]) == ([0], progress.session_id, None)


def test_a_vphone_run_without_a_store_resumes_on_a_new_phone(tmp_path: Path) -> None:
    folder = _folder(tmp_path, [0, 1])
    text = _say(folder, RunProgress(f"{folder.name}-task2", 2, 3), "edgecl run s.toml --resume x --vphone",
                scoped_vphone=True, store_on_phone=False)
    assert "session " + folder.name + "-task2 ended there" in text
    assert "continue this run from its last completed task with: edgecl run s.toml --resume x --vphone" in text


def test_a_phone_that_does_not_answer_is_said_so(tmp_path: Path) -> None:
    folder = _folder(tmp_path, [])
    text = _say(folder, RunProgress(f"{folder.name}-task0", 0, 2), "edgecl run s.toml --resume x", device=None)
    assert "0 of 2 tasks complete" in text and "continue this run" in text
    assert json.loads((folder / MARKER).read_text())["session_on_phone"] is None
