"""Which devices are there, and which one a command means (``--serial``, then ``ANDROID_SERIAL``,
then the only device attached)."""
from __future__ import annotations

import os

from android_harness.adb_server import READY, DeviceEntry, ServerAddress, list_devices
from android_harness.errors import DeviceError


def discover(server: ServerAddress | None = None) -> list[DeviceEntry]:
    """Every device the adb server knows, with its state (offline/unauthorized included)."""
    return list_devices(server or ServerAddress.from_env())


def resolve_serial(serial: str | None = None, server: ServerAddress | None = None) -> str:
    """The serial to use; a device that is not ready is named with its state."""
    entries = discover(server)
    wanted = serial or os.environ.get("ANDROID_SERIAL") or None
    if wanted:
        match = next((e for e in entries if e.serial == wanted), None)
        if match is None:
            known = ", ".join(f"{e.serial} ({e.state})" for e in entries) or "none"
            raise DeviceError(wanted, f"not attached; devices: {known}")
        if match.state != READY:
            hint = " (accept the USB debugging prompt on the phone)" if match.state == "unauthorized" else ""
            raise DeviceError(wanted, f"device is {match.state}{hint}")
        return wanted
    ready = [e for e in entries if e.state == READY]
    if len(ready) == 1:
        return ready[0].serial
    if not ready:
        others = ", ".join(f"{e.serial} ({e.state})" for e in entries)
        raise DeviceError(None, "no device ready" + (f"; seen: {others}" if others else "")
                          + "; attach a phone or run `edgecl vphone start`")
    raise DeviceError(None, f"{len(ready)} devices ready ({', '.join(e.serial for e in ready)}); "
                            "pick one with --serial or ANDROID_SERIAL")
