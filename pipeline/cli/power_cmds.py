"""``edgecl trace`` (a standalone power trace) and ``edgecl report RESULTS_DIR``."""
from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Optional

import typer
from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn

from android_harness.device.fileio import write_text_atomic
from pipeline.cli import pool_opts

_out = Console()


def _sleep_with_progress(label: str):
    def sleep(seconds: float) -> None:
        with Progress(TextColumn(label), BarColumn(), TimeRemainingColumn(), console=_out, transient=True) as bar:
            task = bar.add_task("", total=seconds)
            end = time.monotonic() + seconds
            while (left := end - time.monotonic()) > 0:
                time.sleep(min(0.2, left))
                bar.update(task, completed=seconds - max(end - time.monotonic(), 0.0))
    return sleep


def trace(serial: Optional[str] = typer.Option(None, "--serial", "-s", help="device serial (default: ANDROID_SERIAL or the only device)"),
          seconds: float = typer.Option(..., "--seconds", "-n", help="how long to sample"),
          rate: float = typer.Option(10.0, "--rate", help="samples per second (device side)"),
          out: Optional[Path] = typer.Option(None, "--out", help="folder for power.csv and summary.json "
                                             "(default results/trace-<serial>-<time>)"),
          unplug: bool = typer.Option(True, "--unplug/--no-unplug", help="`dumpsys battery unplug` during the trace "
                                      "(always reset afterwards)"),
          allow_charging: bool = typer.Option(False, "--allow-charging", help="report net battery energy even "
                                              "when the phone was charging"),
          shell_sampler: bool = typer.Option(False, "--shell-sampler", help="use the sh-only sampler even if the "
                                             "device has Python")) -> None:
    """Sample the battery counters on the device for N seconds, then print energy and average power."""
    from pipeline.energy.standalone import record_trace

    dev = pool_opts.open_one(serial)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    out = out or Path("results") / f"trace-{dev.serial.replace(':', '_')}-{stamp}"
    out.mkdir(parents=True, exist_ok=True)
    rec = record_trace(dev, seconds, out, rate, name=f"trace-{stamp}", unplug=unplug,
                       use_shell=True if shell_sampler else None,
                       sleep=_sleep_with_progress(f"sampling {dev.serial} at {rate:g} Hz"))
    tr = rec.trace
    summary = {"serial": dev.serial, "command": f"edgecl trace --serial {dev.serial} --seconds {seconds:g} --rate {rate:g}",
               **tr.summary(allow_charging=allow_charging), "rails_w": rec.rails_w}
    b = rec.battery_before
    if b is not None:
        summary["battery_before"] = {"level": b.level, "status": b.status_name, "plugged": b.plugged,
                                     "temperature_c": b.temperature_c, "voltage_v": b.voltage_v}
    write_text_atomic(out / "summary.json", json.dumps(summary, indent=1))
    sim = " (simulated)" if tr.simulated else ""
    _out.print(f"{dev.serial}{sim}: {len(tr)} samples in {tr.duration_s:.1f} s "
               f"({tr.achieved_rate_hz:.2f} Hz of {rate:g} asked); units {tr.convention.get('current_unit')}, "
               f"positive when {tr.convention.get('current_positive_when')}")
    if summary["energy_j"] is not None:
        _out.print(f"energy {summary['energy_j']:.3f} J{sim}, average power {summary['mean_power_w']:.3f} W{sim}")
    else:
        _out.print(f"[bold red]energy not reported:[/] {summary['energy_refused']}", highlight=False)
    cc = summary["cross_check"]
    _out.print(f"charge_counter cross-check: {cc['verdict']}" + (f" — {cc['note']}" if cc["note"] else ""))
    if b is not None:
        _out.print(f"battery before: {b.level}% {b.status_name}, {'on a charger' if b.plugged else 'no charger'}, "
                   f"{b.temperature_c:.1f} °C (compare runs only from similar charge and temperature)")
    if rec.rails_w:
        top = sorted(rec.rails_w.items(), key=lambda kv: -kv[1])[:6]
        _out.print("ODPM rails: " + ", ".join(f"{k} {v:.3f} W" for k, v in top))
    for w in tr.warnings:
        _out.print(f"[yellow]warning:[/] {w}", highlight=False)
    from pipeline.report.trace_json import dump_trace_json, standalone_trace_events

    trace_json = dump_trace_json(standalone_trace_events(tr, f"edgecl trace {dev.serial}"), out / "trace.json")
    _out.print(f"wrote {rec.local_csv}, {out / 'summary.json'} and {trace_json} (open in https://ui.perfetto.dev)")


def report(results_dir: Path = typer.Argument(..., help="a results/<name>-<time>/ folder"),
           allow_charging: bool = typer.Option(False, "--allow-charging", help="include energy of intervals with "
                                               "charging samples (net battery energy); without it, the run's "
                                               "own power.allow_charging")) -> None:
    """Write report/index.html (figures), CSV tables and trace.json (open in ui.perfetto.dev)."""
    from pipeline.report import write_report

    files = write_report(results_dir, allow_charging=allow_charging or None)
    missing = [k for k, v in files.figures.items() if v is None]
    _out.print(f"report: {files.html}" + (" (simulated)" if files.simulated else ""))
    _out.print(f"trace:  {files.trace_json}  (open in https://ui.perfetto.dev)" if files.trace_json else "trace:  not written (the report says why)")
    _out.print(f"tables: {', '.join(files.tables)}")
    if missing:
        _out.print(f"[yellow]no data for:[/] {', '.join(missing)}")


def register(app: typer.Typer) -> None:
    app.command("trace")(trace)
    app.command("report")(report)
