"""The virtual phone is a sandbox, not a door: what its shell and a pushed program plant at every
path the phone's services open (the service folder the vphone publishes into and reads from, the
simulated sysfs, adb_keys, /proc of the phone) is refused or ignored, a root-only host file
planted next to the test never changes, the power model keeps ticking and the phone still answers;
the phone's processes and the vphone's I/O threads for it hold no capabilities, and no process of
the phone can make a user namespace."""
from __future__ import annotations

import hashlib
import io
import json
import os
import shutil
import signal
import subprocess
import time
from pathlib import Path
from typing import Callable, Iterator

import pytest

from android_harness.adb_server import ServerAddress, adb_binary
from android_harness.android_device import AndroidDevice
from android_harness.vphone.device_tools import SVC_CTL_DIR, SVC_DIR
from android_harness.vphone.home import VphoneHome
from android_harness.vphone.manager import VphoneInfo
from pipeline.errors import AdbError
from tests._native_bins import missing_system_package

pytestmark = pytest.mark.skipif(bool(os.environ.get("ANDROID_SERIAL")), reason="vphone-only test")
PROBE_C = Path(__file__).parent / "data" / "sandbox_probe.c"
CTL = f"{SVC_CTL_DIR}/battery_ctl"
# paths the vphone itself writes or reads, as the phone names them; none may be planted on
READ_ONLY_TARGETS = (f"{SVC_DIR}/ipowerstats.txt", f"{SVC_DIR}/.ipowerstats.txt.tmp", f"{SVC_DIR}/ipowerstats.txt.tmp",
                     f"{SVC_DIR}/powerctl", f"{SVC_DIR}/battery_ctl", "/sys/class/power_supply/battery/status",
                     "/sys/class/power_supply/battery/current_now", "/sys/class/thermal/thermal_zone0/temp",
                     "/data/misc/adb/adb_keys")
POWERCTL = f"{SVC_DIR}/powerctl"     # written by design (``reboot``): anything else written there is ignored
WAIT_S = 60.0          # bound on waiting for the vphone's own progress (never an assertion's timing)
CAP_LINES = ("CapInh", "CapPrm", "CapEff", "CapAmb")


@pytest.fixture()
def victim(tmp_path: Path) -> Iterator[Path]:
    """A root-only host file whose content would unplug the charger if the vphone ever read it as
    battery_ctl; its bytes, mode and folder are the same at the end of the test."""
    path = tmp_path / "victim"
    path.write_text("unplugged=1\n")
    path.chmod(0o600)
    before = (hashlib.sha256(path.read_bytes()).hexdigest(), path.stat().st_mode, sorted(os.listdir(tmp_path)))
    yield path
    assert (hashlib.sha256(path.read_bytes()).hexdigest(), path.stat().st_mode, sorted(os.listdir(tmp_path))) == before


@pytest.fixture(params=["aarch64", "x86_64"])
def probe(device: AndroidDevice, tmp_path: Path, request: pytest.FixtureRequest) -> str:
    """The pushed hostile program, static: for the phone's ABI (run under the phone's qemu, which is
    multithreaded, so its unshare of a user namespace fails with EINVAL whatever the limit), and for
    the host's (runs natively: the kernel's own answer to it)."""
    gcc = shutil.which({"aarch64": "aarch64-linux-gnu-gcc", "x86_64": "gcc"}[request.param])
    if gcc is None:
        missing_system_package(f"no C compiler for {request.param} (g++-aarch64-linux-gnu, gcc)")
    subprocess.run([gcc, "-static", "-O2", "-o", str(tmp_path / "probe"), str(PROBE_C)], check=True)
    remote = device.storage_path("bin", f"sandbox-probe-{request.param}")
    device.adb.push(tmp_path / "probe", remote, mode=0o755)
    return remote


def _wait_for(what: str, done: Callable[[], bool]) -> None:
    deadline = time.monotonic() + WAIT_S
    while not done():
        assert time.monotonic() < deadline, f"the vphone made no progress: {what}"
        time.sleep(0.05)


def _after_host_reads(home: VphoneHome, n: int = 2) -> list[dict]:
    """The power model's next ``n`` fuel-gauge publishes: each one follows a read of battery_ctl
    made after this call started, so what was planted before has been seen by the vphone."""
    path = home.run / "power_model.json"
    seen = [json.loads(path.read_text())]

    def more() -> bool:
        model = json.loads(path.read_text())
        if model["time"] != seen[-1]["time"]:
            seen.append(model)
        return len(seen) > n

    _wait_for("fuel gauge publishes", more)
    return seen[1:]


