"""The adb host key is made once, before any adb server this tool starts, so the key a phone is
given (``adbkey.pub``) is the one the server signs with. A fresh machine's first ``edgecl demo``
failed "failed to authenticate": the server, started without a key, wrote its own pair while the
vphone's ``adb keygen`` wrote another."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from android_harness import adb_server
from android_harness.adb_server import adb_binary, start_private_server
from android_harness.vphone.manager import free_port


def _pair_matches(home: Path) -> bool:
    """``adbkey.pub`` is the public half of ``adbkey`` (``adb pubkey`` derives it from the private key)."""
    derived = subprocess.run([adb_binary(), "pubkey", str(home / "adbkey")], capture_output=True, text=True,
                             check=True, timeout=60).stdout.split()[0]
    return derived == (home / "adbkey.pub").read_text().split()[0]


def test_concurrent_first_uses_make_one_consistent_pair(tmp_path: Path) -> None:
    home = tmp_path / "android"
    code = "from android_harness.adb_server import ensure_host_key; print(ensure_host_key().read_text().split()[0])"
    procs = [subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True,
                              env={"ANDROID_USER_HOME": str(home), "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)})
             for _ in range(6)]
    outs = [p.communicate(timeout=120)[0].strip() for p in procs]
    assert all(p.returncode == 0 for p in procs)
    assert len(set(outs)) == 1 and outs[0]
    assert _pair_matches(home)


def test_a_server_started_here_finds_the_key_already_made(tmp_path: Path, monkeypatch) -> None:
    home = tmp_path / "android"
    monkeypatch.setenv("ANDROID_USER_HOME", str(home))
    real_popen, seen = subprocess.Popen, []

    def popen(argv, **kwargs):
        if "server" in argv:
            seen.append((home / "adbkey").exists() and _pair_matches(home))
        return real_popen(argv, **kwargs)

    monkeypatch.setattr(adb_server.subprocess, "Popen", popen)
    proc = start_private_server(free_port())
    try:
        assert seen == [True]
    finally:
        proc.kill()
        proc.wait(timeout=30)
