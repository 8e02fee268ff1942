"""Device commands: ``edgecl devices``, ``push``, ``shell`` and ``edgecl vphone start|stop|status``."""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import List, Optional

import typer
from rich.console import Console
from rich.table import Table

from pipeline.cli import pool_opts
from pipeline.cli.options import serial_option

vphone_app = typer.Typer(help="Virtual phones (simulated devices on loopback adb).", no_args_is_help=True)
_out = Console()


def devices(adb_server: Optional[List[str]] = pool_opts.server_option(),
            connect: Optional[List[str]] = pool_opts.connect_option()) -> None:
    """List devices the adb server(s) know, offline and unauthorized ones included; --connect first
    `adb connect`s phones on TCP (Wi-Fi debugging, a device farm's HOST:PORT)."""
    from android_harness.discovery import discover
    from android_harness.pool import connect_all

    servers = pool_opts.servers_for(adb_server)
    for addr in connect_all(servers[0], connect or []):
        _out.print(f"connected {addr} via {servers[0]}", highlight=False)
    table = Table("serial", "state", "model", "product", "adb server")
    for server in servers:
        for e in discover(server):
            table.add_row(e.serial, e.state, e.model, e.product, str(server))
    _out.print(table)


def push(manifest: Path = typer.Argument(..., exists=True, dir_okay=False, help="export manifest.json"),
         serial: Optional[str] = serial_option(),
         name: Optional[str] = typer.Option(None, help="folder under <storage>/models (default: the manifest's folder name)")) -> None:
    """Deploy an export: push changed files, verify sha256 on the device, rename into place."""
    from android_harness.deploy import deploy

    dev = pool_opts.open_one(serial)
    r = deploy(dev, manifest, name=name, show_progress=True)
    label = " (simulated device)" if r.simulated else ""
    _out.print(f"{dev.serial}{label}: {r.remote_dir}: pushed {len(r.pushed)}, skipped {len(r.skipped)}, "
               f"redone {len(r.redone)}, {r.bytes_moved / 1e6:.1f} MB in {r.seconds:.2f} s")


def shell(command: List[str] = typer.Argument(None, help="command and arguments (quoted for the device shell)"),
          serial: Optional[str] = serial_option(),
          timeout: float = typer.Option(600.0, help="seconds")) -> None:
    """Run one command on the device; prints its stdout/stderr and exits with its exit code."""

    dev = pool_opts.open_one(serial)
    cmd = command[0] if command and len(command) == 1 else (command or ["sh", "-c", "true"])
    res = dev.shell(cmd, timeout=timeout, check=False)
    sys.stdout.write(res.stdout)
    sys.stderr.write(res.stderr)
    raise typer.Exit(res.exit_code)


@vphone_app.command("start")
def vphone_start(preset: str = typer.Option("pixel7", help="phone preset: pixel7, galaxy_s21, mi_a1 (stock: no Python), their -termux variants (with Python), pixel7-x86_64"),
                 port: int = typer.Option(0, help="loopback port (0: pick a free one)"),
                 home: Optional[Path] = typer.Option(None, help="folder for the phone's filesystem"),
                 gauge_period: Optional[float] = typer.Option(None, help="fuel gauge refresh in seconds"),
                 adb_server: Optional[str] = typer.Option(None, "--adb-server", help="connect it to this adb server "
                                                          "(e.g. 127.0.0.1:5037); default: edgecl's private vphone server")) -> None:
    """Start a virtual phone in the background, `adb connect` it and print its serial. It joins edgecl's
    private adb server (never the default tcp:5037 unless --adb-server says so)."""
    from android_harness.adb_server import ServerAddress
    from android_harness.private_server import ensure_server
    from android_harness.vphone import start

    server = ServerAddress.parse(adb_server) if adb_server else ensure_server()
    overrides = {"gauge_period_s": gauge_period} if gauge_period else {}
    info = start(preset=preset, port=port, home=home, overrides=overrides, server=server)
    print(info.serial)
    if not adb_server:
        Console(stderr=True).print(f"adb server {server} (edgecl's, for vphones); other adb tools: "
                                   f"ADB_SERVER_SOCKET=tcp:{server}", highlight=False)


@vphone_app.command("stop")
def vphone_stop(which: Optional[str] = typer.Argument(None, help="serial or port; omit with --all"),
                all_: bool = typer.Option(False, "--all", help="stop every vphone"),
                adb_server: Optional[str] = typer.Option(None, "--adb-server", help="the adb server it was started on, "
                                                         "if not edgecl's vphone server"),
                keep: bool = typer.Option(False, "--keep", help="keep the phone's home folder (its files, "
                                          "sessions and logs) instead of removing it")) -> None:
    """Stop a virtual phone given by serial or port (its process is ended by PID, and it is disconnected from
    adb); its home folder is removed unless --keep.
    The last one also stops edgecl's vphone adb server."""
    from android_harness.adb_server import ServerAddress
    from android_harness.private_server import running_server, stop_server
    from android_harness.vphone import find, status, stop
    from android_harness.vphone.manager import remove_home

    if not which and not all_:
        raise typer.BadParameter("give a serial/port or --all")
    own = running_server()
    server = ServerAddress.parse(adb_server) if adb_server else (own[1] if own else None)
    for info in status() if all_ else [find(which or "")]:
        if server is None:
            stop(info, disconnect_adb=False)
        else:
            stop(info, server)
        gone = not keep and remove_home(info)
        print(f"stopped {info.serial} (pid {info.pid})" + (f"; removed {info.home}" if gone else f"; kept {info.home}"))
    if own is not None and not any(i.alive() for i in status()) and stop_server():
        print(f"stopped edgecl's vphone adb server {own[1]} (pid {own[0]})")


@vphone_app.command("status")
def vphone_status(as_json: bool = typer.Option(False, "--json")) -> None:
    """List virtual phones started by this user."""
    from android_harness.vphone import status

    infos = status()
    if as_json:
        print(json.dumps([dict(vars(i), alive=i.alive()) for i in infos], indent=1))
        return
    from android_harness.private_server import running_server

    own = running_server()
    table = Table("serial", "pid", "preset", "alive", "home", title="virtual phones (simulated)",
                  caption=f"edgecl's vphone adb server: {own[1]} (pid {own[0]})" if own else "edgecl's vphone adb server: not running")
    for i in infos:
        table.add_row(i.serial, str(i.pid), i.preset, "yes" if i.alive() else "no", i.home)
    _out.print(table)


def register(app: typer.Typer) -> None:
    app.command("devices")(devices)
    app.command("push")(push)
    app.command("shell")(shell)
    app.add_typer(vphone_app, name="vphone")
