"""``edgecl demo``: the whole tool on a fresh machine, in a few minutes, on a virtual phone.

Starts a private adb server and a virtual phone (never touching a user's adb server or phones),
then runs ``experiments/demo.toml``: Split Digits, a small SparCL MLP exported for the phone's
runtime, trained ON the phone task by task with Miro choosing each task's replay configuration
from energy measured on the phone; writes the HTML report and prints its path. The phone and the
adb server are stopped by PID afterwards, also on error or Ctrl-C. Everything measured is
labelled simulated: the phone is virtual.
"""
from __future__ import annotations

from pathlib import Path

import typer
from rich.console import Console

from pipeline.errors import ConfigError

DEMO_SPEC = Path(__file__).resolve().parents[2] / "experiments" / "demo.toml"


def demo(
    out: Path = typer.Option(None, "--out", help="results folder (default results/demo-<time>)"),
    spec: Path = typer.Option(DEMO_SPEC, "--spec", help="experiment spec to run instead of the bundled demo"),
    preset: str = typer.Option("pixel7", help="virtual phone preset"),
) -> None:
    """Start a virtual phone, train a small SparCL model on it with Miro, write the HTML report."""
    from android_harness.vphone.scoped import scoped_vphone
    from pipeline.cli.run_cmds import print_report
    from pipeline.cli.tune_cmd import load_miro_json, overhead_line
    from pipeline.config import load_spec
    from pipeline.miro.run import run_with_miro

    if not Path(spec).is_file():
        raise ConfigError(f"{spec}: the demo spec is missing (the demo runs from a checkout of edgecl)")
    console = Console()
    resolved = load_spec(spec)
    console.print(f"[bold]edgecl demo[/]: {resolved.name} — {resolved.data.kind}, {resolved.data.tasks} tasks, "
                  f"{resolved.model.kind} (SparCL {'on' if resolved.sparcl.enabled else 'off'}), "
                  f"{resolved.export.runtime}, Miro {resolved.miro.search}/{resolved.miro.scorer} "
                  f"on a virtual {preset} [dim](simulated)[/]")
    with scoped_vphone(preset, console) as device:
        results_dir = run_with_miro(spec, out, device=device, console=console)
        console.print(overhead_line(load_miro_json(results_dir)))
    print_report(results_dir)


def register(app: typer.Typer) -> None:
    app.command("demo")(demo)
