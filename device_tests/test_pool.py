"""The device pool on four virtual phones behind two adb servers (the second one reached as a remote
server, ``--adb-server HOST:PORT``): a 12-run sweep through the CLI completes with every run in the
index while one phone is killed mid-run and restarted later (its run continues elsewhere from its
last completed task, exactly); Ctrl-C leaves the sessions running on the phones and ``--resume``
reattaches to them; pool resolution across servers; ``edgecl devices --connect``; ``edgecl vphone
start`` on edgecl's private adb server. Virtual phones only (they are killed on purpose)."""
from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Iterator

import pytest

from android_harness.adb_server import ServerAddress, list_devices
from android_harness.android_device import AndroidDevice
from android_harness.pool import parse_selector, pool_states, resolve_pool
from android_harness.session import PAUSED_LIMIT_ENV
from android_harness.shell_quote import quote
from android_harness.vphone.home import VphoneHome
from android_harness.vphone_fleet import Fleet, vphone_fleet
from pipeline.config import load_spec
from pipeline.errors import DeviceError
from pipeline.experiment import run_experiment

from device_tests._paused_runner import (STACKS_ON_ABORT, as_from_a_terminal, continue_runner, host_frozen,
                                         output_or_stacks, pause_runner, signal_all)
from device_tests._small_run import reaped

REPO = Path(__file__).resolve().parents[1]
SPEC = (REPO / "tests" / "data" / "specs" / "pool_sweep.toml").read_text()   # shared with bench/pool.py

pytestmark = pytest.mark.skipif(bool(os.environ.get("ANDROID_SERIAL")), reason="kills and restarts phones: virtual phones only")


@pytest.fixture(scope="module")
def fleet(edgecl_home: Path) -> Iterator[Fleet]:
    with vphone_fleet(4, servers=2, presets=("pixel7-termux", "pixel7-termux", "galaxy_s21-termux", "galaxy_s21-termux"), base=edgecl_home) as f:
        yield f


def _spec(tmp_path: Path) -> Path:
    path = tmp_path / "pool.toml"
    path.write_text(SPEC)
    return path


def _cli(*args: str, fleet: Fleet) -> list[str]:
    servers = [a for s in fleet.servers for a in ("--adb-server", str(s))]
    return [sys.executable, "-m", "pipeline.cli.app", *args, *servers]


def _popen(cmd: list[str]) -> subprocess.Popen:
    """The command with the tests' environment; a runner a test pauses on purpose is waited on."""
    env = {**os.environ, "PYTHONPATH": str(REPO), "COLUMNS": "200", PAUSED_LIMIT_ENV: "600", **STACKS_ON_ABORT}
    return subprocess.Popen(cmd, cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            preexec_fn=as_from_a_terminal)


def _index(folder: Path) -> dict | None:
    try:
        return json.loads((folder / "sweep.json").read_text())
    except (OSError, ValueError):
        return None


def _wait(what: str, cond, timeout_s: float, proc: subprocess.Popen | None = None):
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        got = cond()
        if got:
            return got
        if proc is not None and proc.poll() is not None:
            raise AssertionError(f"the sweep exited ({proc.returncode}) while waiting for {what}: {proc.stdout.read()[-3000:]}")
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


def _phone(fleet: Fleet, device_key: str) -> int:
    serial = device_key.split("@", 1)[0]
    return next(i for i, p in enumerate(fleet.phones) if p.serial == serial)


def _check_every_run_once(folder: Path, index: dict, n_runs: int) -> None:
    """Every run done once, one folder each, each with both tasks recorded -- none lost, none twice."""
    assert index["counts"] == {"pending": 0, "running": 0, "done": n_runs, "failed": 0}
    names = [r["name"] for r in index["runs"]]
    assert len(set(names)) == n_runs
    folders = sorted(p.name for p in (folder / "runs").iterdir())
    assert folders == sorted(Path(r["folder"]).name for r in index["runs"])
    for r in index["runs"]:
        run_dir = folder / r["folder"]
        summary = json.loads((run_dir / "summary.json").read_text())
        assert [t["task"] for t in summary["tasks"]] == [0, 1]
        assert sorted(p.name for p in (run_dir / "sessions").iterdir()) == [f"{run_dir.name}-task0", f"{run_dir.name}-task1"]
        assert [d["task"] for d in r["result"]["devices"]] == [0, 1]
        assert sum(a["outcome"] == "done" for a in r["attempts"]) == 1


