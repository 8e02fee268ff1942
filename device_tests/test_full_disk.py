"""A full disk on the phone end to end through ``run_experiment``: a virtual
phone whose /data is a 64 MiB ext4 partition (preset field ``data_size_mb``: ``df`` reports it and a write
past it fails with the kernel's ENOSPC), once as a stock phone (native runner) and once termux-style
(Python runner, ONNX Runtime), both through the persistent runner.

- Mid-task: task 1 completes; while task 2 trains, another writer fills the flash. The run fails with the
  one-line cause (``No space left on device on <path>: free X, needed Y``), the session is not relaunched,
  events.jsonl holds whole lines only, the persistent runner lives on; once space is freed, the resumed run
  completes on the same runner and equals the host trainer exactly (no committed event or sample lost).
- Before a session: with less free space than a session will write, the run is refused before anything
  starts (precheck, the same one-line cause), and no session folder appears.
- Between the precheck and the persistent runner taking the session (the runner stopped while the host
  queues the session, the flash filled, the runner continued): the session cannot make its own reserve,
  the runner writes its end from its ``runner/server.reserve``, and the run fails at once (not at the
  300 s silence limit) with the one-line cause; once space is freed the resumed run completes on the
  same runner.
"""
from __future__ import annotations

import json
import os
import re
import time
from pathlib import Path
from typing import Iterator

import pytest

from android_harness import vphone
from android_harness.adb import Adb
from android_harness.adb_server import ServerAddress
from android_harness.android_device import AndroidDevice
from android_harness.shell_quote import detached, quote
from android_harness.storage_space import parse_df_available, parse_df_size
from android_harness.vphone.manager import remove_home
from android_harness.vphone.presets import DEFAULT_PRESET, PYTHON_PRESET
from pipeline.config import ExperimentSpec, parse_spec
from pipeline.device_run import prepare_device_run
from pipeline.energy.power_csv import read_power_csv
from pipeline.errors import SessionError
from pipeline.experiment import run_experiment
from pipeline.run_journal import RunJournal
from tests._host_conformance import assert_conforms_to_host
from tests._small_disk import NO_SPACE, whole_files_only

pytestmark = pytest.mark.timeout(600)
DATA_MB = 64
GAUGE_PERIOD_S = 0.5          # as conftest's vphones
# runner kind the run must use -> (vphone preset, export runtime)
PHONES = {"native": (DEFAULT_PRESET, "executorch"), "python": (PYTHON_PRESET, "ort")}
# a task trains ~0.7 s after its task_start event (native under qemu ~18 ms an epoch, Python/ORT ~8 ms), many
# times what the phone-side watcher takes to see that event and stop the runner (~50 ms)
EPOCHS = {"native": 40, "python": 100}


@pytest.fixture(scope="module", params=sorted(PHONES))
def small_phone(request: pytest.FixtureRequest, adb_server: ServerAddress,
                edgecl_home: Path) -> Iterator[tuple[AndroidDevice, str]]:
    """(a vphone whose flash is DATA_MB MiB, the runner kind its sessions use)."""
    if os.environ.get("ANDROID_SERIAL"):
        pytest.skip("a real phone's flash cannot be made small; these run on a virtual phone")
    preset, _ = PHONES[request.param]
    info = vphone.start(preset=preset, server=adb_server, base=edgecl_home, home=edgecl_home / f"small-{preset}",
                        overrides={"data_size_mb": DATA_MB, "gauge_period_s": GAUGE_PERIOD_S})
    try:
        device = AndroidDevice(Adb(info.serial, adb_server))
        size = parse_df_size(device.shell(f"df -k {quote(device.storage_path())}").stdout)
        assert size is not None and size <= DATA_MB * 2**20, f"the phone's flash is {size} bytes, not a {DATA_MB} MiB partition"
        yield device, request.param
    finally:
        vphone.stop(info, adb_server, base=edgecl_home)
        remove_home(info)


