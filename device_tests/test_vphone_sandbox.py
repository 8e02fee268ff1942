"""The vphone is a stock phone in a sandbox: an Android filesystem, the shell user, no Python, the
host untouched by shell and sync, arm64 binaries under qemu, every process gone with the phone,
reboot, and RSA authentication."""
from __future__ import annotations

import io
import os
import shutil
import signal
import subprocess
import time
from pathlib import Path

import pytest

from android_harness import vphone
from android_harness.adb_server import ServerAddress, adb_binary, list_devices
from android_harness.android_device import AndroidDevice
from android_harness.vphone.home import VphoneHome
from android_harness.device.errors import ConfigError
from pipeline.errors import AdbError, DeviceError
from tests._native_bins import missing_system_package

pytestmark = pytest.mark.skipif(bool(os.environ.get("ANDROID_SERIAL")), reason="vphone-only test")
HELLO_C = '#include <stdio.h>\n#include <unistd.h>\nint main(void){printf("hello from aarch64 as %d\\n", getuid()); return 7;}\n'


def _host_pids(argv: list[str]) -> list[int]:
    """Host processes whose argv ends with ``argv`` (toybox runs ``setsid nohup sleep`` in one process)."""
    want = "\0".join(argv).encode() + b"\0"
    out = []
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                cmdline = Path(f"/proc/{name}/cmdline").read_bytes()
            except OSError:
                continue
            if cmdline.endswith(b"\0" + want) or cmdline == want:
                out.append(int(name))
    return out


def _wait_gone(argv: list[str], seconds: float = 5.0) -> list[int]:
    deadline = time.monotonic() + seconds
    while (left := _host_pids(argv)) and time.monotonic() < deadline:
        time.sleep(0.05)
    return left


def test_android_filesystem_and_the_shell_user(device: AndroidDevice) -> None:
    top = set(device.shell(["ls", "/"]).stdout.split())
    assert {"system", "data", "sdcard", "storage", "proc", "sys", "dev", "etc", "vendor"} <= top
    assert not top & {"usr", "home", "root", "work", "tmp", "opt", "boot"}, top
    assert device.shell("id").stdout.startswith("uid=2000(shell) gid=2000(shell)")
    assert "CapEff:\t0000000000000000" in device.shell(["cat", "/proc/self/status"]).stdout
    assert device.shell("readlink /sdcard; cd /sdcard && pwd -P").stdout == "/storage/self/primary\n/storage/emulated/0\n"
    r = device.shell("command -v python3 || command -v python || python3 -c 1", check=False)
    assert r.exit_code == 127 and r.stdout == "", r
    assert device.shell("ps -A -o PID,CMD").stdout.count("\n") < 10          # the phone's processes only


def test_host_untouched_by_shell_and_sync(device: AndroidDevice, tmp_path: Path, remote_dir: str) -> None:
    marker = tmp_path / "host-file.txt"
    marker.write_text("host")
    host_before = set(os.listdir("/etc"))
    for cmd in (f"echo pwned > {marker}", f"rm {marker}", "echo pwned > /etc/edgecl-pwned",
                "echo pwned > /system/bin/edgecl-pwned", "touch /edgecl-pwned", "ln -s / /data/local/x"):
        assert device.shell(cmd, check=False).exit_code != 0, cmd
    for remote in (str(marker), "/etc/edgecl-pwned", "/system/edgecl-pwned", "/data/edgecl-pwned"):
        with pytest.raises(AdbError):
            device.adb.push(io.BytesIO(b"pwned"), remote)
    assert not device.stat(str(marker)).exists and not device.stat("/usr/bin").exists
    # symlinks on the phone to host paths resolve inside the phone, never to the host
    device.shell(["ln", "-s", str(marker), f"{remote_dir}/to-host"])
    device.shell(["ln", "-s", str(tmp_path), f"{remote_dir}/to-host-dir"])
    device.adb.push(io.BytesIO(b"pwned"), f"{remote_dir}/to-host")          # adbd replaces the link
    assert device.shell(["cat", f"{remote_dir}/to-host"]).stdout == "pwned"
    with pytest.raises(AdbError):
        device.adb.push(io.BytesIO(b"pwned"), f"{remote_dir}/to-host-dir/x")
    assert marker.read_text() == "host" and sorted(os.listdir(tmp_path)) == ["host-file.txt"]
    assert set(os.listdir("/etc")) == host_before


