"""edgecl's own adb server for virtual phones started by ``edgecl vphone start``: on its own loopback
port, started once and stopped (by PID) with the last of those phones, so the user's adb server on
tcp:5037 and their real phones are never touched unless asked (``--adb-server``). When it dies, edgecl
starts it again on the same port and reconnects the vphones (``revive_server``).

State: ``<edgecl_home>/vphones/adb-server.json`` = ``{"pid", "port"}``; a PID is trusted only while
``/proc/<pid>/cmdline`` still is an adb server on that port.
"""
from __future__ import annotations

import fcntl
import json
import os
import signal
import time
from pathlib import Path
from typing import Callable

from android_harness.adb import LOOPBACK, ServerAddress, connect, list_devices, start_private_server
from android_harness.cache_dir import edgecl_home
from android_harness.device.fileio import write_text_atomic
from android_harness.errors import DeviceError

STATE_FILE = "adb-server.json"
STOP_TIMEOUT_S = 5.0
ONLINE_TIMEOUT_S = 15.0     # a revived server's vphone is back within this


def _state_path(base: Path | None) -> Path:
    return (base or edgecl_home()) / "vphones" / STATE_FILE


def _is_our_server(pid: int, port: int) -> bool:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            argv = f.read().split(b"\0")
    except OSError:
        return False
    return any(a.endswith(b"adb") for a in argv[:1]) and f"tcp:{port}".encode() in argv and b"server" in argv


def running_server(base: Path | None = None) -> tuple[int, ServerAddress] | None:
    """(pid, address) of edgecl's vphone adb server when it runs."""
    path = _state_path(base)
    try:
        state = json.loads(path.read_text())
        pid, port = int(state["pid"]), int(state["port"])
    except (OSError, ValueError, KeyError, TypeError):
        return None
    if not _is_our_server(pid, port):
        return None
    return pid, ServerAddress("127.0.0.1", port)


def _recorded_port(base: Path | None) -> int | None:
    try:
        return int(json.loads(_state_path(base).read_text())["port"])
    except (OSError, ValueError, KeyError, TypeError):
        return None


def revive_server(base: Path | None = None) -> ServerAddress | None:
    """edgecl's vphone adb server: the running one, or -- when it died -- a new one on ITS port (so every
    address recorded for it stays true) with the running vphones connected again; None when edgecl has
    none, or its port was taken by another process meanwhile (then nothing is started)."""
    from android_harness.vphone.manager import status

    found = running_server(base)
    if found is not None:
        return found[1]
    port = _recorded_port(base)
    if port is None:
        return None
    path = _state_path(base)
    with open(path.parent / ".adb-server.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)              # two edgecl processes noticing at once start one server
        found = running_server(base)
        if found is not None:
            return found[1]
        server = ServerAddress("127.0.0.1", port)
        if server.is_up():
            return None
        proc = start_private_server(port)
        write_text_atomic(path, json.dumps({"pid": proc.pid, "port": port}))
    for info in status(base):
        if info.alive():
            try:
                connect(server, info.serial)
            except DeviceError:
                pass                                  # that phone is not back yet: the caller's next poll says so
    return server


def ensure_server(base: Path | None = None) -> ServerAddress:
    """The running vphone adb server, or a new one on a free loopback port (it outlives this process)."""
    from android_harness.vphone.manager import free_port

    revived = revive_server(base)
    if revived is not None:
        return revived
    port = free_port()
    proc = start_private_server(port)
    path = _state_path(base)
    path.parent.mkdir(parents=True, exist_ok=True)
    write_text_atomic(path, json.dumps({"pid": proc.pid, "port": port}))
    return ServerAddress("127.0.0.1", port)


def stop_server(base: Path | None = None) -> bool:
    """Stop edgecl's vphone adb server by PID; True if one was running."""
    found = running_server(base)
    _state_path(base).unlink(missing_ok=True)
    if found is None:
        return False
    pid, _ = found
    os.kill(pid, signal.SIGTERM)
    deadline = time.monotonic() + STOP_TIMEOUT_S
    while _alive(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    if _alive(pid):
        os.kill(pid, signal.SIGKILL)
    return True


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def wait_online(server: ServerAddress, serial: str, timeout_s: float = ONLINE_TIMEOUT_S) -> bool:
    """Wait until ``server`` lists ``serial`` as a ready device (a reconnected vphone); True if it did."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        try:
            if any(d.serial == serial and d.state == "device" for d in list_devices(server)):
                return True
        except DeviceError:
            pass
        time.sleep(0.1)
    return False


def reviver_for(server: ServerAddress, serial: str | None = None,
                base: Path | None = None) -> Callable[[], None] | None:
    """For a phone reached through edgecl's own vphone server: what starts that server again when it died
    and waits (up to ``ONLINE_TIMEOUT_S``) for ``serial`` to be back on it; None for any other server,
    which edgecl never starts."""
    if server.host not in LOOPBACK or _recorded_port(base) != server.port:
        return None

    def revive() -> None:
        revived = revive_server(base)
        if revived is not None and serial is not None:
            wait_online(revived, serial)
    return revive
