"""A stock user build's tools on the phone, through the adb 36 CLI: logcat over logd's buffers
(clear, dump, formats, buffers, filters, follow), setprop/getprop through the property service,
settings, am/service/input, bugreportz's zip, ``adb root`` and a PTY for ``adb shell -t``."""
from __future__ import annotations

import fcntl
import io
import os
import pty
import re
import select
import signal
import struct
import subprocess
import termios
import time
import zipfile
from pathlib import Path

import pytest

from android_harness.adb_server import adb_binary
from android_harness.android_device import AndroidDevice
from android_harness.vphone.system_services import MAX_CLIENTS

pytestmark = pytest.mark.skipif(bool(os.environ.get("ANDROID_SERIAL")), reason="vphone-only test")
THREADTIME = re.compile(r"^\d\d-\d\d \d\d:\d\d:\d\d\.\d{3} +(\d+) +(\d+) ([VDIWEF]) (.+?) *: (.*)$")


def _adb(device: AndroidDevice, *args: str) -> subprocess.CompletedProcess:
    """The CLI's output decoded as is (a terminal's \\r\\n stays)."""
    r = subprocess.run([adb_binary(), "-P", str(device.adb.server.port), "-s", device.serial, *args],
                       capture_output=True, timeout=120)
    return subprocess.CompletedProcess(r.args, r.returncode, r.stdout.decode(), r.stderr.decode())


def test_logcat_clear_dump_formats_buffers_filters(device: AndroidDevice) -> None:
    assert _adb(device, "logcat", "-c").returncode == 0
    assert _adb(device, "logcat", "-b", "all", "-c").returncode == 0
    assert _adb(device, "logcat", "-d").stdout == ""
    device.shell("log -t EdgeclA one; log -p e -t EdgeclB 'two\nlines'; log -b system -p w -t EdgeclSys sys; "
                 "echo piped | log -p d -t EdgeclPipe; echo $$ > /data/local/tmp/logpid")
    out = _adb(device, "logcat", "-d").stdout.splitlines()
    assert out[0] == "--------- beginning of main"
    rows = [THREADTIME.match(line) for line in out[1:] if not line.startswith("---------")]
    assert all(rows), out
    assert [(m.group(3), m.group(4), m.group(5)) for m in rows] == [
        ("I", "EdgeclA", "one"), ("E", "EdgeclB", "two"), ("E", "EdgeclB", "lines"),
        ("W", "EdgeclSys", "sys"), ("D", "EdgeclPipe", "piped")]
    assert "--------- beginning of system" in out
    assert rows[1].group(1) == rows[2].group(1) != rows[0].group(1)         # one entry, one writer pid
    main_only = _adb(device, "logcat", "-d", "-b", "main", "-v", "brief").stdout
    assert main_only == ("--------- beginning of main\nI/EdgeclA (%5s): one\nE/EdgeclB (%5s): two\n"
                         "E/EdgeclB (%5s): lines\nD/EdgeclPipe(%5s): piped\n"
                         % (rows[0].group(1), rows[1].group(1), rows[1].group(1), rows[4].group(1)))
    assert _adb(device, "logcat", "-d", "-v", "tag", "-s", "EdgeclB:E").stdout.splitlines()[1:] == [
        "E/EdgeclB : two", "E/EdgeclB : lines"]
    assert _adb(device, "logcat", "-d", "-v", "raw", "*:W").stdout == (
        "--------- beginning of main\ntwo\nlines\n--------- beginning of system\nsys\n")
    assert _adb(device, "logcat", "-d", "-t", "1", "-v", "raw").stdout == "--------- beginning of main\npiped\n"
    year = _adb(device, "logcat", "-d", "-v", "time", "-v", "year", "-v", "usec", "EdgeclA:I", "*:S").stdout
    assert re.fullmatch(r"--------- beginning of main\n\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{6} I/EdgeclA \( *\d+\): one\n", year)
    bad = _adb(device, "logcat", "-d", "-b", "nosuch")
    assert bad.returncode == 1 and bad.stderr == "logcat: unknown buffer 'nosuch' listed for -b\n"
    assert _adb(device, "logcat", "-v", "fancy", "-d").stderr == 'logcat: Invalid parameter "fancy" to -v.\n'
    sizes = _adb(device, "logcat", "-g").stdout
    assert re.match(r"main: ring buffer is 256 KiB \(\d+ B consumed", sizes) and "system:" in sizes
    pid = device.shell("log -t EdgeclPid mine & echo $!; wait").stdout.strip()     # the log process's own pid
    assert _adb(device, "logcat", "-d", "-v", "raw", f"--pid={pid}").stdout == "--------- beginning of main\nmine\n"
    assert _adb(device, "logcat", "-b", "main", "-c").returncode == 0
    assert _adb(device, "logcat", "-d", "-v", "raw").stdout == "--------- beginning of system\nsys\n"