def _charging_after_reads(home: VphoneHome) -> bool:
    return _after_host_reads(home, 2)[-1]["charging"]


def _answers(device: AndroidDevice) -> None:
    assert device.shell("id", timeout=2.0).stdout.startswith("uid=2000(shell)")


def test_service_paths_refuse_plants_from_the_shell_and_a_pushed_program(device: AndroidDevice, probe: str,
                                                                         victim: Path, vphone_home: VphoneHome) -> None:
    """What the vphone writes (the PowerStats dump and its temp names, sysfs), reads (powerctl,
    adb_keys) or used to read (battery_ctl outside ctl/) cannot be replaced by a symlink, hard link,
    FIFO, device node, renamed link or new file, by the shell or a pushed program; only powerctl
    takes writes, by design, and a write that is not a reboot request changes nothing. User and
    mount namespaces and /proc/1/{root,cwd} are refused to both."""
    boot = device.shell("getprop edgecl.vphone.boot").stdout
    tries = []
    for path in READ_ONLY_TARGETS:
        for cmd in (f"ln -s {victim} {path}", f"ln /system/etc/passwd {path}", f"mkfifo {path}",
                    f"mknod {path} c 1 3", f"ln -s {victim} /data/local/tmp/l && mv -f /data/local/tmp/l {path}",
                    f"echo pwned > {path}"):
            r = device.shell(cmd, check=False)
            tries.append((cmd, r.exit_code))
    device.shell("rm -f /data/local/tmp/l")
    assert [t for t in tries if t[1] == 0] == [(f"echo pwned > {POWERCTL}", 0)]
    out = device.shell([probe, "attack", str(victim), *READ_ONLY_TARGETS]).stdout.splitlines()
    results = {tuple(line.split()[:2]): line.split()[2] for line in out}
    assert len(results) == 6 * len(READ_ONLY_TARGETS) + 4, out
    assert [k for k, v in results.items() if v == "ok"] == [("open-write", POWERCTL)], out
    assert results[("unshare-user", "-")] == ("ENOSPC" if probe.endswith("x86_64") else "EINVAL")
    assert results[("unshare-mount", "-")] == "EPERM"
    assert results[("open", "/proc/1/root")] == results[("open", "/proc/1/cwd")] == "EACCES"
    r = device.shell("unshare -r id", check=False)
    assert r.exit_code != 0 and "uid=0" not in r.stdout
    assert device.shell("cat /proc/sys/user/max_user_namespaces").stdout == "0\n"
    assert set(os.listdir(vphone_home.svc)) - {".ipowerstats.txt.tmp"} == {"ctl", "ipowerstats.txt", "powerctl"}
    assert _charging_after_reads(vphone_home)
    _answers(device)
    assert device.shell("getprop edgecl.vphone.boot").stdout == boot


@pytest.mark.parametrize("plant", ["symlink", "fifo", "hardlink", "oversize", "device-node"])
def test_drop_folder_plants_are_ignored(device: AndroidDevice, victim: Path, vphone_home: VphoneHome,
                                        plant: str) -> None:
    """battery_ctl, the one file the vphone reads from the shell's drop folder: a link to a host
    file, a FIFO (which would block a reader), a second name of a phone file, a file over the size
    bound and a device node are all ignored; the real channel (``dumpsys battery unplug``) works."""
    cmd = {"symlink": f"ln -s {victim} {CTL}",
           "fifo": f"mkfifo {CTL}",
           "hardlink": f"echo unplugged=1 > {SVC_CTL_DIR}/a && ln {SVC_CTL_DIR}/a {CTL}",
           "oversize": f"{{ echo unplugged=1; head -c 8192 /dev/zero; }} > {CTL}",
           "device-node": f"mknod {CTL} c 1 3"}[plant]
    try:
        r = device.shell(cmd, check=False)
        assert r.exit_code == (1 if plant == "device-node" else 0), r
        assert _charging_after_reads(vphone_home)
        _answers(device)
        device.shell(f"rm -f {CTL} {SVC_CTL_DIR}/a && dumpsys battery unplug")
        assert not _charging_after_reads(vphone_home)          # the channel itself still carries control
    finally:
        device.shell(f"rm -f {CTL} {SVC_CTL_DIR}/a; dumpsys battery reset")
    assert _charging_after_reads(vphone_home)


