"""``edgecl demo``: the whole tool on a fresh machine, in a few minutes, on a virtual phone.

Starts a private adb server and a virtual phone (never touching a user's adb server or phones),
then runs ``experiments/demo.toml``: Split Digits, a small SparCL MLP exported for the phone's
runtime, trained ON the phone task by task with Miro choosing each task's replay configuration
from energy measured on the phone; writes the HTML report and prints its path. The phone and the
adb server are stopped by PID afterwards, also on error or Ctrl-C. Everything measured is
labelled simulated: the phone is virtual.
"""
from __future__ import annotations

import socket
from pathlib import Path

import typer
from rich.console import Console

from pipeline.errors import ConfigError

DEMO_SPEC = Path(__file__).resolve().parents[2] / "experiments" / "demo.toml"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def demo(
    out: Path = typer.Option(None, "--out", help="results folder (default results/demo-<time>)"),
    spec: Path = typer.Option(DEMO_SPEC, "--spec", help="experiment spec to run instead of the bundled demo"),
    preset: str = typer.Option("pixel7", help="virtual phone preset"),
) -> None:
    """Start a virtual phone, train a small SparCL model on it with Miro, write the HTML report."""
    from android_harness.adb import Adb, ServerAddress, start_private_server
    from android_harness.android_device import AndroidDevice
    from android_harness import vphone
    from pipeline.cli.tune_cmd import load_miro_json, overhead_line
    from pipeline.config import load_spec
    from pipeline.miro.run import run_with_miro
    from pipeline.report import write_report

    if not Path(spec).is_file():
        raise ConfigError(f"{spec}: the demo spec is missing (the demo runs from a checkout of edgecl)")
    console = Console()
    resolved = load_spec(spec)
    console.print(f"[bold]edgecl demo[/]: {resolved.name} — {resolved.data.kind}, {resolved.data.tasks} tasks, "
                  f"{resolved.model.kind} (SparCL {'on' if resolved.sparcl.enabled else 'off'}), "
                  f"{resolved.export.runtime}, Miro {resolved.miro.search}/{resolved.miro.scorer} "
                  f"on a virtual {preset} [dim](simulated)[/]")
    port = _free_port()
    server_proc = start_private_server(port)
    server = ServerAddress("127.0.0.1", port)
    info = None
    try:
        with console.status("starting the virtual phone ..."):
            info = vphone.start(preset=preset, server=server)
        console.print(f"virtual phone {info.serial} up (pid {info.pid}, adb server on port {port})")
        device = AndroidDevice(Adb(info.serial, server))
        results_dir = run_with_miro(spec, out, device=device, console=console)
        with console.status("writing the report ..."):
            files = write_report(results_dir)
        console.print(overhead_line(load_miro_json(results_dir)))
    finally:
        if info is not None:
            vphone.stop(info, server)
        server_proc.kill()
        server_proc.wait(timeout=10)
    console.print(f"[bold green]report:[/] {files.html}")


def register(app: typer.Typer) -> None:
    app.command("demo")(demo)
