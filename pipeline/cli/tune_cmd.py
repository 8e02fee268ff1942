"""``edgecl tune SPEC.toml``: run an experiment with Miro on and print each task's decision.

The same path as ``edgecl run`` (the spec's ``[miro]`` turned on); afterwards a table per task:
the device's state and the policy mode, every profiling run (candidate, accuracy, measured and
proxy energy, seconds) with the chosen one marked, and the profiling overhead of the whole run.
``--show RESULTS_DIR`` prints the table of an earlier run from its ``miro.json``. ``--compare`` first runs
every configuration Miro chooses from statically and then compares (``pipeline.miro.compare``).
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any, List, Optional

import typer
from rich.console import Console
from rich.table import Table

from pipeline.cli import pool_opts
from pipeline.errors import ConfigError
from pipeline.miro.compare import COMPARE_JSON, roles


def decisions_tables(miro: dict[str, Any]) -> list[Table | str]:
    """Per task of ``miro.json``: a line for a default task, a table of its runs for a profiled one."""
    sim = " (simulated)" if miro.get("simulated") else ""
    tables: list[Table | str] = []
    for t in miro.get("tasks", []):
        chosen = t["chosen"]["key"]
        if not t.get("profiled"):
            tables.append(f"task {t['task'] + 1}: default {chosen} (not profiled)")
            continue
        policy = t.get("policy", {})
        state = t.get("device_state", {})
        battery = state.get("battery_pct")
        title = (f"task {t['task'] + 1}: chose {chosen} — mode {policy.get('mode', 'normal')}"
                 + (f", battery {battery:g}%" if battery is not None else "")
                 + (f" ({'; '.join(policy['reasons'])})" if policy.get("reasons") else "")
                 + f"; search {t['search']['kind']}, {t['search']['epochs_used']} epochs, "
                 f"{t['profiling_energy_j']:.2f} J{sim}, {t['profiling_seconds']:.1f} s")
        table = Table(title=title, title_justify="left")
        for col in ("candidate", "epochs", "class-IL %", "energy J" + sim, "proxy (EM+SB)xep", "seconds", ""):
            table.add_column(col, justify="right" if col not in ("candidate", "") else "left")
        mini = t.get("mini_checkpoint")
        if mini:
            e = mini.get("energy_j")
            table.add_row("mini-checkpoint (shared start)", "", f"{mini['accuracy']:.2f}", "-" if e is None else f"{e:.3f}",
                          "", f"{mini['seconds']:.1f}", "")
        for run in t.get("runs", []):
            key = run["candidate"]["key"]
            e = run["energy_j"]
            table.add_row(key, str(run["epochs"]), f"{run['accuracy']:.2f}", "-" if e is None else f"{e:.3f}",
                          f"{run['proxy_energy']:g}", f"{run['seconds']:.1f}", "[green]chosen[/]" if key == chosen else "")
        tables.append(table)
    return tables


def overhead_line(miro: dict[str, Any]) -> str:
    o = miro.get("overhead", {})
    sim = " (simulated)" if miro.get("simulated") else ""
    parts = [f"profiling: {o.get('profiling_energy_j', 0.0):.2f} J{sim}, {o.get('profiling_seconds', 0.0):.1f} s"]
    if "energy_share" in o:
        parts.append(f"{o['energy_share']:.1%} of the run's {o['run_energy_j']:.2f} J")
    if "time_share" in o:
        parts.append(f"{o['time_share']:.1%} of its {o['run_seconds']:.0f} s")
    return "; ".join(parts)


def print_decisions(miro: dict[str, Any], console: Console | None = None) -> None:
    console = console or Console()
    for table in decisions_tables(miro):
        console.print(table, highlight=False)
    console.print(overhead_line(miro))


def comparison_lines(compare: dict[str, Any]) -> list[str]:
    """compare.json in a few lines: each static run, Miro's, the ratios."""
    c, sim = compare["comparison"], " (simulated)" if compare.get("simulated") else ""
    marks = roles(c)
    lines = [f"static {k}: class-IL {r['class_il']:.2f} %, {r['energy_j']:.3f} J{sim}, CE {r['ce']:.3f}"
             + "".join(f" ({v})" for v in marks.get(k, [])) for k, r in compare["statics"].items()]
    m = compare["miro"]
    lines.append(f"miro: class-IL {m['class_il']:.2f} %, {m['energy_j']:.3f} J{sim} (profiling {m['profiling_energy_j']:.3f} J), "
                 f"CE {m['ce']:.3f}")
    lines.append(f"miro vs the oracle: CE {c['vs_oracle']:.3f}x ({c['acc_vs_oracle']:+.2f} points); vs the [replay] default: "
                 f"{c['vs_default']:.3f}x; vs the best CE in hindsight: {c['vs_best_ce']:.3f}x")
    return lines


