"""A device pool: the phones one command spreads its runs over, across one or more adb servers (the
user's own, a lab's server on another machine, edgecl's private server for virtual phones) and
phones reached with ``adb connect HOST:PORT`` (as a device farm such as DeviceFarmer/STF hands them
out). A phone is named ``SERIAL`` or, where two servers could both know it, ``SERIAL@HOST:PORT``.

``resolve_pool`` picks the members once, before anything runs, and names every phone it cannot use;
``pool_states`` then reads every member's state with one ``host:devices`` per server, so the
scheduler sees a phone go offline or come back.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Sequence

from android_harness.adb import Adb

from android_harness.adb_server import READY, DeviceEntry, ServerAddress, connect, list_devices
from android_harness.android_device import AndroidDevice
from android_harness.errors import DeviceError
from android_harness.private_server import reviver_for

ABSENT = "absent"              # the server does not list it (unplugged, or an adb connect that dropped)
UNREACHABLE = "unreachable"    # its adb server does not answer
_TCP_SERIAL = re.compile(r"^[A-Za-z0-9.\-]+:\d{1,5}$|^\[[0-9a-fA-F:]+\]:\d{1,5}$")


@dataclass(frozen=True)
class PoolMember:
    serial: str
    server: ServerAddress
    model: str = ""

    @property
    def key(self) -> str:
        """Unique across servers: ``SERIAL@HOST:PORT``."""
        return f"{self.serial}@{self.server}"

    @property
    def reconnectable(self) -> bool:
        """A phone on TCP (``adb connect``: Wi-Fi debugging, a farm, a vphone) that ``adb connect`` can bring back."""
        return bool(_TCP_SERIAL.match(self.serial))

    def open(self, profile_override: Path | None = None) -> AndroidDevice:
        return AndroidDevice(Adb(self.serial, self.server, revive=reviver_for(self.server, self.serial)), profile_override)


def parse_selector(text: str) -> tuple[str, ServerAddress | None]:
    """``SERIAL`` or ``SERIAL@HOST:PORT`` -> (serial, server or None)."""
    serial, sep, where = text.rpartition("@")
    if not sep:
        return text, None
    if not serial:
        raise DeviceError(None, f"device {text!r}: expected SERIAL or SERIAL@HOST:PORT")
    return serial, ServerAddress.parse(where)


def connect_all(server: ServerAddress, addrs: Iterable[str]) -> list[str]:
    """``adb connect`` each ``HOST:PORT`` through ``server``; returns the serials (= the addresses)."""
    done = []
    for addr in addrs:
        connect(server, addr)
        done.append(addr)
    return done


def _listing(servers: Sequence[ServerAddress]) -> list[tuple[ServerAddress, DeviceEntry]]:
    rows = []
    for server in servers:
        rows += [(server, e) for e in list_devices(server)]
    return rows


def _not_ready(serial: str, entry: DeviceEntry, server: ServerAddress) -> DeviceError:
    hint = " (accept the USB debugging prompt on the phone, or the farm's key)" if entry.state == "unauthorized" else ""
    return DeviceError(serial, f"device on {server} is {entry.state}{hint}")


def resolve_pool(servers: Sequence[ServerAddress], selectors: Sequence[str] = (), all_devices: bool = False,
                 default_serial: str | None = None) -> list[PoolMember]:
    """The members: the named phones (``selectors``), every ready phone (``all_devices``), or else the one
    phone ``default_serial``/the only ready one. Every named phone must be ready now; one named
    without a server must be known to exactly one of ``servers``."""
    if not servers:
        raise DeviceError(None, "no adb server to look for devices on")
    wanted = list(selectors) or ([default_serial] if default_serial else [])
    named = [parse_selector(text) for text in wanted]
    # a phone named with its server is looked up there only: the default servers are listed only when
    # some phone needs them, so `--serial S@HOST:PORT` never starts the user's server on tcp:5037
    needs_servers = all_devices or not named or any(server is None for _, server in named)
    rows = _listing(servers) if needs_servers else []
    if all_devices:
        members = [PoolMember(e.serial, s, e.model) for s, e in rows if e.state == READY]
        if not members:
            seen = ", ".join(f"{e.serial} ({e.state}) on {s}" for s, e in rows) or "none"
            raise DeviceError(None, f"--all: no device ready on {', '.join(map(str, servers))}; seen: {seen}")
        return members
    if not named:
        ready = [(s, e) for s, e in rows if e.state == READY]
        if len(ready) != 1:
            names = ", ".join(f"{e.serial}@{s}" for s, e in ready) or "none"
            raise DeviceError(None, f"{len(ready)} devices ready ({names}); pick with --serial (repeatable), "
                                    "--all, [device] serials or ANDROID_SERIAL")
        s, e = ready[0]
        return [PoolMember(e.serial, s, e.model)]
    members: list[PoolMember] = []
    for text, (serial, server) in zip(wanted, named):
        seen = rows if server is None else [(server, e) for e in list_devices(server)]
        hits = [(s, e) for s, e in seen if e.serial == serial]
        if not hits:
            known = ", ".join(f"{e.serial} ({e.state}) on {s}" for s, e in seen) or "none"
            raise DeviceError(serial, f"not attached to {server or ', '.join(map(str, servers))}; devices: {known}")
        if len(hits) > 1:
            raise DeviceError(serial, f"known to {len(hits)} adb servers ({', '.join(str(s) for s, _ in hits)}); "
                                      f"name it as {serial}@HOST:PORT")
        s, e = hits[0]
        if e.state != READY:
            raise _not_ready(serial, e, s)
        member = PoolMember(serial, s, e.model)
        if member.key in {m.key for m in members}:
            raise DeviceError(serial, f"named twice ({text!r})")
        members.append(member)
    return members


def pool_states(members: Sequence[PoolMember]) -> dict[str, str]:
    """Every member's adb state by key: device, offline, unauthorized, ..., ``absent`` or ``unreachable``."""
    states: dict[str, str] = {}
    for server in dict.fromkeys(m.server for m in members):
        try:
            listed = {e.serial: e.state for e in list_devices(server)}
        except DeviceError:
            listed = None
        for m in members:
            if m.server == server:
                states[m.key] = UNREACHABLE if listed is None else listed.get(m.serial, ABSENT)
    return states


def try_reconnect(member: PoolMember) -> bool:
    """``adb connect`` a TCP phone that dropped off its server, starting that server again first when it is
    one of edgecl's own and died; False when the phone is not back (yet)."""
    revive = reviver_for(member.server, member.serial)
    if revive is not None and not member.server.is_up():
        try:
            revive()
        except DeviceError:
            return False
    if not member.reconnectable:
        return False
    try:
        connect(member.server, member.serial, timeout=3.0)
        return True
    except DeviceError:
        return False
