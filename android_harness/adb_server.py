"""The adb server edgecl talks through: where it listens, a client bound to it (never a server started
behind the user's back), starting a private one, the devices it knows, ``adb connect``/``disconnect``.
Per-device calls (shell, sync) are ``android_harness.adb``'s; these two modules alone use adbutils, and
its exceptions become ``DeviceError`` naming the server or device.
"""
from __future__ import annotations

import contextlib
import fcntl
import os
import socket
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import adbutils
from adbutils import errors as adb_errors
from adbutils._adb import AdbConnection

from android_harness.errors import DeviceError

SERVER_START_TIMEOUT_S = 15.0
TRANSPORT_ERRORS = (adb_errors.AdbError, ConnectionError, EOFError, OSError)   # a call that never reached the device
LOOPBACK = ("127.0.0.1", "localhost", "::1")
READY = "device"                # a DeviceEntry's state once the phone answers commands


@dataclass(frozen=True)
class ServerAddress:
    """Where the adb server listens: ``ADB_SERVER_SOCKET=tcp:host:port`` or
    ``ANDROID_ADB_SERVER_HOST``/``ANDROID_ADB_SERVER_PORT``, default 127.0.0.1:5037.

    ``autostart``: start a server here when none answers, as the adb CLI does for the user's own
    local server (``from_env``). A server named explicitly -- a lab's remote one, a private one --
    is never started behind the user's back (adbutils would run ``adb start-server`` on tcp:5037)."""

    host: str = "127.0.0.1"
    port: int = 5037
    autostart: bool = field(default=False, compare=False)

    @classmethod
    def from_env(cls, env: dict[str, str] | None = None) -> "ServerAddress":
        env = dict(os.environ) if env is None else env
        sock = env.get("ADB_SERVER_SOCKET", "")
        if sock:
            parts = sock.split(":")
            if parts[0] != "tcp" or not parts[-1].isdigit() or len(parts) not in (2, 3):
                raise DeviceError(None, f"ADB_SERVER_SOCKET={sock!r}: expected tcp:HOST:PORT or tcp:PORT")
            host = parts[1] if len(parts) == 3 else "127.0.0.1"
            return cls(host, int(parts[-1]), autostart=host in LOOPBACK)
        port = env.get("ANDROID_ADB_SERVER_PORT", "5037")
        if not port.isdigit():
            raise DeviceError(None, f"ANDROID_ADB_SERVER_PORT={port!r}: expected a port number")
        host = env.get("ANDROID_ADB_SERVER_HOST", "127.0.0.1")
        return cls(host, int(port), autostart=host in LOOPBACK)

    @classmethod
    def parse(cls, text: str) -> "ServerAddress":
        """``HOST:PORT``, ``tcp:HOST:PORT`` or ``tcp:PORT`` (as ``--adb-server`` takes it); never autostarted."""
        body = text[4:] if text.startswith("tcp:") else text
        host, sep, port = body.rpartition(":")
        if not port.isdigit() or not 0 < int(port) < 65536 or (sep and not host and not text.startswith("tcp:")):
            raise DeviceError(None, f"adb server {text!r}: expected HOST:PORT (e.g. 10.0.0.5:5037) or tcp:HOST:PORT")
        return cls(host.strip("[]") or "127.0.0.1", int(port))

    def __str__(self) -> str:
        return f"{self.host}:{self.port}"

    def client(self, revive: Callable[[], None] | None = None) -> adbutils.AdbClient:
        return _Client(self, revive)

    def is_up(self) -> bool:
        try:
            with socket.create_connection((self.host, self.port), timeout=1.0):
                return True
        except OSError:
            return False


class _DirectConnection(AdbConnection):
    """adbutils' connection without its fallback of ``adb start-server`` on the default port, and
    without the 10 ms sleep adbutils' ``close`` takes after SHUT_WR: every call here has read what
    it needs before closing, and that sleep was most of a short shell call's round trip."""

    def _safe_connect(self):
        return self._create_socket()

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.conn.close()