def test_arm64_static_binary_runs_under_qemu(device: AndroidDevice, tmp_path: Path) -> None:
    gcc = shutil.which("aarch64-linux-gnu-gcc")
    if gcc is None:
        missing_system_package("aarch64-linux-gnu-gcc not installed (g++-aarch64-linux-gnu)")
    (tmp_path / "hello.c").write_text(HELLO_C)
    subprocess.run([gcc, "-static", "-O2", "-o", str(tmp_path / "hello"), str(tmp_path / "hello.c")], check=True)
    remote = device.storage_path("bin", "hello-aarch64")
    device.adb.push(tmp_path / "hello", remote, mode=0o755)
    r = device.shell([remote], check=False)
    assert (r.stdout, r.exit_code) == ("hello from aarch64 as 2000\n", 7)
    out = device.storage_path("bin", "hello.out")
    device.shell(f"setsid {remote} > {out} 2>&1 < /dev/null & sleep 0.5")     # how the native runner starts
    assert device.shell(["cat", out]).stdout == "hello from aarch64 as 2000\n"


def test_no_key_no_shell(device: AndroidDevice, tmp_path: Path, vphone_home: VphoneHome) -> None:
    """Auth is on: adb-shell with a key the phone never saw is refused; the host's key works."""
    from adb_shell.adb_device import AdbDeviceTcp
    from adb_shell.auth.keygen import keygen
    from adb_shell.auth.sign_pythonrsa import PythonRSASigner
    from adb_shell.exceptions import TcpTimeoutException

    keygen(str(tmp_path / "stranger"))
    signer = PythonRSASigner((tmp_path / "stranger.pub").read_text(), (tmp_path / "stranger").read_text())
    port = int(device.serial.rsplit(":", 1)[1])
    d = AdbDeviceTcp("127.0.0.1", port, default_transport_timeout_s=5.0)
    with pytest.raises(TcpTimeoutException):
        d.connect(rsa_keys=[signer], auth_timeout_s=2.0)           # never authorised: no CNXN
    d.close()
    assert (tmp_path / "stranger.pub").read_text().split()[0] not in vphone_home.adb_keys.read_text()


def test_unauthorized_for_the_adb_server_without_keys(adb_server: ServerAddress, tmp_path: Path) -> None:
    info = vphone.start(server=adb_server, base=tmp_path, home=tmp_path / "p", host_key=False, connect_adb=False)
    try:
        subprocess.run([adb_binary(), "-P", str(adb_server.port), "connect", info.serial], capture_output=True, timeout=30)
        states = {}
        for _ in range(50):
            states = {e.serial: e.state for e in list_devices(adb_server)}
            if states.get(info.serial) == "unauthorized":
                break
            time.sleep(0.1)
        assert states.get(info.serial) == "unauthorized", states
    finally:
        vphone.stop(info, adb_server, base=tmp_path)


@pytest.mark.parametrize("how", ["stop", "sigkill"])
def test_device_processes_die_with_the_vphone(adb_server: ServerAddress, tmp_path: Path, how: str) -> None:
    info = vphone.start(server=adb_server, base=tmp_path, home=tmp_path / "p")
    argv = ["sleep", f"8765.{os.getpid()}"]
    try:
        dev = AndroidDevice.open(info.serial, adb_server)
        dev.shell(f"setsid nohup {' '.join(argv)} >/dev/null 2>&1 </dev/null & sleep 0.3")
        assert len(_host_pids(argv)) == 1
        if how == "sigkill":
            os.kill(info.pid, signal.SIGKILL)
        else:
            vphone.stop(info, adb_server, base=tmp_path)
        assert _wait_gone(argv) == []
    finally:
        vphone.stop(info, adb_server, base=tmp_path)


@pytest.mark.parametrize("how", ["adb shell reboot", "adb reboot"])
def test_reboot_kills_processes_keeps_storage_and_adb_reconnects(adb_server: ServerAddress, tmp_path: Path,
                                                                  how: str) -> None:
    info = vphone.start(server=adb_server, base=tmp_path, home=tmp_path / "p")
    adb = [adb_binary(), "-P", str(adb_server.port), "-s", info.serial]
    argv = ["sleep", f"8764.{os.getpid()}"]
    try:
        dev = AndroidDevice.open(info.serial, adb_server)
        dev.shell(f"echo kept > /data/local/tmp/kept; setsid {' '.join(argv)} >/dev/null 2>&1 </dev/null & sleep 0.3")
        assert dev.shell("getprop edgecl.vphone.boot").stdout == "1\n" and _host_pids(argv)
        subprocess.run(adb + how.split()[1:], capture_output=True, timeout=30)
        assert _wait_gone(argv) == []
        subprocess.run(adb + ["wait-for-device"], timeout=60, check=True)
        assert dev.shell("getprop edgecl.vphone.boot; cat /data/local/tmp/kept").stdout == "2\nkept\n"
        assert info.alive()
    finally:
        vphone.stop(info, adb_server, base=tmp_path)