def test_pool_resolves_phones_across_two_servers(fleet: Fleet) -> None:
    local, remote = fleet.servers[0], ServerAddress.parse(f"127.0.0.1:{fleet.servers[1].port}")
    everyone = resolve_pool([local, remote], all_devices=True)
    assert sorted(m.serial for m in everyone) == sorted(p.serial for p in fleet.phones)
    assert {str(m.server) for m in everyone} == {str(local), str(remote)}
    on_remote = fleet.phones[1].serial
    (member,) = resolve_pool([local, remote], [on_remote])
    assert member.server == remote and member.reconnectable
    assert resolve_pool([local], [f"{on_remote}@{remote}"])[0].server == remote    # SERIAL@HOST:PORT
    assert parse_selector(f"{on_remote}@{remote}") == (on_remote, remote)
    with pytest.raises(DeviceError, match="not attached"):
        resolve_pool([local, remote], ["emulator-5554"])
    with pytest.raises(DeviceError, match="4 devices ready"):
        resolve_pool([local, remote])
    states = pool_states(everyone)
    assert set(states.values()) == {"device"}


def test_a_remote_server_that_is_down_is_never_started(tmp_path: Path) -> None:
    """An explicitly named server that does not answer is an error naming it; nothing is started there
    (adbutils alone would run `adb start-server` on tcp:5037)."""
    from android_harness.vphone.manager import free_port

    port = free_port()
    down = ServerAddress.parse(f"127.0.0.1:{port}")
    with pytest.raises(DeviceError, match=f"127.0.0.1:{port} unreachable"):
        list_devices(down)
    assert not down.is_up()


def test_sweep_survives_a_phone_killed_mid_run(fleet: Fleet, tmp_path: Path, edgecl_home: Path) -> None:
    spec = _spec(tmp_path)
    out = tmp_path / "sweeps"
    folder = out / "pool12"
    with reaped(_popen(_cli("sweep", str(spec), "--set", "train.lr=0.03,0.05", "--seeds", "0..5", "--all",
                            "--offline-grace", "3", "--out", str(out), "--name", "pool12", fleet=fleet))) as proc:
        def in_second_task():
            idx = _index(folder)
            for r in (idx or {}).get("runs", []):
                if r["state"] == "running" and r["attempts"][-1]["session"].endswith("-task1"):
                    return r
            return None

        victim = _wait("a run in its second task", in_second_task, 300, proc)
        phone = _phone(fleet, victim["attempts"][-1]["device"])
        fleet.kill(phone)
        lost = _wait("the run to be taken off the dead phone",
                     lambda: next((a for a in (_index(folder) or {"runs": []})["runs"] if a["name"] == victim["name"]
                                   and a["attempts"][0]["outcome"] == "lost"), None), 120, proc)
        assert lost["attempts"][0]["outcome"] == "lost"
        time.sleep(5)
        fleet.restart(phone)                          # it rejoins the pool and takes runs again
        output, _ = proc.communicate(timeout=900)
    assert proc.returncode == 0, output[-4000:]
    index = _index(folder)
    _check_every_run_once(folder, index, 12)
    moved = next(r for r in index["runs"] if r["name"] == victim["name"])
    dead_key = victim["attempts"][-1]["device"]
    task0, task1 = moved["result"]["devices"]
    assert task0["key"] == dead_key                                  # completed before the kill, kept
    assert moved["attempts"][0]["outcome"] == "lost" and moved["attempts"][-1]["outcome"] == "done"
    assert task1["key"] != dead_key or len(moved["attempts"]) >= 2   # finished elsewhere, or on it after its restart
    restarted = fleet.phones[phone].serial
    assert any(d["serial"] == restarted for r in index["runs"] for d in r["result"]["devices"]
               if r["attempts"][-1]["started"] > lost["attempts"][0]["ended"]) or task1["serial"] == restarted
    # per device model: both presets appear, each row of one model only
    report = (folder / "report.csv").read_text()
    assert "Pixel 7 (edgecl vphone)" in report and "SM-G998B (edgecl vphone)" in report
    # the moved run equals the same run done in one go on one phone (resume is exact)
    again = run_experiment(load_spec(spec, moved["overrides"]), fleet.members()[(phone + 1) % 4].open(), tmp_path / "again",
                           progress=False)
    assert (again / "accuracy_matrix.csv").read_text() == (folder / moved["folder"] / "accuracy_matrix.csv").read_text()