def test_logcat_follows_new_entries_until_the_reader_hangs_up(device: AndroidDevice) -> None:
    """``-T 1`` prints the last entry, then each new one as it is written; closing the adb stream
    ends the phone-side reader (no logcat is left on the phone)."""
    device.shell("log -t EdgeclFollow before")
    follow = subprocess.Popen([adb_binary(), "-P", str(device.adb.server.port), "-s", device.serial, "logcat",
                               "-v", "raw", "-T", "1", "EdgeclFollow:I", "*:S"], stdout=subprocess.PIPE, text=True)
    try:
        assert follow.stdout.readline() == "--------- beginning of main\n"
        assert follow.stdout.readline() == "before\n"
        device.shell("log -t EdgeclFollow after; log -t Other hidden; log -t EdgeclFollow again")
        assert follow.stdout.readline() == "after\n"
        assert follow.stdout.readline() == "again\n"
    finally:
        follow.kill()
        follow.wait()
    left = device.shell("for i in 1 2 3 4 5 6 7 8 9 10; do ps -A -o ARGS | grep -q '^toybox nc -U /dev/socket/logdr' "
                        "|| { echo gone; exit 0; }; sleep 1; done; ps -A -o ARGS", check=False)
    assert left.stdout == "gone\n", left.stdout


def test_killed_followers_free_their_slots(device: AndroidDevice) -> None:
    """More ``adb logcat`` followers than logd serves at a time, each killed once it follows: every
    hang-up frees its slot, so logging and reading still work afterwards."""
    device.shell("log -t EdgeclSlots start")
    argv = [adb_binary(), "-P", str(device.adb.server.port), "-s", device.serial, "logcat", "-v", "raw", "-T", "1"]
    for _ in range(MAX_CLIENTS + 6):
        follow = subprocess.Popen(argv, stdout=subprocess.PIPE, text=True)
        assert follow.stdout.readline().startswith("---------")
        follow.kill()
        follow.wait()
    device.shell("log -t EdgeclSlots end")
    assert _adb(device, "logcat", "-d", "-v", "raw", "EdgeclSlots:I", "*:S").stdout.splitlines()[-1] == "end"


def test_setprop_getprop_round_trip_and_user_build_limits(device: AndroidDevice) -> None:
    assert device.shell("setprop debug.edgecl.x 'a b'; getprop debug.edgecl.x").stdout == "a b\n"
    assert "[debug.edgecl.x]: [a b]" in device.shell("getprop").stdout
    r = device.shell("setprop ro.debuggable 1", check=False)
    assert (r.exit_code, r.stderr) == (1, "setprop: failed to set property 'ro.debuggable' to '1'\n")
    r = device.shell("setprop persist.sys.locale fr", check=False)          # system's, not the shell's
    assert r.exit_code == 1 and device.shell("getprop persist.sys.locale none").stdout == "none\n"
    assert device.shell("setprop a", check=False).exit_code == 1
    assert device.shell("getprop ro.debuggable").stdout == "0\n"
    r = device.shell("setprop debug.edgecl.long " + "x" * 92, check=False)
    assert r.exit_code == 1 and "too long" in r.stderr


def test_the_daemons_bound_what_a_phone_process_sends(device: AndroidDevice) -> None:
    """An oversized request is refused; a client that never finishes its request holds no one up."""
    # nc may still be writing the rest when the daemon answers and hangs up: SIGPIPE (141) is its exit then
    big = device.shell("head -c 70000 /dev/zero | toybox nc -U /dev/socket/property_service", check=False)
    assert big.stdout == "1 request over 65536 bytes\n" and big.exit_code in (0, 141), big
    device.shell("for i in 1 2 3; do setsid sh -c 'sleep 30 | toybox nc -U /dev/socket/logdw' "
                 "</dev/null >/dev/null 2>&1 & done")
    assert device.shell("setprop debug.edgecl.y 1; getprop debug.edgecl.y; log -t EdgeclBusy ok").stdout == "1\n"
    assert "EdgeclBusy: ok" in _adb(device, "logcat", "-d").stdout


def test_settings_am_service_input(device: AndroidDevice) -> None:
    assert device.shell("settings put global edgecl_k 7; settings get global edgecl_k").stdout == "7\n"
    assert "edgecl_k=7" in device.shell("settings list global").stdout.splitlines()
    assert device.shell("settings delete global edgecl_k; settings get global edgecl_k").stdout == "Deleted 1 rows\nnull\n"
    assert device.shell("settings get bogus x", check=False).exit_code == 1
    assert device.shell("am get-current-user; cmd activity get-current-user").stdout == "0\n0\n"
    assert device.shell("cmd settings get global adb_enabled").stdout == "1\n"
    r = device.shell("am start -n com.example/.Main", check=False)
    assert r.exit_code == 1 and r.stdout == "Starting: Intent { cmp=com.example/.Main }\n"
    assert r.stderr == "Error type 3\nError: Activity class {com.example/com.example.Main} does not exist.\n"
    assert device.shell("am force-stop com.example").exit_code == 0
    b = device.shell("am broadcast -a edgecl.PING").stdout
    assert b == "Broadcasting: Intent { act=edgecl.PING flg=0x400000 }\nBroadcast completed: result=0\n"
    assert device.shell("am instrument -w com.x/androidx.test.runner.AndroidJUnitRunner", check=False).exit_code == 1
    assert device.shell("service check battery").stdout == "Service battery: found\n"
    assert device.shell("service check nosuch").stdout == "Service nosuch: not found\n"
    assert device.shell("service list").stdout.startswith("Found ")
    assert device.shell("input tap 10 20").exit_code == 0
    assert device.shell("input swipe 1 2 x 4", check=False).exit_code == 1
    assert "ActivityManager: Force stopping com.example" in _adb(device, "logcat", "-d").stdout


