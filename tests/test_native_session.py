"""The native runner as the host drives it (docs/contracts.md): result.json and events.jsonl on
success, cancel and error; SIGTERM cancel then resume; the persistent runner (`serve`): one per
storage root, loaded programs reused across sessions with the same results as a fresh process,
cancel markers, idle exit.
"""
from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

from android_harness.device.checkpoint import latest_checkpoint, load_checkpoint
from android_harness.device.events import read_events
from tests._native_bins import runner_binary
from tests._runner_env import executorch_env, traced_session

pytestmark = [pytest.mark.slow, pytest.mark.timeout(1800)]
ABI = "x86_64"


@pytest.fixture(scope="module")
def env(tmp_path_factory):
    return executorch_env(tmp_path_factory.mktemp("native-root"), runner_binary(ABI), epochs=3)


def _run(binary: Path, folder: Path) -> tuple[int, dict, list[dict]]:
    rc = subprocess.run([str(binary), "run", str(folder)], capture_output=True, text=True).returncode
    events, _ = read_events(str(folder / "events.jsonl"))
    return rc, json.loads((folder / "result.json").read_text()), events


def _wait(pred, what: str, timeout: float = 120.0) -> None:
    deadline = time.monotonic() + timeout
    while not pred():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.01)


def _final(folder: Path) -> dict:
    _, arrays = load_checkpoint(latest_checkpoint(str(folder / "checkpoints")))
    return {k: v.tobytes() for k, v in arrays.items()}


def test_a_session_writes_result_events_and_checkpoints(env) -> None:
    binary = env[3]
    folder = traced_session(env, "plain")
    rc, result, events = _run(binary, folder)
    assert rc == 0 and result["status"] == "ok" and result["error"] is None
    assert [e["seq"] for e in events] == list(range(len(events)))
    assert events[0]["type"] == "session_start" and events[-1]["type"] == "session_end"
    assert events[0]["runtime"] == "executorch" and events[0]["pid"] == int((folder / "runner.pid").read_text())
    types = [e["type"] for e in events]
    for t in ("task_start", "phase_start", "epoch", "swap", "eval", "task_end", "checkpoint", "resources"):
        assert t in types, t
    probes = [e for e in events if e["type"] == "resources"]
    assert all(e["peak_rss_bytes"] >= e["rss_bytes"] > 0 for e in probes), probes     # VmHWM beside VmRSS
    assert types[-2:] == ["resources", "session_end"]                              # the peak, however short the session
    assert len(result["evals"]) == len(env[2].tasks) and result["checkpoint"].startswith("sessions/plain/checkpoints/ckpt-")
    assert (env[1] / result["checkpoint"] / "runtime").is_dir()


def test_bad_session_json_is_one_error_naming_the_keys(env) -> None:
    binary = env[3]
    folder = traced_session(env, "bad")
    spec = json.loads((folder / "session.json").read_text())
    spec["train"]["epochs"] = 0
    spec["replay"]["buffer_batch_size"] = 8
    (folder / "session.json").write_text(json.dumps(spec))
    rc, result, events = _run(binary, folder)
    assert rc == 1 and result["status"] == "error"
    assert "train.epochs" in result["error"] and "replay.buffer_batch_size: unknown key" in result["error"]
    assert [e["type"] for e in events] == ["error", "session_end"] and events[0]["phase"] == "setup"
    assert not (folder / "checkpoints").exists()


def test_sigterm_cancels_at_a_step_and_the_rerun_finishes_identically(env) -> None:
    binary = env[3]
    # a checkpoint after every step (fsyncs) keeps the session running long enough to be signalled
    straight = traced_session(env, "straight", checkpoint_every=1)
    assert _run(binary, straight)[0] == 0
    folder = traced_session(env, "cancelled", checkpoint_every=1)
    proc = subprocess.Popen([str(binary), "run", str(folder)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _wait(lambda: any(e["type"] == "step" for e in read_events(str(folder / "events.jsonl"))[0]), "a step")
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(timeout=120) == 3
    result = json.loads((folder / "result.json").read_text())
    assert result["status"] == "cancelled" and result["checkpoint"]
    os.remove(folder / "result.json")
    rc, result, events = _run(binary, folder)
    assert rc == 0 and result["status"] == "ok"
    assert sum(e["type"] == "session_start" for e in events) == 2
    assert [e["seq"] for e in events] == list(range(len(events)))
    assert (folder / "trace.jsonl").read_bytes() == (straight / "trace.jsonl").read_bytes()
    assert _final(folder) == _final(straight)
    assert result["evals"] == json.loads((straight / "result.json").read_text())["evals"]


def test_serve_reuses_the_program_cancels_on_markers_and_exits_idle(env) -> None:
    spec, root, data, binary = env
    queue = root / "runner" / "queue"
    queue.mkdir(parents=True, exist_ok=True)
    fresh = traced_session(env, "fresh")
    assert _run(binary, fresh)[0] == 0
    served = [traced_session(env, f"served{i}") for i in range(2)]
    marked = traced_session(env, "marked")
    (marked / "cancel").write_text("")
    # idle 8 s: it outlives the second server's 5 s wait for the lock
    server = subprocess.Popen([str(binary), "serve", str(queue), "8"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        _wait(lambda: (root / "runner" / "server.pid").exists(), "server.pid")
        assert int((root / "runner" / "server.pid").read_text()) == server.pid
        second = subprocess.run([str(binary), "serve", str(queue), "1"], capture_output=True, text=True, timeout=60)
        assert second.returncode == 0 and "another server holds" in second.stderr
        for folder in [*served, marked]:
            tmp = queue / f".{folder.name}.tmp"
            tmp.write_text(str(folder))
            os.replace(tmp, queue / folder.name)
            _wait(lambda: (folder / "result.json").exists(), f"{folder.name} served")
        assert server.wait(timeout=60) == 0  # idle exit
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
    for folder in served:
        result = json.loads((folder / "result.json").read_text())
        assert result["status"] == "ok" and int((folder / "runner.pid").read_text()) == server.pid
        assert (folder / "trace.jsonl").read_bytes() == (fresh / "trace.jsonl").read_bytes(), folder.name
        assert _final(folder) == _final(fresh)
    cancelled = json.loads((marked / "result.json").read_text())
    assert cancelled["status"] == "cancelled" and cancelled["iterations"] == 0
    state = json.loads((root / "runner" / "server.json").read_text())
    assert state["served"] == 3 and state["backend_loads"] == 1 and state["backend_reuses"] == 1
    assert not (root / "runner" / "server.pid").exists() and not list(queue.iterdir())