def test_a_sweep_starts_its_killed_adb_server_again_and_finishes(fleet: Fleet, tmp_path: Path) -> None:
    """One of the fleet's two adb servers SIGKILLed with the sweep (scheduler and phone workers) frozen just
    after a run's first task is recorded: whichever of the sweep's processes meets the dead server first
    starts it again on its port with its phones, and every run completes once."""
    spec = _spec(tmp_path)
    out = tmp_path / "sweeps"
    folder = out / "lostserver"
    killed = fleet.owned[0].pid
    assert killed is not None
    with reaped(_popen(_cli("sweep", str(spec), "--set", "train.lr=0.03,0.05", "--seeds", "0..1", "--all",
                            "--out", str(out), "--name", "lostserver", fleet=fleet))) as proc:
        _wait("a run's first task recorded", lambda: next(folder.glob("runs/*/sessions/*-task0/task.json"), None), 300, proc)
        with host_frozen(proc):
            os.kill(killed, signal.SIGKILL)
        output, _ = proc.communicate(timeout=900)
    assert proc.returncode == 0, output[-4000:]
    assert "Traceback" not in output, output[-4000:]
    _check_every_run_once(folder, _index(folder), 4)
    assert fleet.owned[0].pid not in (None, killed)                      # a new server on the same port
    assert set(pool_states(fleet.members()).values()) == {"device"}       # every phone back on it


def _handed_over(fleet: Fleet, folder: Path, held: set[str], ended: set[str], any_task: set[str]) -> tuple[str, AndroidDevice, str] | None:
    """A running run on a phone not ``held`` whose session (not one of ``ended``) its phone's runner has
    (runner.pid is there): (phone key, device, session folder). A run's last session only on the phones in
    ``any_task`` or while a run waits for a phone: a session that had ended must be followed by another one
    on the same phone (the run's next task, or the next run there)."""
    runs = (_index(folder) or {"runs": []})["runs"]
    waiting = any(r["state"] == "pending" for r in runs)
    for r in runs:
        if r["state"] != "running" or not r["attempts"]:
            continue
        key, sid = r["attempts"][-1]["device"], r["attempts"][-1]["session"]
        if not sid or key in held or sid in ended or (key not in any_task and not waiting and not sid.endswith("-task0")):
            continue
        device = fleet.members()[_phone(fleet, key)].open()
        rdir = device.storage_path("sessions", sid)
        if device.shell(f"cat {quote(rdir)}/runner.pid 2>/dev/null", check=False).stdout.strip():
            return key, device, rdir
    return None


def _worker_pids(folder: Path) -> dict[str, int]:
    """Each phone's sweep worker, from the first line it writes to its log."""
    pids = {}
    for log in (folder / "logs").glob("*.log"):
        for line in log.read_text().splitlines():
            if m := re.fullmatch(r"worker (\d+) for (\S+)", line):
                pids[m[2]] = int(m[1])
    return pids