def test_bugreportz_writes_a_zip_adb_bugreport_pulls(device: AndroidDevice, tmp_path: Path) -> None:
    r = device.shell("bugreportz -v")
    assert (r.stdout, r.stderr) == ("", "1.2\n")
    device.shell("log -t EdgeclReport marker")
    out = device.shell("bugreportz").stdout
    assert out.startswith("OK:/data/user_de/0/com.android.shell/files/bugreports/bugreport-") and out.endswith(".zip\n")
    path = out[3:].strip()
    assert _adb(device, "pull", path, str(tmp_path / "br.zip")).returncode == 0
    device.shell(["rm", path])
    with zipfile.ZipFile(tmp_path / "br.zip") as z:
        main = z.read("main_entry.txt").decode()
        assert main == Path(path).name.replace(".zip", ".txt") and z.read("version.txt") == b"2.0"
        text = z.read(main).decode()
    for section in ("------ SYSTEM PROPERTIES (getprop) ------", "------ DUMPSYS battery (dumpsys battery) ------",
                    "[ro.build.type]: [user]", "EdgeclReport: marker", "Current Battery Service state:"):
        assert section in text
    progress = device.shell("bugreportz -p").stdout.splitlines()
    assert progress[0].startswith("BEGIN:") and progress[-1] == "OK:" + progress[0][6:]
    assert progress[1:-1] == [f"PROGRESS:{i}/12" for i in range(1, 13)]
    device.shell(["rm", progress[0][6:]])
    host = _adb(device, "bugreport", str(tmp_path / "host.zip"))                 # the CLI: bugreportz -p + pull
    assert host.returncode == 0, host.stderr
    with zipfile.ZipFile(io.BytesIO((tmp_path / "host.zip").read_bytes())) as z:
        assert z.testzip() is None and "main_entry.txt" in z.namelist()


def test_adb_root_answers_as_a_user_build_and_shell_t_gets_a_pty(device: AndroidDevice) -> None:
    r = _adb(device, "root")
    assert (r.returncode, r.stdout) == (0, "adbd cannot run as root in production builds\n")
    assert _adb(device, "unroot").stdout == "adbd not running as root\n"
    assert _adb(device, "shell", "-tt", "tty").stdout == "/dev/pts/0\r\n"
    assert _adb(device, "shell", "-T", "tty").stdout == "not a tty\n"
    r = _adb(device, "shell", "-tt", "echo out; echo err >&2; exit 5")
    assert (r.stdout, r.returncode) == ("out\r\nerr\r\n", 5)                # one terminal, the exit code framed


def _read_until(fd: int, token: bytes, deadline: float) -> bytes:
    out = b""
    while token not in out and time.monotonic() < deadline:
        if select.select([fd], [], [], max(deadline - time.monotonic(), 0))[0]:
            try:
                chunk = os.read(fd, 4096)
            except OSError:                        # EIO: adb exited
                break
            if not chunk:
                break
            out += chunk
    return out


def test_interactive_shell_gets_the_terminal_size_and_its_changes(device: AndroidDevice) -> None:
    """``adb shell`` from a terminal: the phone's PTY takes the host terminal's size, then each
    resize (adb's window-size frames), as mksh's $COLUMNS/$LINES show; ``exit 4`` is the exit code."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 45, 123, 0, 0))
    adb = subprocess.Popen([adb_binary(), "-P", str(device.adb.server.port), "-s", device.serial, "shell"],
                           stdin=slave, stdout=slave, stderr=slave, start_new_session=True,
                           preexec_fn=lambda: fcntl.ioctl(0, termios.TIOCSCTTY, 0))
    os.close(slave)
    deadline = time.monotonic() + 60
    try:
        # adb sends the first window-size frame beside the shell's start, on a real phone too: the
        # prompt may come first and be redrawn at the new width, so each read waits for its token
        assert b"$ " in _read_until(master, b"$ ", deadline)
        os.write(master, b'echo "size=$COLUMNS,$LINES"\n')
        assert b"size=123,45\r\n$ " in _read_until(master, b"size=123,45\r\n$ ", deadline)
        fcntl.ioctl(master, termios.TIOCSWINSZ, struct.pack("HHHH", 50, 100, 0, 0))
        adb.send_signal(signal.SIGWINCH)
        assert b"\x08" in _read_until(master, b"\x08", deadline)   # mksh redraws its line at the new width
        os.write(master, b'echo "size=$COLUMNS,$LINES"\n')
        assert b"size=100,50\r\n" in _read_until(master, b"size=100,50", deadline)
        os.write(master, b"exit 4\n")
        assert adb.wait(timeout=60) == 4
    finally:
        adb.kill()
        adb.wait()
        os.close(master)