def spec_for(kind: str, power: bool = False) -> ExperimentSpec:
    return parse_spec({"name": f"full-{kind}", "seed": 0,
                       "data": {"kind": "digits", "tasks": 2, "classes_per_task": 2, "max_train_per_class": 60},
                       "model": {"kind": "mlp", "hidden": [32]},
                       "train": {"method": "er", "epochs": EPOCHS[kind], "batch_size": 32, "lr": 0.05},
                       "replay": {"em_size": 40, "sb_size": 120},
                       "export": {"runtime": PHONES[kind][1]}, "device": {"trace": True},
                       "power": {"enabled": power, "idle_seconds": 0}})


def free_bytes(device: AndroidDevice) -> int:
    free = parse_df_available(device.shell(f"df -k {quote(device.storage_path())}").stdout)
    assert free is not None
    return free


def filler(device: AndroidDevice) -> str:
    """Another app's files (this prefix) on the same partition, outside edgecl's storage root."""
    return device.storage_path().rsplit("/", 1)[0] + "/filler"


def remove_filler(device: AndroidDevice) -> None:
    device.shell(f"rm -f {quote(filler(device))}*")


def device_events(device: AndroidDevice, sid: str, local: Path) -> tuple[bytes, list[dict]]:
    """events.jsonl as it is on the phone, byte for byte, and its events (a torn line fails here)."""
    device.pull(device.storage_path("sessions", sid, "events.jsonl"), local)
    raw = local.read_bytes()
    return raw, [json.loads(line) for line in raw.decode().splitlines()]


def _fill_on_the_phone(device: AndroidDevice, ready: str, before: str, after: str) -> None:
    """On the phone, detached: wait (up to 120 s) until the shell test ``ready`` holds, run ``before``,
    fill the flash to the last block (dd until ENOSPC, in 64 KiB then 1 KiB blocks), run ``after``.
    Returns once the watcher runs (the shell waits for its marker: adbd hangs up a shell's jobs when it ends)."""
    armed = filler(device) + ".armed"
    script = (f"touch {quote(armed)}; i=0; while ! {{ {ready}; }} && [ $i -lt 2400 ]; do sleep 0.05; i=$((i+1)); done; "
              f"{before}dd if=/dev/zero of={quote(filler(device))} bs=65536 2>/dev/null; "
              f"dd if=/dev/zero of={quote(filler(device) + '.1k')} bs=1024 2>/dev/null; {after}")
    device.shell(detached(f"sh -c {quote(script)}", "/dev/null") +
                 f"\ni=0; while [ ! -f {quote(armed)} ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i+1)); done; "
                 f"test -f {quote(armed)}")


def fill_when_task_starts(device: AndroidDevice, sid: str) -> None:
    """Once session ``sid`` reports ``task_start``, stop its runner, fill the flash and let the runner go
    on: its next write, whatever it is (an event line, a replay record, a checkpoint), meets a full disk."""
    events = device.storage_path("sessions", sid, "events.jsonl")
    pid = device.storage_path("sessions", sid, "runner.pid")
    _fill_on_the_phone(device, f"grep -q '\"type\":\"task_start\"' {quote(events)} 2>/dev/null",
                       f"r=$(cat {quote(pid)}); kill -STOP $r; ", "kill -CONT $r")


def stopped_server(device: AndroidDevice, spec: ExperimentSpec) -> int:
    """The phone's persistent runner (deployed, started as the host's submit starts it when none is live),
    once it holds its reserve, stopped (SIGSTOP): the host's next submit queues to it (``kill -0`` sees it
    live) and nothing takes the entry until it is continued. Returns its pid."""
    runner = prepare_device_run(spec, device, "deploy-only", progress=False).runner
    assert runner is not None
    pid_file, reserve = device.storage_path("runner/server.pid"), device.storage_path("runner/server.reserve")
    serve = " ".join(quote(a) for a in runner.argv(device.storage_path(runner.remote), "serve",
                                                   device.storage_path("runner/queue"), "120"))
    live = f"kill -0 $(cat {quote(pid_file)} 2>/dev/null || echo x) 2>/dev/null"
    device.shell(f"mkdir -p {quote(device.storage_path('runner/queue'))} && cd {quote(device.storage_path())} || exit 1\n"
                 f"if ! {live}; then {detached(serve, device.storage_path('runner/server.log'))}\nfi\n"
                 f"i=0; until [ \"$(cat {quote(reserve)} 2>/dev/null | wc -c)\" = 65536 ] || [ $i -gt 300 ]; do sleep 0.1; "
                 f"i=$((i+1)); done; kill -STOP $(cat {quote(pid_file)})")
    return server_pid(device)