class _Client(adbutils.AdbClient):
    """adbutils' client whose connections go to ``server`` only; a server that is down is started
    (on ITS port) only when ``server.autostart`` says so, or brought back by ``revive`` (edgecl's own
    server for virtual phones). Either happens before a command is sent, so any command may go on."""

    def __init__(self, server: ServerAddress, revive: Callable[[], None] | None = None) -> None:
        super().__init__(host=server.host, port=server.port)
        self._server = server
        self._revive = revive
        self._version: int | None = None

    def server_version(self) -> int:
        """Asked once per client: adbutils asks before every transport (one more connection each)."""
        if self._version is None:
            self._version = int(super().server_version())
        return self._version

    def make_connection(self, timeout: float | None = None) -> AdbConnection:
        try:
            conn = _DirectConnection(self._server.host, self._server.port)
        except adb_errors.AdbError:
            if self._revive is not None:
                self._revive()
            elif self._server.autostart:
                ensure_host_key()
                subprocess.run([adb_binary(), "-L", f"tcp:{self._server.port}", "start-server"],
                               timeout=SERVER_START_TIMEOUT_S, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
            else:
                raise
            conn = _DirectConnection(self._server.host, self._server.port)
        if timeout:
            conn.conn.settimeout(timeout)
        return conn


@dataclass(frozen=True)
class DeviceEntry:
    """One line of ``adb devices -l``; ``state`` is device, offline, unauthorized, ..."""

    serial: str
    state: str
    model: str = ""
    product: str = ""
    transport_id: int | None = None


def adb_binary() -> str:
    """The adb CLI shipped inside adbutils (adb 36)."""
    return adbutils.adb_path()


def host_key_path() -> Path:
    """The adb host's private key: ``$ANDROID_USER_HOME/adbkey``, else ``~/.android/adbkey``."""
    base = os.environ.get("ANDROID_USER_HOME")
    return (Path(base) if base else Path.home() / ".android") / "adbkey"


def ensure_host_key() -> Path:
    """The host's ``adbkey.pub``, made first with ``adb keygen`` when there is no key yet; returns its path.

    Called before this module starts an adb server, and by whoever authorises the key on a phone: a
    server started without a key writes its own pair, and a keygen racing with it (or another
    keygen) can leave on disk a public key that is not the one the server signs with. One lock per
    key folder makes the check and the keygen one step."""
    key = host_key_path()
    pub = key.with_name(key.name + ".pub")
    key.parent.mkdir(parents=True, exist_ok=True, mode=0o750)
    with open(key.parent / ".edgecl-keygen.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not key.exists():
            subprocess.run([adb_binary(), "keygen", str(key)], check=True, capture_output=True, timeout=60)
    if not pub.exists():
        raise FileNotFoundError(f"{pub} missing next to {key}: run `adb keygen {key}` to recreate the pair")
    return pub


def start_private_server(port: int) -> subprocess.Popen:
    """An adb server on its own port, in the foreground so the caller owns its PID."""
    ensure_host_key()
    proc = subprocess.Popen([adb_binary(), "-L", f"tcp:{port}", "server", "nodaemon"],
                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True)
    addr = ServerAddress("127.0.0.1", port)
    deadline = time.monotonic() + SERVER_START_TIMEOUT_S
    while not addr.is_up():
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            raise DeviceError(None, f"adb server on port {port} did not start (exit {proc.poll()})")
        time.sleep(0.05)
    return proc


def list_devices(server: ServerAddress) -> list[DeviceEntry]:
    """All devices the server knows, offline and unauthorized ones included."""
    try:
        infos = server.client().list(extended=True)
    except TRANSPORT_ERRORS as e:
        raise DeviceError(None, f"adb server {server} unreachable: {e}") from e
    return [DeviceEntry(i.serial, i.state, i.tags.get("model", ""), i.tags.get("product", ""),
                        i.transport_id) for i in infos]


def connect(server: ServerAddress, addr: str, timeout: float = 10.0) -> None:
    """``adb connect addr`` (a vphone or a phone over TCP)."""
    try:
        out = server.client().connect(addr, timeout=timeout)
    except TRANSPORT_ERRORS as e:
        raise DeviceError(addr, f"adb connect failed: {e}") from e
    if "connected" not in out:
        raise DeviceError(addr, f"adb connect failed: {out.strip()}")


def disconnect(server: ServerAddress, addr: str) -> None:
    """Forget ``addr``; a no-op when no server runs (adbutils would start one)."""
    if not server.is_up():
        return
    try:
        server.client().disconnect(addr)
    except TRANSPORT_ERRORS:
        pass
