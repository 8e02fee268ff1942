"""Every script of android_harness/device_scripts.py run under the host's ``sh`` against real folders
(whose names hold spaces, quotes and a ``;``): what each prints, creates and signals."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

from android_harness import device_scripts as scripts
from android_harness.shell_quote import join

CANCEL = "cancel"


def sh(script: str) -> subprocess.CompletedProcess:
    return subprocess.run(["sh", "-c", script], capture_output=True, text=True, timeout=60)


@pytest.fixture
def root(tmp_path: Path) -> Path:
    r = tmp_path / "storage it's \"odd\"; rm -rf x"
    (r / "sessions").mkdir(parents=True)
    return r


def _sleeper() -> subprocess.Popen:
    return subprocess.Popen(["sleep", "60"], start_new_session=True)


def test_probe_and_has_spec_say_what_the_folder_holds(root: Path) -> None:
    rdir = root / "sessions" / "s 1"
    assert sh(scripts.probe_session(str(rdir))).stdout == ""
    rdir.mkdir()
    assert sh(scripts.probe_session(str(rdir))).stdout == "" and sh(scripts.has_spec(str(rdir))).stdout == ""
    (rdir / "session.json").write_text("{}")
    assert sh(scripts.has_spec(str(rdir))).stdout == "spec\n"
    (rdir / "result.json").write_text('{"status": "ok"}')
    head, _, result = sh(scripts.probe_session(str(rdir))).stdout.partition("\n")
    assert head == "spec" and json.loads(result) == {"status": "ok"}


def test_launch_publishes_the_spec_and_waits_for_the_runners_pid(root: Path) -> None:
    rdir = root / "sessions" / "s 1"
    rdir.mkdir()
    (rdir / "session.json.tmp").write_text('{"id": 1}')
    runner = join(["sh", "-c", 'echo started; echo $$ > "$1/runner.pid"; exec sleep 60', "sh", str(rdir)])
    res = sh(scripts.launch(scripts.publish_spec(str(rdir)), str(rdir), str(root), runner, 10.0))
    pid = int((rdir / "runner.pid").read_text())
    try:
        assert res.returncode == 0 and res.stdout == ""
        assert (rdir / "session.json").read_text() == '{"id": 1}' and not (rdir / "session.json.tmp").exists()
        deadline = time.monotonic() + 10
        while "started" not in (rdir / "runner.log").read_text() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert (rdir / "runner.log").read_text() == "started\n"
        assert os.getsid(pid) == pid   # detached: its own session, so an adb hang-up does not reach it
    finally:
        os.kill(pid, signal.SIGKILL)


def test_wait_written_read_file_and_write_word(root: Path) -> None:
    pid_file = root / "sampler.pid"
    writer = join(["sh", "-c", 'sleep 0.3; echo 42 > "$1"', "sh", str(pid_file)])
    assert sh(f"{writer} &\n{scripts.wait_written(str(pid_file), 10.0)}").returncode == 0
    assert sh(scripts.read_file(str(pid_file))).stdout == "42\n"
    started = time.monotonic()
    assert sh(scripts.wait_written(str(root / "never"), 0.3)).returncode == 0 and time.monotonic() - started < 5
    assert sh(scripts.read_file(str(root / "never"))).stdout == ""
    assert sh(scripts.write_word(str(pid_file), "drain")).returncode == 0 and pid_file.read_text() == "drain\n"


def test_a_relaunch_clears_the_dead_runners_end(root: Path) -> None:
    rdir = root / "sessions" / "s"
    rdir.mkdir()
    (rdir / "result.json").write_text("{}")
    (rdir / CANCEL).write_text("")
    assert sh(scripts.clear_end(str(rdir), CANCEL) + "true").returncode == 0
    assert not (rdir / "result.json").exists() and not (rdir / CANCEL).exists()


def test_submit_queues_the_session_and_starts_one_server(root: Path) -> None:
    rdir = root / "sessions" / "q 1"
    rdir.mkdir()
    queue, server_pid, log = root / "runner" / "queue", root / "runner" / "server.pid", root / "runner" / "server.log"
    serve = join(["sh", "-c", 'echo $$ > "$1.tmp" && mv "$1.tmp" "$1"; exec sleep 60', "sh", str(server_pid)])
    server = scripts.Server(str(queue), str(root), serve, str(log), str(server_pid))
    res = sh(scripts.submit("", str(rdir), "q 1", server, 10.0))
    pid = int(server_pid.read_text())
    try:
        assert res.returncode == 0
        assert (queue / "q 1").read_text() == str(rdir) and not list(queue.glob(".*.tmp"))
        assert int((rdir / "runner.pid").read_text()) == pid
        assert sh(scripts.start_server(server, 10.0)).stdout == "live\n"
        assert int(server_pid.read_text()) == pid   # a live server is not started twice
    finally:
        os.kill(pid, signal.SIGKILL)


def test_poll_reports_state_size_result_and_the_new_bytes(root: Path) -> None:
    rdir = root / "sessions" / "p"
    assert sh(scripts.poll(str(rdir), 0)).returncode == 3
    rdir.mkdir()
    out = sh(scripts.poll(str(rdir), 0)).stdout
    assert out == f"dead\nmissing\n{scripts.OUT_MARK}\n{scripts.OUT_MARK}\n"
    proc = _sleeper()
    try:
        (rdir / "runner.pid").write_text(str(proc.pid))
        (rdir / "events.jsonl").write_text('{"seq": 0}\n{"seq": 1}\n')
        (rdir / "result.json").write_text('{"status": "ok"}\n')
        head, result, tail = sh(scripts.poll(str(rdir), 11)).stdout.split(scripts.OUT_MARK + "\n", 2)
        state, size = head.split()
        assert state in ("R", "S") and size == "22"   # a live process's /proc state letter
        assert json.loads(result) == {"status": "ok"} and tail == '{"seq": 1}\n'
    finally:
        proc.kill()
        proc.wait()


def test_cancel_marks_the_session_and_terminates_its_runner(root: Path) -> None:
    rdir = root / "sessions" / "c"
    rdir.mkdir()
    proc = _sleeper()
    (rdir / "runner.pid").write_text(str(proc.pid))
    assert sh(scripts.cancel(str(rdir), CANCEL)).returncode == 0
    assert (rdir / CANCEL).exists() and proc.wait(timeout=30) == -signal.SIGTERM


def test_an_idle_server_is_stopped_and_a_busy_one_is_not(root: Path) -> None:
    run = root / "runner"
    (run / "queue").mkdir(parents=True)
    proc = _sleeper()
    pid_file, state = run / "server.pid", run / "server.json"
    pid_file.write_text(str(proc.pid))
    stop = scripts.stop_idle_server(str(pid_file), str(state), str(run / "queue"))
    try:
        state.write_text('{"session":"s1"}')
        assert sh(stop).stdout == ""
        state.write_text('{"session":null}')   # any JSON spacing
        (run / "queue" / "s2").write_text("x")
        assert sh(stop).stdout == ""
        (run / "queue" / "s2").unlink()
        assert sh(stop).stdout == "stopped\n" and proc.wait(timeout=30) == -signal.SIGKILL and not pid_file.exists()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_list_sessions_and_files_and_log_tails(root: Path) -> None:
    sessions = root / "sessions"
    for name, status in (("a", "ok"), ("b b", "cancelled")):
        (sessions / name).mkdir()
        (sessions / name / "result.json").write_text(json.dumps({"status": status}))
    (sessions / "dead").mkdir()
    (sessions / "live").mkdir()
    proc = _sleeper()
    try:
        (sessions / "live" / "runner.pid").write_text(str(proc.pid))
        rows = sorted(sh(scripts.list_sessions(str(sessions))).stdout.splitlines())
        assert rows == ["a ok", "b b cancelled", "dead stopped", "live running"]
    finally:
        proc.kill()
        proc.wait()
    (sessions / "a" / "replay").mkdir()
    (sessions / "a" / "replay" / "x.bin").write_text("")
    assert sorted(sh(scripts.list_files(str(sessions / "a"))).stdout.split()) == ["./replay/x.bin", "./result.json"]
    log = sessions / "a" / "runner.log"
    log.write_text("".join(f"line {i}\n" for i in range(9)))
    assert sh(scripts.log_tails([str(log), str(sessions / "missing.log")], 2)).stdout == "line 7\nline 8\n"
