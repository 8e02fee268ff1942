"""The vphone's other adb services, driven by the real adb CLI and server: tcp forwards,
exec-out (binary clean), the v1 shell, sync listing, and a host CLSE killing a v1 shell."""
from __future__ import annotations

import hashlib
import io
import os
import socket
import subprocess

import pytest

from android_harness.adb_server import adb_binary
from android_harness.android_device import AndroidDevice

pytestmark = pytest.mark.skipif(bool(os.environ.get("ANDROID_SERIAL")), reason="vphone-only test")


def _adb(device: AndroidDevice, *args: str, input_: bytes | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([adb_binary(), "-P", str(device.adb.server.port), "-s", device.serial, *args],
                          capture_output=True, timeout=60, input=input_)


def test_tcp_forward_reaches_a_service_on_the_phone(device: AndroidDevice) -> None:
    """``adb forward`` connects to the PHONE's loopback (its own network namespace), where a device-side
    server listens; the host's loopback is not the phone's."""
    port = 5000 + os.getpid() % 1000
    device.shell(f"setsid nc -s 127.0.0.1 -p {port} -l cat >/dev/null 2>&1 </dev/null & sleep 0.3")
    local = device.adb.forward(port)
    try:
        with socket.create_connection(("127.0.0.1", local), timeout=10) as c:
            payload = b"hello over adb " * 5000
            c.sendall(payload)                   # adb has no half-close: read back, then close
            got = b""
            while len(got) < len(payload) and (chunk := c.recv(65536)):
                got += chunk
        assert got == payload
    finally:
        device.adb.forward_remove(local)
    host_only = socket.create_server(("127.0.0.1", 0))          # listening on the host, not the phone
    try:
        r = device.shell(f"echo x | nc -w 1 127.0.0.1 {host_only.getsockname()[1]}", check=False)
        assert r.exit_code != 0
    finally:
        host_only.close()


def test_exec_out_is_binary_clean(device: AndroidDevice, remote_dir: str) -> None:
    blob = bytes(range(256)) * 1000 + b"\r\n\x00\n"
    path = f"{remote_dir}/blob.bin"
    device.adb.push_files([(__import__("io").BytesIO(blob), path)])
    assert _adb(device, "exec-out", "cat", path).stdout == blob


def test_v1_shell_merges_streams_and_cli_v2_keeps_exit_code(device: AndroidDevice) -> None:
    v1 = _adb(device, "shell", "-x", "echo out; echo err >&2; exit 3")
    assert sorted(v1.stdout.split()) == [b"err", b"out"] and v1.returncode == 0
    v2 = _adb(device, "shell", "echo out; echo err >&2; exit 3")
    assert (v2.stdout, v2.stderr, v2.returncode) == (b"out\n", b"err\n", 3)
    assert _adb(device, "shell", "cat", input_=b"stdin reaches the device\n").stdout == b"stdin reaches the device\n"


def test_cli_ls_and_stat_v2(device: AndroidDevice, remote_dir: str) -> None:
    device.shell(["sh", "-c", 'mkdir -p "$1/sub" && printf abc > "$1/f"', "sh", remote_dir])
    listing = _adb(device, "ls", remote_dir).stdout.decode()
    names = {line.split()[-1] for line in listing.splitlines()}
    assert {"f", "sub", ".", ".."} <= names
    pulled = _adb(device, "pull", f"{remote_dir}/f", "/dev/stdout")
    assert pulled.returncode == 0


def test_sha256sum_many_files_in_toybox_format(device: AndroidDevice, remote_dir: str) -> None:
    """One call over many files (what deploy's verify does), odd names, errors per file, stdin."""
    files = {f"f{i}.bin": os.urandom(1000 * i) for i in range(12)} | {"sp ace": b"a", "-dash": b"d", "sub/x": b""}
    device.adb.push_files([(io.BytesIO(data), f"{remote_dir}/{name}") for name, data in files.items()])
    device.shell(["mkdir", f"{remote_dir}/adir"])
    names = list(files)
    r = device.shell(f"cd {remote_dir} && sha256sum -- " + " ".join(f"'{n}'" for n in names[:5] + ["nope"] + names[5:] + ["adir"]),
                     check=False)
    want = [f"{hashlib.sha256(files[n]).hexdigest()}  {n}" for n in names]
    assert (r.stdout.splitlines(), r.exit_code) == (want, 1), r
    assert r.stderr.splitlines() == ["sha256sum: nope: No such file or directory", "sha256sum: adir: Is a directory"]
    r = device.shell(f"cd {remote_dir} && echo hi | sha256sum - f1.bin")
    stdin_sha = hashlib.sha256(b"hi\n").hexdigest()
    assert r.stdout.splitlines() == [f"{stdin_sha}  -",
                                     f"{hashlib.sha256(files['f1.bin']).hexdigest()}  f1.bin"]
