"""edgecl's own adb servers for virtual phones, on their own loopback ports, so the user's adb server on
tcp:5037 and their real phones are never touched unless asked (``--adb-server``):

- the one ``edgecl vphone start`` records for later commands, stopped (by PID) with the last of those
  phones; when it dies, edgecl starts it again on the same port and reconnects the vphones
  (``revive_server``);
- ``OwnedServer``: one a single command starts for its own phones (``run --vphone``, ``demo``, a sweep's
  fleet, the device tests), killed when the command ends, started again on its port if it dies meanwhile.

State: ``<edgecl_home>/vphones/adb-server.json`` = ``{"pid", "port"}``; a PID is trusted only while
``/proc/<pid>/cmdline`` still is an adb server on that port.
"""
from __future__ import annotations

import fcntl
import json
import os
import signal
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Callable, Iterable

from android_harness.adb_server import LOOPBACK, READY, ServerAddress, connect, list_devices, start_private_server
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


def _record(state: Path) -> tuple[int, int] | None:
    """(pid, port) of a server record ``{"pid", "port"}``; None when there is none."""
    try:
        record = json.loads(state.read_text())
        return int(record["pid"]), int(record["port"])
    except (OSError, ValueError, KeyError, TypeError):
        return None


def _recorded_port(base: Path | None) -> int | None:
    record = _record(_state_path(base))
    return None if record is None else record[1]


def _restart_recorded(state: Path, lock: Path, port: int) -> bool:
    """The server recorded in ``state`` started again on ``port`` when it died, under ``lock`` (two edgecl
    processes noticing at once start one). True when one of ours runs there now; False when the record
    is gone (the server was stopped) or another process took the port meanwhile (nothing is started)."""
    with open(lock, "w") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        record = _record(state)
        if record is None:
            return False
        if _is_our_server(record[0], port):
            return True
        if ServerAddress("127.0.0.1", port).is_up():
            return False
        proc = start_private_server(port)
        write_text_atomic(state, json.dumps({"pid": proc.pid, "port": port}))
        return True


def revive_server(base: Path | None = None) -> ServerAddress | None:
    """edgecl's vphone adb server: the running one, or -- when it died -- a new one on ITS port (so every
    address recorded for it stays true) with the running vphones connected again; None when edgecl has
    none, or its port was taken by another process meanwhile (then nothing is started)."""
    from android_harness.vphone.manager import status

    found = running_server(base)
    if found is not None:
        return found[1]
    port = _recorded_port(base)
    path = _state_path(base)
    if port is None or not _restart_recorded(path, path.parent / ".adb-server.lock", port):
        return None
    server = ServerAddress("127.0.0.1", port)
    reconnect(server, [info.serial for info in status(base) if info.alive()])
    return server


def reconnect(server: ServerAddress, serials: Iterable[str]) -> None:
    """``adb connect`` each vphone to a server started again; one not back yet is left to the caller's next call."""
    for serial in serials:
        try:
            connect(server, serial)
        except DeviceError:
            pass


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
            if any(d.serial == serial and d.state == READY for d in list_devices(server)):
                return True
        except DeviceError:
            pass
        time.sleep(0.1)
    return False


def reviver_for(server: ServerAddress, serial: str | None = None,
                base: Path | None = None) -> Callable[[], None] | None:
    """For a phone reached through one of edgecl's own adb servers (the recorded vphone server, or a
    command's ``OwnedServer``): what starts that server again when it died and waits (up to
    ``ONLINE_TIMEOUT_S``) for ``serial`` to be back on it; None for any other server, which edgecl never
    starts."""
    if server.host not in LOOPBACK:
        return None
    if _owned_state(server.port).is_file():
        return lambda: revive_owned(server, [serial] if serial is not None else [])
    if _recorded_port(base) != server.port:
        return None

    def revive() -> None:
        revived = revive_server(base)
        if revived is not None and serial is not None:
            wait_online(revived, serial)
    return revive


def _owned_pid(port: int) -> int | None:
    record = _record(_owned_state(port))
    return None if record is None else record[0]


def _owned_state(port: int) -> Path:
    """Where the ``OwnedServer`` on ``port`` records its pid: a per-user runtime folder (such a server lives as
    long as its command), the same for every process of the command."""
    root = Path(tempfile.gettempdir()) / f"edgecl-{os.getuid()}" / "adb-servers"
    root.mkdir(mode=0o700, parents=True, exist_ok=True)
    return root / f"{port}.json"


def revive_owned(server: ServerAddress, serials: Iterable[str]) -> None:
    """The ``OwnedServer`` recorded on ``server``'s port started again when it died (one process does, under a
    lock), then its ``serials`` connected to it (a phone another process's revival did not name too) and
    waited for. Nothing is started once the server was stopped (its record gone), nor on a port another
    process took meanwhile."""
    path, serials = _owned_state(server.port), list(serials)
    if not _restart_recorded(path, path.with_suffix(".lock"), server.port):
        return
    reconnect(server, serials)
    for serial in serials:
        wait_online(server, serial)


class OwnedServer:
    """A private adb server on a free loopback port that one command owns: recorded for that command's
    processes (``revive_owned`` starts it again on its port when it died), killed by ``stop``."""

    def __init__(self) -> None:
        from android_harness.vphone.manager import free_port

        port = free_port()
        self.address = ServerAddress("127.0.0.1", port)
        self._proc: subprocess.Popen = start_private_server(port)
        write_text_atomic(_owned_state(port), json.dumps({"pid": self._proc.pid, "port": port}))

    @property
    def pid(self) -> int | None:
        """The server's pid now (a revived server has a new one)."""
        return _owned_pid(self.address.port)

    def stop(self) -> None:
        """Kill the server (the one it started, and a revival if there was one) and drop its record."""
        port, path = self.address.port, _owned_state(self.address.port)
        with open(path.with_suffix(".lock"), "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            pid = _owned_pid(port)
            path.unlink(missing_ok=True)
        if self._proc.poll() is None:
            self._proc.kill()
        self._proc.wait(timeout=STOP_TIMEOUT_S)
        if pid is not None and pid != self._proc.pid and _is_our_server(pid, port):   # a revival: not our child
            os.kill(pid, signal.SIGKILL)
            deadline = time.monotonic() + STOP_TIMEOUT_S
            while _alive(pid) and time.monotonic() < deadline:
                time.sleep(0.02)
        path.with_suffix(".lock").unlink(missing_ok=True)      # a reviver still holding it finds no record
