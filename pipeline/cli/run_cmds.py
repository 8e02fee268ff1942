"""``edgecl run SPEC.toml``: the experiment on a device; ``edgecl sessions|attach|cancel`` for running sessions."""
from __future__ import annotations

import contextlib
import json
from pathlib import Path
from typing import List, Optional

import typer
from rich.console import Console
from rich.table import Table

from pipeline.cli import pool_opts
from pipeline.cli.options import serial_option

_out = Console()


def run(spec_path: Path = typer.Argument(..., metavar="SPEC.toml", help="experiment spec"),
        serial: Optional[List[str]] = pool_opts.serial_option(),
        all_devices: bool = pool_opts.all_option(),
        adb_server: Optional[List[str]] = pool_opts.server_option(),
        connect: Optional[List[str]] = pool_opts.connect_option(),
        use_vphone: bool = typer.Option(False, "--vphone", help="run on a virtual phone started for this run"),
        out: Path = typer.Option(Path("results"), "--out", help="folder the results/<name>-<time>/ folder goes into"),
        runtime: Optional[str] = typer.Option(None, "--runtime", help="executorch or ort (default: the spec's export.runtime)"),
        resume: Optional[Path] = typer.Option(None, "--resume", help="an earlier results folder of this spec: go on from its last completed task"),
        offline_grace: float = typer.Option(30.0, "--offline-grace", help="several phones: seconds a phone may be offline before its run waits for it"),
        set_: list[str] = typer.Option([], "--set", help="override a spec key, e.g. --set train.epochs=2 (repeatable)")) -> None:
    """Export (cached) -> deploy -> one session per task on the device -> results folder + summary table.
    With several phones (--serial A --serial B, --all, device.serials in the spec) the spec runs once on each, in parallel.
    Ctrl-C: the current session goes on on the phone; exit 130 with the `edgecl attach` and `--resume` commands."""
    from android_harness.device_choice import device_for
    from pipeline.config import load_spec, parse_overrides
    from pipeline.errors import ConfigError, SessionError
    from pipeline.recipe import run_spec
    from pipeline.cli.run_interrupt import MARKER, RunProgress, report_interrupt, resume_command
    from pipeline.run_journal import RunJournal, store_is_read
    from pipeline.spec_limits import check_against_data
    from android_harness.cache_dir import edgecl_home

    overrides = parse_overrides(set_)
    if runtime is not None:
        overrides["export.runtime"] = runtime
    spec = load_spec(spec_path, overrides)
    check_against_data(spec, edgecl_home() / "cache")
    if (serial or all_devices or connect) and use_vphone:
        raise ConfigError("give --serial/--all/--connect or --vphone, not both")
    if resume is not None:
        if not (resume / "spec.json").is_file():
            raise ConfigError(f"--resume {resume}: not a results folder (no spec.json)")
        if json.loads((resume / "spec.json").read_text()) != json.loads(json.dumps(spec.to_dict(), default=str)):
            raise ConfigError(f"--resume {resume}: that run's spec.json differs from {spec_path}; resume it with its own spec")
    progress = RunProgress()
    scoped = use_vphone or (spec.device.vphone and not (serial or all_devices or connect))
    device_args, device_arg = (["--vphone"] if use_vphone else []), ""
    if scoped:
        ctx = device_for(None, True, spec.device.vphone_preset, _out)
    else:
        members = pool_opts.pool_members(serial, all_devices, adb_server, connect, spec.device.serials, spec.device.serial)
        if len(members) > 1:
            if resume is not None:
                raise ConfigError("--resume continues one run on one phone; a pooled run resumes with `edgecl sweep --resume`")
            run_on_pool(spec_path, members, out, runtime=runtime, miro=spec.miro.enabled, offline_grace=offline_grace)
            return
        ctx = contextlib.nullcontext(members[0].open(spec.device.profile))
        device_arg = members[0].key
        device_args = ["--serial", device_arg]
    # one phone: this run's own folder (a pooled run makes one per phone)
    journal = (RunJournal(resume, on_task=progress) if resume is not None
               else RunJournal.create(out, spec.name, on_task=progress))
    device = None
    try:
        with ctx as device:
            folder = run_spec(spec, device, out, journal=journal)
    except SessionError as exc:
        if exc.cause != "paused":
            raise
        resume_cmd = resume_command(spec_path, journal.folder, device_args, set_, runtime)
        raise SessionError(exc.phase, f"{exc.detail}; once it runs again: {resume_cmd}", exc.session_id, exc.cause) from None
    except KeyboardInterrupt:
        resume_cmd = resume_command(spec_path, journal.folder, device_args, set_, runtime)
        report_interrupt(_out, journal.folder, progress, resume_cmd, device=device, device_arg=device_arg,
                         scoped_vphone=scoped, store_on_phone=store_is_read(spec))
        raise typer.Exit(130) from None
    finally:
        if resume is None:      # a run that ended before writing anything (no phone, a refusal) leaves no folder
            with contextlib.suppress(OSError):
                journal.folder.rmdir()
    (folder / MARKER).unlink(missing_ok=True)          # a resumed run that completed is no longer interrupted
    print_report(folder)