def fill_when_queued(device: AndroidDevice, sid: str) -> None:
    """Once the host has queued session ``sid`` (its queue entry and runner.pid are there), fill the flash
    and continue the stopped persistent runner, which then takes the session on a full disk."""
    entry, pid = device.storage_path("runner/queue", sid), device.storage_path("sessions", sid, "runner.pid")
    _fill_on_the_phone(device, f"[ -f {quote(entry)} ] && [ -s {quote(pid)} ]", "",
                       f"kill -CONT $(cat {quote(device.storage_path('runner/server.pid'))})")


def server_pid(device: AndroidDevice) -> int:
    return int(device.shell(f"cat {quote(device.storage_path('runner/server.pid'))}").stdout.strip())


def test_a_disk_filled_mid_task_is_one_clear_error_and_the_run_resumes_losing_nothing(
        small_phone: tuple[AndroidDevice, str], tmp_path: Path) -> None:
    device, kind = small_phone
    spec = spec_for(kind, power=True)
    remove_filler(device)
    journal = RunJournal.create(tmp_path, spec.name)
    sid0, sid1 = journal.session_id(0), journal.session_id(1)
    fill_when_task_starts(device, sid1)
    with pytest.raises(SessionError) as err:
        run_experiment(spec, device, tmp_path, progress=False, journal=journal)
    message = str(err.value)
    # the cause, in one line, naming the device path, what was free and what was needed
    assert "\n" not in message and err.value.exit_code == 1
    assert f"task 2: runner ended with status error: {NO_SPACE}{device.storage_path()}/" in message, message
    assert ": free " in message and ", needed " in message, message
    assert free_bytes(device) <= 64 * 1024                       # the flash really is full (but for the reserve freed)
    result = json.loads((journal.folder / "sessions" / sid1 / "result.json").read_text())
    assert result["status"] == "error" and result["error"].startswith(NO_SPACE) and result["error"] in message
    # whole lines only, nothing the host read is missing, one launch (a deterministic failure is not relaunched)
    raw, events = device_events(device, sid1, tmp_path / "device-events.jsonl")
    assert raw.endswith(b"\n") and [e["seq"] for e in events] == list(range(len(events)))
    assert (journal.folder / "sessions" / sid1 / "events.jsonl").read_bytes() == raw
    assert [e["type"] for e in events].count("session_start") == 1
    assert "task_start" in [e["type"] for e in events] and "task_end" not in [e["type"] for e in events]  # mid-task
    assert [e["type"] for e in events[-2:]] == ["error", "session_end"] and events[-2]["message"] == result["error"]
    whole_files_only(journal.folder / "sessions" / sid1)       # the pulled folder: whole traces and checkpoints, no reserve
    # the persistent runner served task 1, failed task 2 and is still alive
    pid = server_pid(device)
    assert int((journal.folder / "sessions" / sid0 / "runner.pid").read_text()) == pid
    assert device.shell(f"kill -0 {pid} && echo alive").stdout.strip() == "alive"
    # space again: the run resumes from task 2 on the same runner, and equals the host trainer exactly
    remove_filler(device)
    folder = run_experiment(spec, device, tmp_path, progress=False, journal=RunJournal(journal.folder))
    assert int((folder / "sessions" / sid1 / "runner.pid").read_text()) == pid == server_pid(device)
    assert json.loads((folder / "sessions" / sid1 / "result.json").read_text())["status"] == "ok"
    assert json.loads((folder / "env.json").read_text())["runner"] == kind
    # the task trained again is measured whole: the failed attempt's folder went before its sampler started
    samples = read_power_csv(folder / "sessions" / sid1 / "power.csv")
    assert len(samples) > 2, samples.path
    energy = [t["energy_j"] for t in json.loads((folder / "summary.json").read_text())["tasks"]]
    assert all(e is not None and e > 0 for e in energy), energy
    assert_conforms_to_host(spec, folder, tmp_path / "host")


