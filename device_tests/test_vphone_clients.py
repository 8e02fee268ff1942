"""Conformance with two independent adb clients: the adb 36 CLI through the real adb server, and the
pure-Python ``adb-shell`` library straight to the vphone's port with an RSA key (checksummed
version-0x01000000 packets, CLSE answered)."""
from __future__ import annotations

import hashlib
import os
import subprocess
from pathlib import Path

import pytest

from android_harness.adb_server import adb_binary, host_key_path
from android_harness.android_device import AndroidDevice
from android_harness.vphone.device_tools import NO_PACKAGE_MANAGER

pytestmark = pytest.mark.skipif(bool(os.environ.get("ANDROID_SERIAL")), reason="vphone-only test")


def _adb(device: AndroidDevice, *args: str, input_: bytes | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([adb_binary(), "-P", str(device.adb.server.port), "-s", device.serial, *args],
                          capture_output=True, timeout=120, input=input_)


def _tree(root: Path) -> dict[str, str]:
    """relative path -> sha256 of a file, or "-> target" of a symlink."""
    out = {}
    for p in sorted(root.rglob("*")):
        rel = str(p.relative_to(root))
        if p.is_symlink():
            out[rel] = "-> " + os.readlink(p)
        elif p.is_file():
            out[rel] = hashlib.sha256(p.read_bytes()).hexdigest()
    return out


@pytest.mark.parametrize("where", ["/data/local/tmp", "/sdcard"])
def test_cli_push_pull_nested_folders(device: AndroidDevice, tmp_path: Path, where: str) -> None:
    src = tmp_path / "src"
    for rel, size in {"a.bin": 300_000, "d1/b.txt": 10, "d1/d2/d3/c.bin": 70_000, "d1/d2/e e.txt": 0}.items():
        (src / rel).parent.mkdir(parents=True, exist_ok=True)
        (src / rel).write_bytes(os.urandom(size))
    os.symlink("d1/b.txt", src / "link")
    remote = f"{where}/edgecl-cli-{os.getpid()}/x"
    _adb(device, "shell", "rm", "-rf", remote.rsplit("/", 1)[0])
    push = _adb(device, "push", str(src), remote)
    assert push.returncode == 0, push.stderr
    listing = _adb(device, "shell", f"cd {remote} && find . -type f | sort && readlink link").stdout.decode()
    assert listing.split("\n") == ["./a.bin", "./d1/b.txt", "./d1/d2/d3/c.bin", "./d1/d2/e e.txt", "d1/b.txt", ""]
    back = tmp_path / "back"
    pull = _adb(device, "pull", remote, str(back))
    assert pull.returncode == 0, pull.stderr
    want = _tree(src)
    want["link"] = hashlib.sha256((src / "d1/b.txt").read_bytes()).hexdigest()   # adb pull follows links
    assert _tree(back) == want                         # the target did not exist: it becomes x
    _adb(device, "shell", "rm", "-rf", remote.rsplit("/", 1)[0])


def test_cli_exit_codes_streams_and_stdin(device: AndroidDevice) -> None:
    r = _adb(device, "shell", "echo out; echo err >&2; exit 42")
    assert (r.stdout, r.stderr, r.returncode) == (b"out\n", b"err\n", 42)
    r = _adb(device, "shell", "sh", "-c", "'wc -c; exit 3'", input_=b"x" * 100_000)
    assert (r.stdout.strip(), r.returncode) == (b"100000", 3)
    r = _adb(device, "exec-out", "echo out; echo err >&2")
    assert sorted(r.stdout.split()) == [b"err", b"out"]          # exec: merges stderr, as adbd does


def test_cli_install_and_unknown_services_fail_clearly(device: AndroidDevice, tmp_path: Path) -> None:
    apk = tmp_path / "app.apk"
    apk.write_bytes(os.urandom(50_000))
    r = _adb(device, "install", str(apk))
    assert r.returncode != 0 and b"no package manager" in r.stdout + r.stderr, r
    assert NO_PACKAGE_MANAGER.encode() in r.stdout + r.stderr
    r = _adb(device, "remount")
    assert b"FAIL" in r.stdout + r.stderr and b"'remount:' is not provided by the edgecl virtual phone" in r.stdout + r.stderr


def _adb_shell_device(device: AndroidDevice):
    from adb_shell.adb_device import AdbDeviceTcp
    from adb_shell.auth.sign_pythonrsa import PythonRSASigner

    key = host_key_path()
    signer = PythonRSASigner(key.with_name(key.name + ".pub").read_text(), key.read_text())
    d = AdbDeviceTcp("127.0.0.1", int(device.serial.rsplit(":", 1)[1]), default_transport_timeout_s=30.0)
    d.connect(rsa_keys=[signer], auth_timeout_s=10.0)
    return d


def test_adb_shell_library_shell_push_pull_list_stat(device: AndroidDevice, tmp_path: Path) -> None:
    d = _adb_shell_device(device)
    try:
        assert d.shell("id -u; echo $PWD") == "2000\n/\n"
        blob = tmp_path / "ten.bin"
        blob.write_bytes(os.urandom(10 * 1024 * 1024))
        want = hashlib.sha256(blob.read_bytes()).hexdigest()
        remote = f"/data/local/tmp/edgecl-adbshell-{os.getpid()}/ten.bin"
        d.shell(f"rm -rf {remote.rsplit('/', 1)[0]}")
        d.push(str(blob), remote)
        assert d.shell(f"sha256sum {remote}").split()[0] == want
        d.pull(remote, str(tmp_path / "back.bin"))
        assert hashlib.sha256((tmp_path / "back.bin").read_bytes()).hexdigest() == want
        names = {bytes(f.filename).decode(): f.size for f in d.list(remote.rsplit("/", 1)[0])}
        assert names == {".": names["."], "..": names[".."], "ten.bin": 10 * 1024 * 1024}
        mode, size, mtime = d.stat(remote)
        assert (mode & 0o170000, size) == (0o100000, 10 * 1024 * 1024) and mtime > 0
        d.shell(f"rm -rf {remote.rsplit('/', 1)[0]}")
    finally:
        d.close()


def test_cli_push_of_an_empty_folder_creates_nothing_as_on_a_phone(device: AndroidDevice, tmp_path: Path) -> None:
    """adb 36 sends no request for a folder (sync has no mkdir); it runs ``shell:mkdir`` over the
    folders only for a device without ``fixed_push_mkdir`` (Android 9). A phone since Android 10
    advertises that feature, so an empty folder, alone or inside a tree, is not created."""
    (tmp_path / "empty").mkdir()
    (tmp_path / "tree" / "hollow").mkdir(parents=True)
    (tmp_path / "tree" / "f.txt").write_text("x")
    base = f"/data/local/tmp/edgecl-cli-empty-{os.getpid()}"
    _adb(device, "shell", "rm", "-rf", base)
    assert "fixed_push_mkdir" in device.adb.features()
    r = _adb(device, "push", str(tmp_path / "empty"), f"{base}/empty")
    assert r.returncode == 0 and b"0 files pushed" in r.stdout + r.stderr, r
    r = _adb(device, "push", str(tmp_path / "tree"), f"{base}/tree")
    assert r.returncode == 0 and b"1 file pushed" in r.stdout + r.stderr, r
    listing = _adb(device, "shell", f"cd {base} && find . | sort").stdout.decode().split()
    assert listing == [".", "./tree", "./tree/f.txt"], listing
    _adb(device, "shell", "rm", "-rf", base)