def test_ctrl_c_leaves_sessions_on_the_phones_and_resume_reattaches(fleet: Fleet, tmp_path: Path) -> None:
    """Ctrl-C lands while both runs are in sessions on their phones. Each phone is held in turn, the sweep
    frozen meanwhile: its runner paused, then its worker left stopped (no watchdog of it runs) once its
    session is one that had not ended. A session that ended before the pause is followed on that phone by
    another one (the run's next task, or a waiting run), which the paused runner cannot start, so every phone
    is held."""
    spec = _spec(tmp_path)
    out = tmp_path / "sweeps"
    two = [a for p in fleet.phones[:2] for a in ("--serial", p.serial)]
    proc = _popen(_cli("sweep", str(spec), "--seeds", "0..3", *two, "--out", str(out), "--name", "stopped", fleet=fleet))
    folder = out / "stopped"
    held: dict[str, tuple[AndroidDevice, int, int]] = {}      # phone key -> (device, runner pid, worker pid)
    paused: dict[str, tuple[AndroidDevice, int]] = {}          # runners paused (held or about to be)
    ended: set[str] = set()                                     # sessions that had ended when their runner was paused
    try:
        while len(held) < 2:
            key, device, rdir = _wait("a run's session on a phone not held yet", lambda: _handed_over(
                fleet, folder, set(held), ended, set(paused)), 300, proc)
            worker = _worker_pids(folder)[key]
            with host_frozen(proc) as keep:
                pid, done = pause_runner(device, rdir)
                paused[key] = (device, pid)
                if done:                         # its next session, queued for the paused runner, is held
                    ended.add(rdir.rsplit("/", 1)[1])
                else:
                    keep.append(worker)
                    held[key] = (device, pid, worker)
        os.kill(proc.pid, signal.SIGINT)
        signal_all([w for _, _, w in held.values()], signal.SIGCONT)   # the workers end on the sweep's SIGTERM
        output = output_or_stacks(proc, 60)
    finally:
        signal_all([w for _, _, w in held.values()], signal.SIGCONT)
        for device, pid in paused.values():
            continue_runner(device, pid)
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 130, output[-3000:]
    assert output.count("continues on") == 2 and f"edgecl sweep --resume {folder}" in output
    index = _index(folder)
    stopped = [r for r in index["runs"] if r["attempts"] and r["attempts"][-1]["outcome"] == "interrupted"]
    assert len(stopped) == 2 and all(r["state"] == "pending" for r in stopped)
    resumed = subprocess.run(_cli("sweep", "--resume", str(folder), *two, fleet=fleet), cwd=REPO, capture_output=True,
                             text=True, env={**os.environ, "PYTHONPATH": str(REPO)}, timeout=900)
    assert resumed.returncode == 0, resumed.stdout[-3000:] + resumed.stderr[-2000:]
    index = _index(folder)
    _check_every_run_once(folder, index, 4)
    for r in stopped:
        sid = r["attempts"][-1]["session"]
        events = (folder / r["folder"] / "sessions" / sid / "events.jsonl").read_text().splitlines()
        assert sum(json.loads(e)["type"] == "session_start" for e in events) == 1    # reattached, never run twice


def test_devices_connect_lists_a_phone_on_tcp(fleet: Fleet, edgecl_home: Path) -> None:
    from android_harness import vphone
    from android_harness.vphone.manager import remove_home

    info = vphone.start(preset="pixel7-termux", server=fleet.servers[1], base=edgecl_home, connect_adb=False)
    try:
        out = subprocess.run([sys.executable, "-m", "pipeline.cli.app", "devices", "--adb-server", str(fleet.servers[1]),
                              "--connect", info.serial], cwd=REPO, capture_output=True, text=True, timeout=120,
                             env={**os.environ, "PYTHONPATH": str(REPO), "COLUMNS": "200"})
        assert out.returncode == 0, out.stdout + out.stderr
        assert f"connected {info.serial}" in out.stdout
        row = next(line for line in out.stdout.splitlines() if info.serial in line and "device" in line)
        assert str(fleet.servers[1]) in row
    finally:
        vphone.stop(info, fleet.servers[1], base=edgecl_home)
        remove_home(info)                 # later tests of the session count the homes left under edgecl_home


def test_vphone_start_uses_a_private_adb_server(tmp_path: Path) -> None:
    """`edgecl vphone start` puts the phone on edgecl's own adb server; the last `stop` ends that server."""
    from android_harness.private_server import running_server

    env = {**os.environ, "PYTHONPATH": str(REPO), "EDGECL_HOME": str(tmp_path / "home")}
    env.pop("ADB_SERVER_SOCKET", None)
    default = ServerAddress("127.0.0.1", 5037)
    default_up_before = default.is_up()
    started = subprocess.run([sys.executable, "-m", "pipeline.cli.app", "vphone", "start"], cwd=REPO, env=env,
                             capture_output=True, text=True, timeout=120)
    try:
        assert started.returncode == 0, started.stdout + started.stderr
        serial = started.stdout.strip().splitlines()[-1]
        pid, server = running_server(tmp_path / "home")
        assert server.port != 5037 and f"ADB_SERVER_SOCKET=tcp:{server}" in started.stderr
        assert any(e.serial == serial and e.state == "device" for e in list_devices(server))
        assert default.is_up() == default_up_before                     # tcp:5037 not started by us
        if default_up_before:
            assert all(e.serial != serial for e in list_devices(default))
    finally:
        stopped = subprocess.run([sys.executable, "-m", "pipeline.cli.app", "vphone", "stop", "--all"], cwd=REPO, env=env,
                                 capture_output=True, text=True, timeout=120)
    assert stopped.returncode == 0, stopped.stdout + stopped.stderr
    assert "stopped edgecl's vphone adb server" in stopped.stdout
    assert running_server(tmp_path / "home") is None
    _wait(f"adb server pid {pid} to end", lambda: not _running(pid), 10)