def test_rename_race_on_battery_ctl(device: AndroidDevice, probe: str, victim: Path, vphone_home: VphoneHome,
                                    remote_dir: str) -> None:
    """A pushed program renames a symlink to a host file, a FIFO and a hard-linked file over
    battery_ctl as fast as it can while the power model reads it: at every fuel-gauge publish in
    the meantime the charger is still on (nothing followed) and the model keeps publishing."""
    stop, out = f"{remote_dir}/stop", f"{remote_dir}/raced"
    # the shell returns once the racer wrote its first line, i.e. runs in a session of its own
    device.shell(f"setsid {probe} race {victim} {SVC_CTL_DIR} {stop} > {out} 2>&1 < /dev/null & "
                 f"while [ ! -s {out} ]; do sleep 0.05; done")
    try:
        models = _after_host_reads(vphone_home, 6)
    finally:
        device.shell(["touch", stop])
    _wait_for("the racer stops", lambda: "raced " in device.shell(["cat", out]).stdout)
    assert device.shell(["cat", out]).stdout.startswith("racing\nraced ")
    assert int(device.shell(["cat", out]).stdout.split()[-1]) > 0
    assert all(m["charging"] for m in models), models
    _answers(device)


def _status(path: str) -> dict[str, str]:
    return dict(line.split(":\t", 1) for line in Path(path).read_text().splitlines() if ":\t" in line)


def test_phone_processes_and_io_threads_hold_no_capabilities(device: AndroidDevice, stock_vphone: VphoneInfo,
                                                              adb_server: ServerAddress, tmp_path: Path,
                                                              remote_dir: str) -> None:
    """Every process of the phone but its root init pair (bwrap's reaper and the init it holds), and
    every thread the vphone runs in the phone for sync and forwards, is the shell user with no
    capabilities, as adbd's shell work is; through sync, /proc of the phone's root processes is
    refused as it is to adbd."""
    argv = ["sleep", f"8763.{os.getpid()}"]
    started = f"{remote_dir}/started"            # the shell returns once the sleeper has its own session
    device.shell(f"setsid sh -c 'touch {started}; exec {' '.join(argv)}' > /dev/null 2>&1 < /dev/null & "
                 f"while [ ! -e {started} ]; do sleep 0.05; done")
    want = "\0".join(argv).encode() + b"\0"
    sleeper: list[str] = []

    def execed() -> bool:
        sleeper[:] = [p for p in os.listdir("/proc") if p.isdigit() and _cmdline(p).endswith(want)]
        return bool(sleeper)

    _wait_for("the phone's sleep starts", execed)
    adb = [adb_binary(), "-P", str(adb_server.port), "-s", device.serial]
    try:
        assert subprocess.run(adb + ["ls", "/proc/1/root/"], capture_output=True, text=True, timeout=30).stdout == ""
        for remote in ("/proc/1/root/system/etc/passwd", "/proc/1/cwd/etc/passwd", "/proc/2/fd/2", "/proc/1/environ"):
            with pytest.raises(AdbError):
                device.adb.pull(remote, tmp_path / "pulled")
        with pytest.raises(AdbError):
            device.adb.push(io.BytesIO(b"pwned"), "/proc/1/root/data/local/tmp/x")
        assert len(sleeper) == 1
        phone_ns = os.readlink(f"/proc/{sleeper[0]}/ns/pid")
        procs = {p: _status(f"/proc/{p}/status") for p in os.listdir("/proc")
                 if p.isdigit() and _readlink(f"/proc/{p}/ns/pid") == phone_ns}
        shell_procs = {p: s for p, s in procs.items() if s["Uid"].split()[0] != "0"}
        assert sleeper[0] in shell_procs and len(procs) - len(shell_procs) == 2, procs
        for p, s in shell_procs.items():
            assert s["Uid"].split() == ["2000"] * 4, (p, s)
            assert [int(s[k], 16) for k in CAP_LINES] == [0] * 4, (p, s)
        threads = [_status(f"/proc/{stock_vphone.pid}/task/{t}/status") for t in os.listdir(f"/proc/{stock_vphone.pid}/task")]
        io_threads = [s for s in threads if s["Name"] == "phone-io"]
        assert io_threads, [s["Name"] for s in threads]
        for s in io_threads:
            assert s["Uid"].split() == s["Gid"].split() == ["2000"] * 4 and s["Groups"].strip() == "", s
            assert [int(s[k], 16) for k in CAP_LINES] == [0] * 4, s
    finally:
        for pid in sleeper:
            os.kill(int(pid), signal.SIGKILL)
    _answers(device)


def _cmdline(pid: str) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""


def _readlink(path: str) -> str:
    try:
        return os.readlink(path)
    except OSError:
        return ""
