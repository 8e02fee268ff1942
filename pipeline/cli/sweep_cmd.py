"""``edgecl sweep SPEC.toml --set KEY=V1,V2 --seeds 0..4``: a grid of runs over a pool of phones.

Each grid point x seed is one run (the spec with those overrides, under a safe unique name), one
run per phone at a time, with a live table; ``<out>/<name>/sweep.json`` indexes every run and
``report.md``/``report.csv`` combine them (mean ± sd over seeds, energy per device model).
``--resume DIR`` continues a stopped sweep; ``--vphones N`` runs it on N virtual phones.
"""
from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Iterator, List, Optional

import typer
from rich.console import Console

from pipeline.cli import pool_opts
from pipeline.errors import ConfigError

_out = Console()


def sweep(
    spec_path: Optional[Path] = typer.Argument(None, metavar="SPEC.toml", help="experiment spec (omit with --resume)"),
    set_: Optional[List[str]] = typer.Option(None, "--set", help="KEY=V1,V2: a dotted spec key and its values (repeatable; the grid is their product)"),
    seeds: Optional[str] = typer.Option(None, "--seeds", help="seeds: 0..4, 0,2,5 or 3 (default: the spec's seed)"),
    serial: Optional[List[str]] = pool_opts.serial_option(),
    all_devices: bool = pool_opts.all_option(),
    adb_server: Optional[List[str]] = pool_opts.server_option(),
    connect: Optional[List[str]] = pool_opts.connect_option(),
    vphones: int = typer.Option(0, "--vphones", help="run on N virtual phones started for this sweep (simulated)"),
    out: Path = typer.Option(Path("results"), "--out", help="folder the sweep folder goes into"),
    name: Optional[str] = typer.Option(None, "--name", help="the sweep folder's name (default <spec name>-sweep-<time>)"),
    resume: Optional[Path] = typer.Option(None, "--resume", help="a stopped sweep's folder: done runs are kept, the others continue"),
    runtime: Optional[str] = typer.Option(None, "--runtime", help="executorch or ort (default: each run's export.runtime)"),
    miro: bool = typer.Option(False, "--miro", help="Miro tunes every run (as edgecl tune)"),
    offline_grace: float = typer.Option(30.0, "--offline-grace", help="seconds a phone may be offline before its run moves on"),
) -> None:
    """Expand a grid into runs and schedule them over the pool, one run per phone at a time."""
    from pipeline.config import load_spec
    from pipeline.sweep import parse_seeds, parse_set, plan_sweep, resume_sweep, run_sweep

    if runtime not in (None, "executorch", "ort"):
        raise ConfigError(f"--runtime: expected executorch or ort, got {runtime!r}")
    if vphones < 0:
        raise ConfigError(f"--vphones: expected a number of phones >= 0, got {vphones}")
    if vphones and (serial or all_devices or adb_server or connect):
        raise ConfigError("give --vphones or --serial/--all/--adb-server/--connect, not both")
    if resume is not None:
        if spec_path is not None or set_ or seeds:
            raise ConfigError("--resume DIR continues a sweep as it was planned: give no SPEC, --set or --seeds")
        index, specs = resume_sweep(resume)
        spec = load_spec(index.spec_path)
    else:
        if spec_path is None:
            raise ConfigError("edgecl sweep: give SPEC.toml (or --resume DIR)")
        spec = load_spec(spec_path)
        index, specs = plan_sweep(spec_path, out, [parse_set(s) for s in set_ or []],
                                  parse_seeds(seeds) if seeds else None, name=name, runtime=runtime,
                                  miro=miro)
    with _pool(vphones, serial, all_devices, adb_server, connect, spec) as members:
        _out.print(f"sweep {index.name}: {len(index.runs)} runs over {len(members)} phones -> {index.folder}",
                   highlight=False)
        finished, _ = run_sweep(index, specs, members, offline_grace_s=offline_grace, console=_out)
    if not finished:
        raise typer.Exit(130)
    if index.counts()["failed"]:
        raise typer.Exit(1)


@contextlib.contextmanager
def _pool(vphones: int, serial, all_devices, adb_server, connect, spec) -> Iterator[list]:
    """The named pool, or ``vphones`` virtual phones behind a private adb server (stopped by PID after)."""
    if not vphones:
        yield pool_opts.pool_members(serial, all_devices, adb_server, connect, spec.device.serials, spec.device.serial)
        return
    from android_harness.vphone_fleet import vphone_fleet

    _out.print(f"starting {vphones} virtual phones ({spec.device.vphone_preset}, simulated) ...")
    with vphone_fleet(vphones, presets=(spec.device.vphone_preset,)) as fleet:
        yield fleet.members()


def register(app: typer.Typer) -> None:
    app.command("sweep")(sweep)