def test_a_session_that_would_not_fit_is_refused_before_it_starts(small_phone: tuple[AndroidDevice, str],
                                                                  tmp_path: Path) -> None:
    device, kind = small_phone
    spec = spec_for(kind)
    remove_filler(device)
    prepare_device_run(spec, device, "deploy-only", progress=False)   # what a run pushes is there: only sessions remain
    leave = 1024 * 1024                                          # < the 4 MB of logs alone a session may write
    device.shell(f"dd if=/dev/zero of={quote(filler(device))} bs=1048576 count={(free_bytes(device) - leave) // 2**20}"
                 f" 2>/dev/null; true")
    free = free_bytes(device)
    assert leave <= free < leave + 2**20
    journal = RunJournal.create(tmp_path, spec.name)
    try:
        with pytest.raises(SessionError) as err:
            run_experiment(spec, device, tmp_path, progress=False, journal=journal)
    finally:
        remove_filler(device)
    assert err.value.phase == "precheck" and "\n" not in str(err.value)
    assert f"precheck: {NO_SPACE}{device.storage_path()}: free {free / 1e6:.1f} MB, needed " in str(err.value)
    sessions = device.shell(f"ls {quote(device.storage_path('sessions'))} 2>/dev/null; true").stdout.split()
    assert journal.session_id(0) not in sessions                 # refused before a session folder was made


def test_a_disk_filled_before_the_runner_takes_the_session_is_reported_at_once(
        small_phone: tuple[AndroidDevice, str], tmp_path: Path) -> None:
    device, kind = small_phone
    spec = spec_for(kind)
    remove_filler(device)
    pid = stopped_server(device, spec)
    journal = RunJournal.create(tmp_path, spec.name)
    sid0 = journal.session_id(0)
    try:
        fill_when_queued(device, sid0)
        t0 = time.monotonic()
        with pytest.raises(SessionError) as err:
            run_experiment(spec, device, tmp_path, progress=False, journal=journal)
        elapsed = time.monotonic() - t0
        print(f"{kind}: the run failed {elapsed:.1f} s after it started (export, deploy check, precheck, queue)")
    finally:
        device.shell(f"kill -CONT {pid}; true")
    # the one-line cause, the same from both runners; what was free is what the claim's unlink of the queue
    # entry (and its directory's) gave back by then: none or a few 1 KiB blocks of the ext4 flash (its journal
    # frees blocks at commit)
    free = re.search(r"runner\.reserve: free (\d+) bytes", str(err.value))
    assert free is not None and int(free.group(1)) % 1024 == 0 and int(free.group(1)) <= 4096, str(err.value)
    cause = (f"{NO_SPACE}{device.storage_path()}/sessions/{sid0}/runner.reserve: free {free.group(1)} bytes, "
             "needed 64.0 KB (the session's error reserve)")
    assert str(err.value) == f"session {sid0} died: task 1: runner ended with status error: {cause}"
    assert err.value.exit_code == 1
    assert elapsed < 60, f"reported after {elapsed:.0f} s"     # the watchdog's silence limit is 300 s
    result = json.loads((journal.folder / "sessions" / sid0 / "result.json").read_text())
    assert result["status"] == "error" and result["error"] == cause
    _, events = device_events(device, sid0, tmp_path / "device-events.jsonl")
    assert [e["type"] for e in events] == ["error", "session_end"] and events[0]["message"] == result["error"]
    assert device.shell(f"kill -0 {pid} && echo alive").stdout.strip() == "alive" and server_pid(device) == pid
    # space again: the server takes its reserve back and the resumed run completes on it
    remove_filler(device)
    folder = run_experiment(spec, device, tmp_path, progress=False, journal=RunJournal(journal.folder))
    for t in range(2):
        session = folder / "sessions" / journal.session_id(t)
        assert json.loads((session / "result.json").read_text())["status"] == "ok"
        assert int((session / "runner.pid").read_text()) == pid
    assert device.shell(f"wc -c < {quote(device.storage_path('runner/server.reserve'))}").stdout.strip() == "65536"
