"""A virtual phone for the length of one command: a private adb server on a free port plus a vphone
behind it, both stopped by PID afterwards (also on error or Ctrl-C), so a user's own adb server
and phones are never touched; a server that dies meanwhile is started again on its port with the
phone reconnected. ``edgecl run --vphone`` and ``edgecl demo`` use it."""
from __future__ import annotations

import contextlib
from typing import Iterator

from rich.console import Console

from android_harness.adb import Adb
from android_harness.android_device import AndroidDevice
from android_harness.private_server import OwnedServer, reviver_for
from android_harness.vphone.manager import remove_home, start, stop
from android_harness.vphone.presets import DEFAULT_PRESET
from android_harness.device.errors import EdgeclError


def _stop_runner(device: AndroidDevice) -> None:
    """The persistent device runner outlives the phone's shells (setsid): stop it before the home goes."""
    from android_harness.session import SessionDriver

    try:
        SessionDriver(device).stop_idle_server()
    except EdgeclError:
        pass    # the phone is already gone: nothing of ours runs in it


@contextlib.contextmanager
def scoped_vphone(preset: str = DEFAULT_PRESET, console: Console | None = None) -> Iterator[AndroidDevice]:
    """Start a private adb server and a virtual phone; yield the phone as an ``AndroidDevice``."""
    console = console or Console(quiet=True)
    owned = OwnedServer()
    server = owned.address
    info, device = None, None
    try:
        with console.status("starting the virtual phone ..."):
            info = start(preset=preset, server=server)
        console.print(f"virtual phone {info.serial} up (pid {info.pid}, adb server on port {server.port}) [dim](simulated)[/]")
        serial = info.serial
        device = AndroidDevice(Adb(serial, server, revive=reviver_for(server, serial)))
        yield device
    finally:
        if info is not None:
            if device is not None:
                _stop_runner(device)
            stop(info, server)
            remove_home(info)
        owned.stop()