def run_on_pool(spec_path: Path, members: list, out: Path, *, runtime: Optional[str], miro: bool,
                offline_grace: float) -> None:
    """The spec once on each phone of the pool, in parallel (a sweep of pinned runs); exit 130 after Ctrl-C."""
    from pipeline.sweep import plan_sweep, run_sweep

    index, specs = plan_sweep(spec_path, out, pins=[m.key for m in members], runtime=runtime, miro=miro)
    _out.print(f"{len(members)} phones: {', '.join(m.serial for m in members)} -> {index.folder}", highlight=False)
    finished, _ = run_sweep(index, specs, members, offline_grace_s=offline_grace, console=_out)
    if not finished:
        raise typer.Exit(130)


def print_report(folder: Path) -> None:
    """Write the run's HTML report and say where it is (``run``, ``tune`` and ``demo`` end with this)."""
    from pipeline.report import write_report

    with _out.status("writing the report ..."):
        files = write_report(folder)
    _out.print(f"[bold green]report:[/] {files.html}" + (" [dim](simulated)[/]" if files.simulated else ""), soft_wrap=True)


def sessions(serial: Optional[str] = serial_option()) -> None:
    """Sessions on the device and their status (running, ok, cancelled, error, stopped)."""
    from android_harness.session import SessionDriver

    table = Table("session", "status")
    for row in SessionDriver(pool_opts.open_one(serial)).list_sessions():
        table.add_row(row["session_id"], row["status"])
    _out.print(table)


def attach(session_id: str = typer.Argument(..., help="session id (see `edgecl sessions`)"),
           serial: Optional[str] = serial_option(),
           out: Optional[Path] = typer.Option(None, "--out", help="pull the session folder here when it ends")) -> None:
    """Reattach to a running session: stream its events from the start to its end."""
    from android_harness.session import SessionDriver

    driver = SessionDriver(pool_opts.open_one(serial))
    handle = driver.attach(session_id)
    result = driver.stream(handle)
    _out.print(f"{session_id}: {result['status']} after {result['iterations']} steps")
    if out is not None:
        _out.print(f"pulled into {driver.collect(handle, out / session_id)}")


def cancel(session_id: str = typer.Argument(..., help="session id (see `edgecl sessions`)"),
           serial: Optional[str] = serial_option()) -> None:
    """Stop a running session cleanly (it checkpoints and writes result.json with status cancelled).
    A session that already ended, or whose runner is gone, is left alone (exit code 1)."""
    from android_harness.session import SessionDriver

    driver = SessionDriver(pool_opts.open_one(serial))
    handle = driver.attach(session_id)
    state = driver.poll(handle)
    if state.result is not None:
        _out.print(f"{session_id}: already ended with status {state.result.get('status')!r}; nothing to cancel")
        raise typer.Exit(1)
    if not state.alive:
        _out.print(f"{session_id}: no runner is running it (stopped without result.json); nothing to cancel")
        raise typer.Exit(1)
    driver.cancel(handle)
    _out.print(f"{session_id}: cancel requested (SIGTERM to pid {handle.pid}); it checkpoints and ends with status "
               f"'cancelled' (follow it with `edgecl attach {session_id}`)")


def register(app: typer.Typer) -> None:
    app.command("run")(run)
    app.command("sessions")(sessions)
    app.command("attach")(attach)
    app.command("cancel")(cancel)
