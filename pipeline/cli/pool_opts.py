"""The device-pool options shared by ``run``, ``tune``, ``sweep`` and ``devices``: which adb servers
(``--adb-server``, else ``ADB_SERVER_SOCKET``/the default one, plus edgecl's vphone server when it
runs), phones to ``adb connect`` first (``--connect``, a farm's HOST:PORT), and which phones
(``--serial`` repeated, ``--all``, else the spec's ``[device] serials``/``serial``, ``ANDROID_SERIAL``
or the only phone)."""
from __future__ import annotations

import os
from typing import TYPE_CHECKING, List, Optional

import typer

if TYPE_CHECKING:
    from android_harness.adb_server import ServerAddress
    from android_harness.pool import PoolMember


def serial_option() -> Optional[List[str]]:
    return typer.Option(None, "--serial", "-s", help="a phone (SERIAL or SERIAL@HOST:PORT); repeat for a pool "
                                                     "(default: the spec's device.serials or device.serial, ANDROID_SERIAL or the only phone)")


def all_option() -> bool:
    return typer.Option(False, "--all", help="every ready phone on the adb server(s)")


def server_option() -> Optional[List[str]]:
    return typer.Option(None, "--adb-server", help="adb server HOST:PORT, e.g. a lab machine's (repeatable; "
                                                   "default: ADB_SERVER_SOCKET or 127.0.0.1:5037, plus edgecl's vphone server)")


def connect_option() -> Optional[List[str]]:
    return typer.Option(None, "--connect", help="`adb connect` HOST:PORT first (a phone on Wi-Fi debugging, or a farm "
                                                "such as DeviceFarmer/STF); repeatable; the phones join the pool")


def servers_for(adb_servers: Optional[List[str]]) -> "list[ServerAddress]":
    """Explicit servers as given; else the user's server (from the environment) and, when it runs (or ran
    and died), edgecl's private vphone server -- then the user's server only if it is already up, so a machine
    with only virtual phones never gets a server started on tcp:5037."""
    from android_harness.adb_server import ServerAddress
    from android_harness.private_server import revive_server

    if adb_servers:
        return list(dict.fromkeys(ServerAddress.parse(s) for s in adb_servers))
    env = ServerAddress.from_env()
    vphones = revive_server()          # one that died comes back on its port, its vphones reconnected
    if vphones is None:
        return [env]
    return [vphones] + ([env] if env.is_up() and env != vphones else [])


def pool_members(serials: Optional[List[str]], all_devices: bool, adb_servers: Optional[List[str]],
                 connect: Optional[List[str]], spec_serials: list[str] | None = None,
                 spec_serial: str = "") -> "list[PoolMember]":
    """The pool a command runs on (every named phone checked now, before anything runs)."""
    from android_harness.pool import connect_all, resolve_pool

    servers = servers_for(adb_servers)
    connected = connect_all(servers[0], connect or [])
    selectors = list(serials or []) or ([] if all_devices else list(spec_serials or []))
    if connected and not all_devices:
        selectors += [f"{c}@{servers[0]}" for c in connected if c not in selectors]
    default = spec_serial or os.environ.get("ANDROID_SERIAL") or None
    return resolve_pool(servers, selectors, all_devices, default)


def open_one(serial: Optional[str]):
    """The one phone a single-device command means (``--serial``, else ANDROID_SERIAL or the only phone),
    looked up on the same servers as a pool, edgecl's vphone server included."""
    return pool_members([serial] if serial else None, False, None, None)[0].open()
