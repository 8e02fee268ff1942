"""Start, stop and list virtual phones as background processes (``edgecl vphone ...``).

Each vphone is one ``python -m android_harness.vphone`` process; its state file
``<edgecl_home>/vphones/<port>.json`` records pid, port, serial and home so ``stop`` can end it by
PID (after checking the PID still is that vphone) and ``status`` can list them.
"""
from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path

from android_harness.adb_server import ServerAddress, connect, disconnect, ensure_host_key
from android_harness.cache_dir import edgecl_home
from android_harness.device.fileio import write_text_atomic
from android_harness.vphone.auth import parse_public_key
from android_harness.vphone.presets import DEFAULT_PRESET, get_preset
from android_harness.errors import DeviceError

START_TIMEOUT_S = 20.0
STOP_TIMEOUT_S = 5.0


@dataclass(frozen=True)
class VphoneInfo:
    pid: int
    port: int
    serial: str
    home: str
    preset: str
    simulated: bool = True

    def alive(self) -> bool:
        try:
            with open(f"/proc/{self.pid}/cmdline", "rb") as f:
                return b"android_harness.vphone" in f.read()
        except OSError:
            return False


def state_dir(base: Path | None = None) -> Path:
    return (base or edgecl_home()) / "vphones"


def free_port() -> int:
    """A TCP port on loopback that is free right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start(preset: str = DEFAULT_PRESET, port: int = 0, home: Path | None = None,
          server: ServerAddress | None = None, connect_adb: bool = True, base: Path | None = None,
          overrides: dict | None = None, seed: int = 0, auth: bool = True,
          host_key: Path | None | bool = True) -> VphoneInfo:
    """Launch a vphone in the background and (by default) ``adb connect`` it. Returns once it serves.

    ``auth``: RSA authentication (the default, as on a phone). ``host_key``: an adbkey.pub to
    authorise in the phone's ``/data/misc/adb/adb_keys`` when it has none yet; True (default) = this
    host's adb key (created with ``adb keygen`` if missing), False = none."""
    get_preset(preset).with_overrides(**(overrides or {}))         # fail here, not in the child
    port = port or free_port()
    sdir = state_dir(base)
    sdir.mkdir(parents=True, exist_ok=True)
    if (sdir / f"{port}.json").exists() and _read(sdir / f"{port}.json").alive():
        raise DeviceError(f"127.0.0.1:{port}", "a vphone already runs on this port")
    home = (home or sdir / f"home-{port}").resolve()
    (home / "run").mkdir(parents=True, exist_ok=True)
    ready = home / "run" / "daemon.json"
    ready.unlink(missing_ok=True)
    argv = [sys.executable, "-m", "android_harness.vphone", "--home", str(home), "--port", str(port),
            "--preset", preset, "--overrides", json.dumps(overrides or {}), "--seed", str(seed)]
    if not auth:
        argv.append("--no-auth")
    pub = ensure_host_key() if host_key is True else (host_key or None)
    if pub:
        parse_public_key(pub.read_text())
        argv += ["--host-key", str(pub)]
    with open(home / "run" / "daemon.log", "ab") as log:
        proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=log, stderr=log, start_new_session=True)
    deadline = time.monotonic() + START_TIMEOUT_S
    while not (ready.exists() and json.loads(ready.read_text() or "{}").get("pid") == proc.pid):
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            tail = (home / "run" / "daemon.log").read_text()[-400:]
            raise DeviceError(f"127.0.0.1:{port}", f"vphone did not start: {tail.strip()}")
        time.sleep(0.05)
    info = VphoneInfo(proc.pid, port, f"127.0.0.1:{port}", str(home), preset)
    write_text_atomic(sdir / f"{port}.json", json.dumps(asdict(info)))
    if connect_adb:
        try:
            connect(server or ServerAddress.from_env(), info.serial)
        except DeviceError:
            stop(info, server, disconnect_adb=False, base=base)
            raise
    return info


def _read(path: Path) -> VphoneInfo:
    return VphoneInfo(**json.loads(path.read_text()))


def status(base: Path | None = None) -> list[VphoneInfo]:
    sdir = state_dir(base)
    return [_read(p) for p in sorted(sdir.glob("[0-9]*.json"))] if sdir.exists() else []


def find(which: str, base: Path | None = None) -> VphoneInfo:
    """A running vphone by serial or port."""
    for info in status(base):
        if which in (info.serial, str(info.port)):
            return info
    raise DeviceError(which, "no vphone with this serial or port (see `edgecl vphone status`)")


def stop(info: VphoneInfo, server: ServerAddress | None = None, disconnect_adb: bool = True,
         base: Path | None = None) -> None:
    """Disconnect it from adb and end its process by PID; never raises for an already dead one."""
    if disconnect_adb:
        disconnect(server or ServerAddress.from_env(), info.serial)
    if info.alive():
        os.kill(info.pid, signal.SIGTERM)
        deadline = time.monotonic() + STOP_TIMEOUT_S
        while info.alive() and time.monotonic() < deadline:
            time.sleep(0.05)
        if info.alive():
            os.kill(info.pid, signal.SIGKILL)
    with_state = state_dir(base) / f"{info.port}.json"
    with_state.unlink(missing_ok=True)


def remove_home(info: VphoneInfo) -> bool:
    """Delete a stopped vphone's home folder (35-40 MB of files, sessions, logs); True if removed. Only a
    folder that is a vphone home (its props.json says edgecl.vphone = 1) is touched, never a live phone's."""
    home = Path(info.home)
    try:
        props = json.loads((home / "props.json").read_text())
    except (OSError, ValueError):
        return False
    if info.alive() or props.get("edgecl.vphone") != "1":
        return False
    shutil.rmtree(home, ignore_errors=True)
    return not home.exists()