def test_x86_64_preset_runs_host_binaries_natively(adb_server: ServerAddress, tmp_path: Path) -> None:
    """The labelled x86_64 preset: a static host-arch binary runs, an arm64 one does not (no qemu)."""
    info = vphone.start(preset="pixel7-x86_64", server=adb_server, base=tmp_path, home=tmp_path / "p")
    try:
        dev = AndroidDevice.open(info.serial, adb_server)
        assert dev.shell("getprop ro.product.cpu.abi").stdout == "x86_64\n"
        dev.adb.push(Path("/usr/bin/busybox"), "/data/local/tmp/busybox", mode=0o755)     # busybox-static
        assert dev.shell("/data/local/tmp/busybox echo native").stdout == "native\n"
        if shutil.which("aarch64-linux-gnu-gcc"):
            (tmp_path / "hello.c").write_text(HELLO_C)
            subprocess.run(["aarch64-linux-gnu-gcc", "-static", "-o", str(tmp_path / "h"), str(tmp_path / "hello.c")], check=True)
            dev.adb.push(tmp_path / "h", "/data/local/tmp/h", mode=0o755)
            r = dev.shell("/data/local/tmp/h", check=False)
            assert r.exit_code != 0 and r.stdout == ""
    finally:
        vphone.stop(info, adb_server, base=tmp_path)


def _df_kb(dev: AndroidDevice, path: str) -> tuple[int, int]:
    """(size, available) in KiB of the filesystem holding ``path``, from the phone's own ``df``."""
    cols = dev.shell(f"df -k {path}").stdout.strip().splitlines()[-1].split()
    return int(cols[1]), int(cols[3])


def _loops_of(image: Path) -> str:
    return subprocess.run(["losetup", "-j", str(image)], capture_output=True, text=True).stdout.strip()


def test_data_size_mb_is_a_partition_that_fills_and_survives_reboot_and_restart(adb_server: ServerAddress,
                                                                                 tmp_path: Path) -> None:
    """/data (and /sdcard on it) is one ext4 of 16 MiB: the phone's df says so, dd stops at ENOSPC, the
    files persist across a reboot and a vphone restart, the host's folder and mount table are untouched,
    and the loop device goes with the vphone; another size for the same home is refused."""
    with pytest.raises(ConfigError, match="data_size_mb: expected 0"):
        vphone.start(server=adb_server, base=tmp_path, home=tmp_path / "p", overrides={"data_size_mb": 3})
    home = tmp_path / "p"
    adb = [adb_binary(), "-P", str(adb_server.port)]
    info = vphone.start(server=adb_server, base=tmp_path, home=home, overrides={"data_size_mb": 16})
    image = home / "data.img"
    try:
        dev = AndroidDevice.open(info.serial, adb_server)
        size, free = _df_kb(dev, "/data/local/tmp")
        assert 12 * 1024 < size <= 16 * 1024 and 0 < free < size
        assert _df_kb(dev, "/sdcard")[0] == size                      # the sdcard is /data/media: same partition
        fill = dev.shell("echo kept > /data/local/tmp/kept && dd if=/dev/zero of=/data/local/tmp/fill bs=1024",
                         check=False)
        assert fill.exit_code != 0 and "No space left on device" in fill.stderr
        assert _df_kb(dev, "/data/local/tmp")[1] == 0
        more = dev.shell("printf '%04096d' 0 > /data/local/tmp/more", check=False)   # needs blocks of its own
        assert more.exit_code != 0 and "No space left on device" in more.stderr
        assert not (home / "data" / "local" / "tmp" / "kept").exists()  # the host's folder is not the partition
        assert str(image) not in Path("/proc/self/mountinfo").read_text() and _loops_of(image)
        subprocess.run(adb + ["-s", info.serial, "reboot"], capture_output=True, timeout=30)
        subprocess.run(adb + ["-s", info.serial, "wait-for-device"], timeout=60, check=True)
        assert dev.shell("getprop edgecl.vphone.boot; cat /data/local/tmp/kept").stdout == "2\nkept\n"
        assert _df_kb(dev, "/data/local/tmp")[1] == 0
    finally:
        vphone.stop(info, adb_server, base=tmp_path)
    deadline = time.monotonic() + 10
    while _loops_of(image) and time.monotonic() < deadline:       # autoclear once the namespace is gone
        time.sleep(0.1)
    assert _loops_of(image) == ""
    info = vphone.start(server=adb_server, base=tmp_path, home=home, overrides={"data_size_mb": 16})
    try:
        dev = AndroidDevice.open(info.serial, adb_server)
        assert dev.shell("cat /data/local/tmp/kept; rm /data/local/tmp/fill").stdout == "kept\n"
        assert _df_kb(dev, "/data/local/tmp")[1] > 12 * 1024
    finally:
        vphone.stop(info, adb_server, base=tmp_path)
    with pytest.raises(DeviceError, match=f"{image} is 16 MiB but data_size_mb is 32"):
        vphone.start(server=adb_server, base=tmp_path, home=home, overrides={"data_size_mb": 32})
