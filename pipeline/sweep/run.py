"""A sweep end to end: plan (every run's spec validated and its task shards written before a phone
is touched), schedule over the pool, write the combined report. Also one spec on several phones
(``edgecl run/tune --serial A --serial B``), which is a sweep of runs pinned one per phone.

Folder: ``<out>/<name>/`` with ``sweep.json``, ``report.md``, ``report.csv``, ``logs/`` (one per
phone's worker) and ``runs/<run>-<time>/`` -- each a normal ``edgecl run`` results folder.
"""
from __future__ import annotations

import time
from pathlib import Path
from typing import Any, Sequence

from rich.console import Console

from android_harness.cache_dir import edgecl_home
from android_harness.device.paths import under_root
from android_harness.pool import PoolMember
from pipeline.config import load_spec
from pipeline.errors import ConfigError
from pipeline.spec_limits import check_against_data
from pipeline.sweep.grid import RunPlan, expand, pinned
from pipeline.sweep.index import PENDING, RUNNING, SweepIndex
from pipeline.sweep.report import report_table, write_report
from pipeline.sweep.scheduler import Scheduler, continuing_lines

def _run_specs(spec_path: str, plans: Sequence[RunPlan], miro: bool) -> dict[str, dict[str, Any]]:
    """Every run's resolved spec; all problems of all runs are reported together, before any phone."""
    specs, problems = {}, []
    cache = edgecl_home() / "cache"
    for plan in plans:
        extra = {"miro.enabled": True} if miro else {}
        try:
            spec = load_spec(spec_path, {**plan.overrides, **extra})
            check_against_data(spec, cache)
            specs[plan.name] = spec.to_dict()
        except ConfigError as exc:
            problems += [f"run {plan.name}: {p}" for p in exc.problems]
    if problems:
        raise ConfigError(sorted(set(problems)), source=spec_path)
    return specs


def plan_sweep(spec_path: str | Path, out: str | Path, sets: Sequence[tuple[str, list[Any]]] = (),
               seeds: Sequence[int] | None = None, *, name: str | None = None, runtime: str | None = None,
               miro: bool = False, pins: Sequence[str] | None = None) -> tuple[SweepIndex, dict]:
    """A new sweep: the grid (or the spec once per pinned phone), validated; nothing runs yet."""
    spec_path = str(spec_path)
    base = load_spec(spec_path)
    plans = pinned(base.name, base.seed, pins) if pins else expand(base.name, sets, seeds, base.seed)
    specs = _run_specs(spec_path, plans, miro or base.miro.enabled)
    sweep_name = name or f"{base.name}-{'pool' if pins else 'sweep'}-{time.strftime('%Y%m%d-%H%M%S')}"
    folder = Path(under_root(out, sweep_name))
    if (folder / "sweep.json").exists():
        raise ConfigError(f"{folder}: a sweep is already there (resume it with --resume {folder})")
    grid = {"set": {k: v for k, v in sets}, "seeds": list(seeds) if seeds else None, "pinned": list(pins or [])}
    index = SweepIndex.new(folder, sweep_name, spec_path, base.digest(), plans, miro or base.miro.enabled, grid,
                           runtime)
    return index, specs


def resume_sweep(folder: str | Path) -> tuple[SweepIndex, dict]:
    """An earlier sweep: done runs are kept, every other run continues from its last completed task."""
    index = SweepIndex.load(Path(folder))
    base = load_spec(index.spec_path)
    if base.digest() != index.spec_digest:
        raise ConfigError(f"{index.spec_path} changed since the sweep started (digest {base.digest()} != "
                          f"{index.spec_digest}); a resumed sweep must run the same spec", source=str(folder))
    plans = [RunPlan(r.name, r.config, r.seed, r.overrides, r.pin) for r in index.runs]
    for rec in index.runs:
        if rec.state == RUNNING:          # the scheduler that ran it stopped without recording why
            index.end_attempt(rec, "interrupted", PENDING, "scheduler stopped")
    return index, _run_specs(index.spec_path, plans, index.runs[0].miro if index.runs else False)


def run_sweep(index: SweepIndex, specs: dict, members: list[PoolMember], *, offline_grace_s: float = 30.0,
              console: Console | None = None, live: bool = True) -> tuple[bool, Scheduler]:
    """Schedule the sweep's unfinished runs over ``members``; write the report. False after Ctrl-C."""
    console = console or Console()
    unknown = sorted({r.pin for r in index.runs if r.pin} - {m.key for m in members})
    if unknown:
        raise ConfigError(f"runs pinned to phones not in this pool: {', '.join(unknown)}")
    index.pool = [{"key": m.key, "serial": m.serial, "server": str(m.server), "model": m.model} for m in members]
    index.save()
    sched = Scheduler(index, members, specs, offline_grace_s=offline_grace_s, console=console, live=live)
    finished = sched.run()
    md, _ = write_report(index)
    console.print()
    console.print(report_table(index))
    console.print(f"index: {index.folder / 'sweep.json'}  report: {md}")
    if not finished:
        console.print("[bold]stopped[/] (Ctrl-C); the phones keep running the sessions they had:")
        for line in continuing_lines(sched) or ["no run was on a phone"]:
            console.print(f"  {line}", highlight=False)
        console.print(f"continue with: edgecl sweep --resume {index.folder}", highlight=False)
    return finished, sched
