"""The persistent runner (``serve``) on the host filesystem: same results as one-shot runs, cancel, idle exit."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from android_harness.device.checkpoint import latest_checkpoint, load_checkpoint
from android_harness.device.events import EventLog, read_events
from android_harness.device.runner import Runner
from android_harness.device.server import CANCEL_MARKER, SERVER_PID, SERVER_RESERVE, SERVER_STATE
from tests._runner_env import new_session, ort_env

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def env(tmp_path_factory):
    return ort_env(tmp_path_factory.mktemp("storage"))


def _serve(root: Path, idle_s: float) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "android_harness.device", "serve", str(root / "runner" / "queue"),
                             str(idle_s)], cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)


def _enqueue(root: Path, session: Path) -> None:
    q = root / "runner" / "queue"
    q.mkdir(parents=True, exist_ok=True)
    tmp = q / f".{session.name}.tmp"
    tmp.write_text(str(session))
    os.replace(tmp, q / session.name)


def _result(session: Path, proc: subprocess.Popen, timeout: float = 90.0) -> dict:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if (session / "result.json").exists():
            return json.loads((session / "result.json").read_text())
        assert proc.poll() is None, f"server exited early: {proc.stderr.read()}"
        time.sleep(0.05)
    raise AssertionError(f"{session.name}: no result.json within {timeout} s")


def _state_after(root: Path, served: int, timeout: float = 10.0) -> dict:
    deadline = time.monotonic() + timeout
    while True:
        state = json.loads((root / "runner" / SERVER_STATE).read_text())
        if state["served"] >= served or time.monotonic() > deadline:
            return state
        time.sleep(0.05)


def _final_params(root: Path, session: Path) -> dict[str, np.ndarray]:
    _, arrays = load_checkpoint(latest_checkpoint(str(session / "checkpoints")))
    return {k: v for k, v in arrays.items() if k.startswith("param.")}


def _stop(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        proc.kill()
        proc.wait(timeout=30)


def test_served_sessions_match_one_shot_runs(env) -> None:
    """Two sessions back to back in one server (the second reuses the loaded backend, reset) give the same
    evaluations and final weights as one-shot runs with the same seed."""
    spec, root, data = env
    plans = {"a": data.tasks[:1], "b": data.tasks[:2]}
    for name, tasks in plans.items():
        Runner(str(new_session(spec, root, data, f"one-{name}", tasks=tasks))).run()
    served = {name: new_session(spec, root, data, f"srv-{name}", tasks=tasks) for name, tasks in plans.items()}
    proc = _serve(root, 30)
    try:
        for session in served.values():
            _enqueue(root, session)
        results = {name: _result(session, proc) for name, session in served.items()}
        state = _state_after(root, served=2)
    finally:
        _stop(proc)
    assert state["backend_loads"] == 1 and state["backend_reuses"] == 1, state
    for name, session in served.items():
        one = json.loads((root / "sessions" / f"one-{name}" / "result.json").read_text())
        assert results[name]["status"] == "ok"
        assert results[name]["evals"] == one["evals"]
        assert (session / "runner.pid").read_text().strip() == str(proc.pid)
        ref = _final_params(root, root / "sessions" / f"one-{name}")
        got = _final_params(root, session)
        assert all(np.array_equal(ref[k], got[k]) for k in ref)
        events, _ = read_events(str(session / "events.jsonl"))
        assert [e["seq"] for e in events] == list(range(len(events)))
        assert events[0]["type"] == "session_start" and events[-1]["type"] == "session_end"


def test_cancel_running_and_queued_sessions(env) -> None:
    """SIGTERM + the cancel marker stops the running session (checkpointed); a queued session with the
    marker ends "cancelled" without training; SIGTERM without a marker cancels nothing; the server goes on."""
    spec, root, data = env
    running = new_session(spec, root, data, "c-run", tasks=data.tasks[:1], epochs=300)
    queued = new_session(spec, root, data, "c-queued", tasks=data.tasks[:1])
    after = new_session(spec, root, data, "c-after", tasks=data.tasks[:1])
    (queued / CANCEL_MARKER).touch()
    proc = _serve(root, 30)
    try:
        for session in (running, queued, after):
            _enqueue(root, session)
        deadline = time.monotonic() + 60
        while not any(e["type"] == "epoch" for e in read_events(str(running / "events.jsonl"))[0]):
            assert time.monotonic() < deadline and proc.poll() is None
            time.sleep(0.02)
        os.kill(proc.pid, signal.SIGTERM)  # no marker: ignored
        time.sleep(0.2)
        (running / CANCEL_MARKER).touch()
        os.kill(proc.pid, signal.SIGTERM)
        r_run, r_queued, r_after = (_result(s, proc) for s in (running, queued, after))
        assert proc.poll() is None
    finally:
        _stop(proc)
    assert r_run["status"] == "cancelled" and r_run["checkpoint"] and r_run["iterations"] > 0
    assert r_queued["status"] == "cancelled" and r_queued["iterations"] == 0
    assert read_events(str(queued / "events.jsonl"))[0][-1] == {**read_events(str(queued / "events.jsonl"))[0][-1],
                                                                "type": "session_end", "status": "cancelled"}
    assert r_after["status"] == "ok"


def test_server_exits_when_idle(env) -> None:
    """... holding its 64 KB reserve while it lives, and removing it when it exits."""
    _spec, root, _data = env
    proc = _serve(root, 1.0)
    reserve = root / "runner" / SERVER_RESERVE
    try:
        deadline = time.monotonic() + 30
        pid_file = root / "runner" / SERVER_PID   # an earlier test's killed server may have left a stale one
        while not (pid_file.exists() and pid_file.read_text().strip() == str(proc.pid)):
            assert time.monotonic() < deadline and proc.poll() is None
            time.sleep(0.05)
        assert reserve.stat().st_size == 64 * 1024  # taken before the server looks at its queue
        assert proc.wait(timeout=30) == 0
    finally:
        _stop(proc)
    assert not (root / "runner" / SERVER_PID).exists() and not reserve.exists()


def test_an_unreadable_session_json_is_its_error_and_the_next_session_is_served(env) -> None:
    spec, root, data = env
    bad = root / "sessions" / "srv-unreadable"
    bad.mkdir(parents=True)
    (bad / "session.json").write_text("{not json")
    good = new_session(spec, root, data, "srv-after-unreadable", tasks=data.tasks[:1])
    proc = _serve(root, 30)
    try:
        _enqueue(root, bad)
        r_bad = _result(bad, proc)
        _enqueue(root, good)
        r_good = _result(good, proc)
    finally:
        _stop(proc)
    assert r_bad["status"] == "error"
    assert r_bad["error"] == f"SessionSpecError: {bad}/session.json: not valid JSON (Expecting property name enclosed in " \
                             "double quotes: line 1 column 2 (char 1))"
    events, _ = read_events(str(bad / "events.jsonl"))
    assert [(e["type"], e.get("phase")) for e in events] == [("error", "setup"), ("session_end", None)]
    assert events[0]["message"] == r_bad["error"] and r_good["status"] == "ok"


def test_the_event_log_knows_its_last_type_after_a_torn_line(tmp_path: Path) -> None:
    """What the server's _write_end reads to write session_end only once (events.cpp's last_type())."""
    path = tmp_path / "events.jsonl"
    log = EventLog(str(path))
    assert log.last_type is None
    log.emit("session_start")
    log.emit("step", loss=0.5)
    log.close()
    with open(path, "a") as f:
        f.write('{"seq": 2, "t": 1.0, "ty')                 # killed mid-write
    log = EventLog(str(path))
    assert (log.next_seq, log.last_type) == (2, "step")
    log.emit("session_end", status="ok")
    assert log.last_type == "session_end"
    log.close()
