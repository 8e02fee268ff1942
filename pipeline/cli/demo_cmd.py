"""``edgecl demo``: the whole tool on a fresh machine, in a few minutes, on a virtual phone.

Starts a private adb server and a virtual phone (never touching a user's adb server or phones),
then runs ``experiments/demo.toml``: Split Digits, a small SparCL MLP exported for the phone's
runtime, trained ON the phone task by task with Miro choosing each task's replay configuration
from energy measured on the phone (the default preset has ODPM rails); prints where the energy came
from, program load apart from training and Miro's profiling share against the 10 % goal; writes
the HTML report and prints its path. The phone and the
adb server are stopped by PID afterwards, also on error or Ctrl-C. Everything measured is
labelled simulated: the phone is virtual.
"""
from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import typer
from rich.console import Console

from pipeline.errors import ConfigError

DEMO_SPEC = Path(__file__).resolve().parents[2] / "experiments" / "demo.toml"
PROFILING_GOAL = 0.10        # the goal: Miro's profiling at most 10 % of the run's energy


def energy_lines(summary: dict[str, Any], miro: dict[str, Any] | None) -> list[str]:
    """What the demo measured, as it was measured: the counter, how precise, program load apart from
    training, and the profiling share (miro.json's) against the goal."""
    sim = " (simulated)" if summary.get("simulated") else ""
    tasks = summary.get("tasks", [])
    records = [t.get("energy") or {} for t in tasks]
    periods: dict[str, list[float]] = {}
    for r in records:
        if r.get("source"):
            periods.setdefault(r["source"], []).extend([r["resolution_s"]] if r.get("resolution_s") else [])
    sources = [f"{k} (every ~{sum(v) / len(v):.2g} s)" if v else k for k, v in sorted(periods.items())]
    precise = sum(bool(r.get("precise")) for r in records)
    lines = [f"energy: {', '.join(sources) or 'no counter'}; {precise} of {len(tasks)} task sessions precise"
             + ("" if precise == len(tasks) else " (the rest shorter than a few counter periods: marked ~)")]
    if summary.get("energy_j") is not None:
        lines.append(f"program load: {summary.get('loading_j') or 0.0:.2f} J{sim}, training: {summary.get('training_j') or 0.0:.2f} J, "
                     f"all task sessions: {summary['energy_j']:.2f} J")
    share = ((miro or {}).get("overhead") or {}).get("energy_share")
    if share is not None:
        verdict = "met" if share <= PROFILING_GOAL else "NOT met"
        lines.append(f"profiling share: {share:.1%} of the run's energy{sim} (goal <= {PROFILING_GOAL:.0%}: {verdict})")
    return lines


def demo(
    out: Path = typer.Option(None, "--out", help="results folder (default results/demo-<time>)"),
    spec: Path = typer.Option(DEMO_SPEC, "--spec", help="experiment spec to run instead of the bundled demo"),
    preset: str = typer.Option("pixel7", help="virtual phone preset"),
) -> None:
    """Start a virtual phone, train a small SparCL model on it with Miro, write the HTML report."""
    from android_harness.vphone.presets import PRESETS
    from android_harness.vphone.scoped import scoped_vphone
    from pipeline.cli.run_cmds import print_report
    from pipeline.cli.tune_cmd import load_miro_json, overhead_line
    from pipeline.config import load_spec
    from pipeline.device_run import warm_host_cache
    from pipeline.miro.run import run_with_miro

    if not Path(spec).is_file():
        raise ConfigError(f"{spec}: the demo spec is missing (the demo runs from a checkout of edgecl)")
    if preset not in PRESETS:
        raise ConfigError(f"--preset {preset!r}: not a virtual phone preset (one of {', '.join(sorted(PRESETS))})")
    console = Console()
    resolved = load_spec(spec)
    console.print(f"[bold]edgecl demo[/]: {resolved.name} — {resolved.data.kind}, {resolved.data.tasks} tasks, "
                  f"{resolved.model.kind} (SparCL {'on' if resolved.sparcl.enabled else 'off'}), "
                  f"{resolved.export.runtime}, Miro {resolved.miro.search}/{resolved.miro.scorer} "
                  f"on a virtual {preset} [dim](simulated)[/]")
    with ThreadPoolExecutor(1) as pool:
        # the phone boots while the host writes the shards, exports and builds the runner the phone needs
        warm = pool.submit(warm_host_cache, resolved, PRESETS[preset].abi)
        with scoped_vphone(preset, console) as device:
            with console.status("exporting and building the device runner ..."):
                warm.result()
            results_dir = run_with_miro(spec, out, device=device)
        miro = load_miro_json(results_dir)
        console.print(overhead_line(miro))
        for line in energy_lines(json.loads((results_dir / "summary.json").read_text()), miro):
            console.print(line, highlight=False)
    print_report(results_dir)


def register(app: typer.Typer) -> None:
    app.command("demo")(demo)