def _running(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def test_run_on_the_phones_a_spec_names(fleet: Fleet, tmp_path: Path) -> None:
    """``[device] serials`` (one named SERIAL@HOST:PORT): ``edgecl run`` runs the spec once on each phone."""
    p0, p1 = fleet.phones[0].serial, fleet.phones[1].serial
    spec = tmp_path / "two.toml"
    spec.write_text(SPEC.replace('[power]', f'[device]\nserials = ["{p0}", "{p1}@{fleet.servers[1]}"]\n\n[power]'))
    proc = subprocess.run(_cli("run", str(spec), "--out", str(tmp_path / "out"), fleet=fleet), cwd=REPO, capture_output=True,
                          text=True, env={**os.environ, "PYTHONPATH": str(REPO), "COLUMNS": "200"}, timeout=900)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]
    (folder,) = (tmp_path / "out").iterdir()
    index = _index(folder)
    _check_every_run_once(folder, index, 2)
    ran_on = {r["name"]: {d["serial"] for d in r["result"]["devices"]} for r in index["runs"]}
    assert ran_on == {"pool-d0": {p0}, "pool-d1": {p1}}
    acc = [r["result"]["class_il"] for r in index["runs"]]
    assert acc[0] == acc[1]                       # the same spec and seed train identically on both phones


def test_a_phone_back_within_the_grace_keeps_its_run(fleet: Fleet, tmp_path: Path) -> None:
    """Killed (the phone powers off: its runner dies with it) and restarted before ``--offline-grace``
    runs out: the same attempt finishes on the same phone, its session reattached and relaunched from
    its own folder (one session, two runner starts, no sequence gap) -- never moved or started over."""
    spec = _spec(tmp_path)
    phone = 3
    # sessions of seconds (the spec's 2 epochs end in well under one), checkpointed every 20 steps
    folder = tmp_path / "sweeps" / "blip"
    with reaped(_popen(_cli("sweep", str(spec), "--seeds", "0..1", "--serial", fleet.phones[phone].serial, "--offline-grace", "120",
                            "--set", "train.epochs=200", "--set", "device.checkpoint_every=20",
                            "--out", str(tmp_path / "sweeps"), "--name", "blip", fleet=fleet))) as proc:
        run = _wait("a run on the phone", lambda: next((r for r in (_index(folder) or {"runs": []})["runs"]
                                                        if r["state"] == "running" and r["attempts"][-1]["session"]), None), 300, proc)
        # kill while the runner trains the session (a session already over would be merely collected)
        device = fleet.members()[phone].open()
        on_phone = VphoneHome(Path(fleet.phones[phone].home)).host_path(
            device.storage_path("sessions", run["attempts"][-1]["session"], "events.jsonl"))
        _wait("the session's first checkpoint on the phone", lambda: on_phone.is_file() and any(
            json.loads(line)["type"] == "checkpoint" for line in on_phone.read_text().splitlines()[:-1]), 300, proc)
        fleet.kill(phone)
        time.sleep(3)
        fleet.restart(phone)
        output, _ = proc.communicate(timeout=600)
    assert proc.returncode == 0, output[-3000:]
    index = _index(folder)
    _check_every_run_once(folder, index, 2)
    assert all(len(r["attempts"]) == 1 for r in index["runs"])
    sid = run["attempts"][-1]["session"]
    rec = next(r for r in index["runs"] if r["name"] == run["name"])
    events = [json.loads(e) for e in (folder / rec["folder"] / "sessions" / sid / "events.jsonl").read_text().splitlines()]
    assert [e["seq"] for e in events] == list(range(len(events)))
    starts = [e for e in events if e["type"] == "session_start"]
    assert len(starts) == 2 and events[-1]["type"] == "session_end"
    assert f"sessions/{sid}/checkpoints/" in starts[1]["resumed_from"]         # from its own last checkpoint
    assert rec["attempts"][0]["device"] == run["attempts"][0]["device"]
