"""The device-clock anchors both runners write for the energy timeline (docs/contracts.md, events.jsonl):
``t_boot`` on every event, ``t_launch`` and ``heartbeat_s`` in ``session_start``, ``heartbeat`` {cpu_s}
events; and how the host reads them (pipeline/energy/clock.py, timeline.py): program load is its own
phase from the process start, a SIGSTOP is ``paused``, a long busy gap is not."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from android_harness.device.events import EventLog, Heartbeat, boottime, monotonic, process_start, read_events
from pipeline.energy.clock import BOOT, MONO, ClockMap, event_clock
from pipeline.energy.timeline import build_timeline
from tests._runner_env import build_root, new_session, small_spec

REPO = Path(__file__).resolve().parents[1]
STOP_S = 2.5


def test_every_event_carries_boottime_and_the_clock_maps_onto_it(tmp_path: Path) -> None:
    log = EventLog(str(tmp_path / "events.jsonl"))
    log.emit("session_start", session_id="s", t_launch=round(process_start(), 6), heartbeat_s=0.5)
    log.emit("step", task=0, step=1)
    log.close()
    events, _ = read_events(str(tmp_path / "events.jsonl"))
    assert [list(e)[:4] for e in events] == [["seq", "t", "t_boot", "type"]] * 2
    clock = event_clock(events, BOOT)
    for e in events:
        assert clock(e["t"]) == pytest.approx(e["t_boot"], abs=2e-6)
    assert clock.notes == []                                       # no suspend between them
    assert 0.0 < events[0]["t_launch"] <= events[0]["t"]


def test_process_start_is_this_process_start_on_the_monotonic_clock() -> None:
    before = monotonic()
    out = subprocess.run([sys.executable, "-c", "from android_harness.device.events import process_start, monotonic;"
                          "import time; time.sleep(0.3); print(process_start(), monotonic())"],
                         cwd=REPO, capture_output=True, text=True, check=True)
    after = monotonic()
    start, now = map(float, out.stdout.split())
    assert before - 0.02 <= start <= after and now - start >= 0.3       # the fork, not the time it asked
    mono = monotonic()
    assert boottime() >= mono


def test_heartbeat_beats_with_the_process_cpu_time(tmp_path: Path) -> None:
    log = EventLog(str(tmp_path / "events.jsonl"))
    beat = Heartbeat(log, 0.05)
    beat.start()
    deadline = time.monotonic() + 60
    while log.next_seq < 5:                                          # five beats, however busy the host is
        assert time.monotonic() < deadline, f"{log.next_seq} heartbeats in 60 s"
        time.sleep(0.05)
    beat.stop()
    n = log.next_seq
    time.sleep(0.15)
    assert log.next_seq == n                                          # nothing after stop()
    log.close()
    events, _ = read_events(str(tmp_path / "events.jsonl"))
    assert len(events) >= 5 and {e["type"] for e in events} == {"heartbeat"}
    cpu = [e["cpu_s"] for e in events]
    assert cpu == sorted(cpu)
    assert [e["seq"] for e in events] == list(range(len(events)))


def _beats(t0: float, t1: float, period: float, cpu_per_s: float, cpu0: float = 0.0) -> list[dict]:
    out, t = [], t0
    while t < t1 - 1e-9:
        out.append({"t": round(t, 6), "type": "heartbeat", "cpu_s": round(cpu0 + cpu_per_s * (t - t0), 4)})
        t += period
    return out


def _timeline(gap_cpu_per_s: float):
    """Training 100-110 with beats every 0.5 s but none in 103-107; the process used
    ``gap_cpu_per_s`` cores over the gap."""
    evs = [{"t": 99.0, "type": "session_start", "session_id": "s", "t_launch": 98.0, "heartbeat_s": 0.5},
           {"t": 100.0, "type": "task_start", "task": 0}, {"t": 100.0, "type": "phase_start", "phase": "training", "task": 0}]
    evs += _beats(100.0, 103.01, 0.5, 1.0)
    evs += _beats(107.0, 110.0, 0.5, 1.0, cpu0=3.0 + gap_cpu_per_s * 4.0)
    evs += [{"t": 110.0, "type": "phase_end", "phase": "training", "task": 0}, {"t": 110.0, "type": "task_end", "task": 0},
            {"t": 110.2, "type": "session_end", "status": "ok"}]
    evs = [{"seq": i, **e} for i, e in enumerate(sorted(evs, key=lambda e: e["t"]))]
    return build_timeline(evs, ClockMap(MONO))


def test_a_heartbeat_gap_without_cpu_is_a_pause_with_cpu_is_work() -> None:
    stopped = _timeline(0.0)
    paused = [g for g in stopped.groups if g.name == "paused"]
    assert [(g.t0, g.t1) for g in paused] == [(103.5, 107.0)]
    train = next(g for g in stopped.groups if g.name == "training")
    assert sum(s.t1 - s.t0 for s in stopped.segments if s.kind == "training") == pytest.approx(10.0 - 3.5)
    assert (train.t0, train.t1) == (100.0, 110.0)
    loading = next(g for g in stopped.groups if g.name == "loading")
    assert (loading.t0, loading.t1) == (98.0, 100.0)                 # from the process start to the first phase
    busy = _timeline(1.0)                                             # a long step starved the heartbeat thread
    assert not [g for g in busy.groups if g.name == "paused"]
    assert sum(s.t1 - s.t0 for s in busy.segments if s.kind == "training") == pytest.approx(10.0)


def _python_runner(session: Path) -> list[str]:
    return [sys.executable, "-m", "android_harness.device", "run", str(session)]


def _native_runner(session: Path) -> list[str]:
    from tests._native_bins import runner_binary

    return [str(runner_binary("x86_64")), "run", str(session)]


@pytest.mark.parametrize("runner", [
    pytest.param(_python_runner, id="python"),
    pytest.param(_native_runner, id="native", marks=[pytest.mark.slow, pytest.mark.timeout(1800)]),
])
def test_runner_writes_the_anchors_and_a_sigstop_is_a_pause(runner, tmp_path: Path) -> None:
    runtime = "executorch" if runner is _native_runner else "ort"
    spec = small_spec("er", epochs=4)
    data = build_root(spec, tmp_path, runtime)
    session = new_session(spec, tmp_path, data, "anchors", runtime=runtime, overrides={"checkpoint_every": 1})
    argv = runner(session)                                            # (builds the native runner first)
    before = monotonic()
    proc = subprocess.Popen(argv, cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    after = monotonic()
    deadline = time.monotonic() + 120
    while not any(e["type"] == "step" for e in read_events(str(session / "events.jsonl"))[0]):
        assert proc.poll() is None and time.monotonic() < deadline, proc.stderr.read() if proc.poll() is not None else "no step"
        time.sleep(0.01)
    os.kill(proc.pid, signal.SIGSTOP)
    time.sleep(STOP_S)
    t_cont = monotonic()                                              # the runner is stopped: no event after this ...
    os.kill(proc.pid, signal.SIGCONT)                                 # ... until it continues
    assert proc.wait(timeout=600) == 0, proc.stderr.read()
    events, _ = read_events(str(session / "events.jsonl"))
    result = json.loads((session / "result.json").read_text())
    assert all(isinstance(e.get("t_boot"), float) for e in events)
    offsets = [e["t_boot"] - e["t"] for e in events]
    assert max(offsets) - min(offsets) < 0.5                          # no suspend (seconds); a loaded host delays reads ms
    start = events[0]
    assert start["type"] == "session_start" and start["heartbeat_s"] == 0.5
    assert before - 0.02 <= start["t_launch"] <= after + 0.02           # the process start, not session_start's time
    beats = [e for e in events if e["type"] == "heartbeat"]
    assert beats and all(e["seq"] > start["seq"] for e in beats)
    assert [e["cpu_s"] for e in beats] == sorted(e["cpu_s"] for e in beats)
    tl = build_timeline(events, ClockMap(MONO), result)
    assert tl.start == start["t_launch"] and tl.end == pytest.approx(result["t_end"])
    paused = [g for g in tl.groups if g.name == "paused"]
    # the pause is the heartbeat gap across the SIGCONT: from one beat after the last event before it to the
    # first event after it (the test's sleep may stretch on a loaded host; the gap is what the runner wrote)
    before_cont = max(e["t"] for e in events if e["t"] < t_cont)
    after_cont = min(e["t"] for e in events if e["t"] > t_cont)
    assert after_cont - before_cont >= STOP_S - 0.05                   # the whole stop is in that gap
    assert [(g.t0, g.t1) for g in paused] == [(pytest.approx(before_cont + start["heartbeat_s"]), pytest.approx(after_cont))]
    first_phase = next(e for e in events if e["type"] == "phase_start")
    loading = [s for s in tl.segments if s.kind == "loading"]
    assert (loading[0].t0, loading[-1].t1) == (start["t_launch"], first_phase["t"])
    covered = sum(s.t1 - s.t0 for s in tl.segments)
    assert covered == pytest.approx(tl.end - tl.start, abs=1e-6)      # every second billed once


@pytest.mark.parametrize("runner", [
    pytest.param("python", id="python"),
    pytest.param("native", id="native", marks=[pytest.mark.slow, pytest.mark.timeout(1800)]),
])
def test_the_persistent_runner_bills_its_start_to_its_first_session_only(runner: str, tmp_path: Path) -> None:
    from tests.test_runner_server import _enqueue, _result

    runtime = "executorch" if runner == "native" else "ort"
    spec = small_spec("er", epochs=1)
    data = build_root(spec, tmp_path, runtime)
    first, second = (new_session(spec, tmp_path, data, sid, runtime=runtime) for sid in ("first", "second"))
    queue = tmp_path / "runner" / "queue"
    argv = ([str(_native_runner(first)[0])] if runner == "native" else [sys.executable, "-m", "android_harness.device"])
    _enqueue(tmp_path, first)
    before = monotonic()
    proc = subprocess.Popen([*argv, "serve", str(queue), "3"], cwd=REPO, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)
    started = monotonic()
    try:
        _result(first, proc)
        queued = monotonic()
        _enqueue(tmp_path, second)
        _result(second, proc)
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    start1 = read_events(str(first / "events.jsonl"))[0][0]
    start2 = read_events(str(second / "events.jsonl"))[0][0]
    assert before - 0.02 <= start1["t_launch"] <= started + 0.02     # the server's process start
    assert queued - 0.02 <= start2["t_launch"] <= start2["t"]         # taken after it was queued, not before
