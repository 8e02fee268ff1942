"""Shell over adb: exit codes, stderr, quoting, batching, timeouts (real adb server + device)."""
from __future__ import annotations

import time

import pytest

from android_harness.android_device import AndroidDevice
from android_harness.discovery import discover
from pipeline.errors import AdbError, AdbTimeout


def test_exit_code_and_separate_stderr(device: AndroidDevice) -> None:
    r = device.shell("echo out; echo err >&2; exit 3", check=False)
    assert (r.stdout, r.stderr, r.exit_code) == ("out\n", "err\n", 3)
    with pytest.raises(AdbError) as info:
        device.shell("echo boom >&2; exit 42")
    assert info.value.rc == 42 and "boom" in str(info.value) and device.serial in str(info.value)


def test_signal_exit_code(device: AndroidDevice) -> None:
    r = device.shell("kill -9 $$", check=False)
    assert r.exit_code == 128 + 9


@pytest.mark.parametrize("name", ["a b; touch pwned", "$(touch pwned)", "`touch pwned`", "x'y\"z",
                                  "new\nline", "*", "-rf", "&& touch pwned", "| touch pwned"])
def test_list_commands_cannot_inject(device: AndroidDevice, remote_dir: str, name: str) -> None:
    path = f"{remote_dir}/{name}"
    device.shell(["touch", "--", path] if name.startswith("-") else ["touch", path])
    listing = device.shell(["ls", "-a", remote_dir]).stdout.split("\n")
    assert "pwned" not in listing
    assert device.stat(path).exists
    assert device.shell(["cat", path] if not name.startswith("-") else ["cat", "--", path]).exit_code == 0


def test_batch_keeps_each_result(device: AndroidDevice) -> None:
    results = device.batch(["echo one", "echo two >&2; exit 3", ["printf", "%s", "a b"], "exit 7",
                            "printf 'no newline'"], check=False)
    assert [(r.stdout, r.stderr, r.exit_code) for r in results] == [
        ("one\n", "", 0), ("", "two\n", 3), ("a b", "", 0), ("", "", 7), ("no newline", "", 0)]
    with pytest.raises(AdbError) as info:
        device.batch(["true", "echo bad >&2; exit 5"])
    assert info.value.rc == 5


def test_timeout_raises_and_kills_the_command(device: AndroidDevice, remote_dir: str) -> None:
    pidfile = f"{remote_dir}/pid"
    t0 = time.monotonic()
    with pytest.raises(AdbTimeout):
        device.shell(f"echo $$ > {pidfile}; exec sleep 60", timeout=1.0)
    assert time.monotonic() - t0 < 10
    pid = device.shell(["cat", pidfile]).stdout.strip()
    for _ in range(50):
        if device.shell(["kill", "-0", pid], check=False).exit_code != 0:
            break
        time.sleep(0.1)
    assert device.shell(["kill", "-0", pid], check=False).exit_code != 0, "host close did not kill the child"


def test_discovery_lists_the_device(device: AndroidDevice) -> None:
    entries = {e.serial: e for e in discover(device.adb.server)}
    assert entries[device.serial].state == "device"


def test_a_slow_reader_still_gets_all_of_a_shell_s_output(device: AndroidDevice) -> None:
    """The host reads nothing for 2 s while the command writes 8 MB and exits: adb's flow control
    holds the phone's writes back (no OKAY), and every byte still arrives -- a shell's output is
    never cut because the host was slow (a loaded host read a session poll's output as empty)."""
    size = 8 * 1024 * 1024
    conn = device.adb._dev.shell(f"head -c {size} /dev/zero | tr '\\0' x; echo; echo end", stream=True)
    try:
        time.sleep(2.0)
        chunks = []
        while chunk := conn.read(1 << 16):
            chunks.append(chunk)
    finally:
        conn.close()
    out = b"".join(chunks)
    assert len(out) == size + len(b"\nend\n") and out.endswith(b"x\nend\n")