def load_miro_json(results_dir: Path) -> dict[str, Any]:
    path = Path(results_dir) / "miro.json"
    if not path.is_file():
        raise ConfigError(f"{path}: no miro.json here (was the run made with [miro] enabled = true?)")
    return json.loads(path.read_text())


def tune(
    spec_path: Path = typer.Argument(None, metavar="SPEC.toml", help="experiment spec; its \\[miro] table is used (enabled forced on)"),
    out: Path = typer.Option(None, "--out", help="results folder (default results/<name>-<time>)"),
    show: Path = typer.Option(None, "--show", help="print the decisions of an earlier run's results folder instead"),
    serial: Optional[List[str]] = pool_opts.serial_option(),
    all_devices: bool = pool_opts.all_option(),
    adb_server: Optional[List[str]] = pool_opts.server_option(),
    connect: Optional[List[str]] = pool_opts.connect_option(),
    offline_grace: float = typer.Option(30.0, "--offline-grace", help="several phones: seconds a phone may be offline before its run waits for it"),
    use_vphone: bool = typer.Option(False, "--vphone", help="tune on a virtual phone started for this run"),
    set_: list[str] = typer.Option([], "--set", help="override a spec key, e.g. --set train.epochs=2 (repeatable)"),
    compare: bool = typer.Option(False, "--compare", help="first run each configuration of the [miro] grid (and [replay]) "
                                 "statically, then Miro; compare Miro with the oracle and the static default (report too)"),
) -> None:
    """Run an experiment with Miro tuning each task on the device; print the decisions and measurements.
    With several phones (--serial A --serial B, --all, device.serials in the spec) each phone tunes its own run, in parallel."""
    if show is not None:
        print_decisions(load_miro_json(show))
        return
    if spec_path is None:
        raise ConfigError("edgecl tune: give SPEC.toml (or --show RESULTS_DIR)")
    from pipeline.config import load_spec, parse_overrides
    from pipeline.miro.run import run_with_miro

    overrides = {**parse_overrides(set_), "miro.enabled": True}
    spec = load_spec(spec_path, overrides)
    if (serial or all_devices or connect) and use_vphone:
        raise ConfigError("give --serial/--all/--connect or --vphone, not both")
    device = None
    if not use_vphone and (serial or all_devices or connect or spec.device.serials or not spec.device.vphone):
        members = pool_opts.pool_members(serial, all_devices, adb_server, connect, spec.device.serials, spec.device.serial)
        if len(members) > 1 and compare:
            raise ConfigError("--compare runs on one phone (its runs must share the phone to be compared); pick one with --serial")
        if len(members) > 1:
            from pipeline.cli.run_cmds import run_on_pool

            run_on_pool(spec_path, members, out or Path("results"), runtime=None, miro=True,
                        offline_grace=offline_grace)
            return
        device = members[0].open(spec.device.profile)
    from pipeline.cli.run_cmds import print_report

    results_dir = run_with_miro(spec_path, out, device=device, overrides=overrides, vphone=use_vphone, compare=compare)
    print_decisions(load_miro_json(results_dir))
    if compare:
        for line in comparison_lines(json.loads((results_dir / COMPARE_JSON).read_text())):
            Console().print(line, highlight=False, markup=False)
    Console().print(f"results: {results_dir}")
    print_report(results_dir)


def register(app: typer.Typer) -> None:
    app.command("tune")(tune)
