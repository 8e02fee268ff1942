"""``edgecl run SPEC.toml``: the experiment on a device; ``edgecl sessions|attach|cancel`` for running sessions."""
from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Iterator, Optional

import typer
from rich.console import Console
from rich.table import Table

from pipeline.cli.options import serial_option

_out = Console()


@contextlib.contextmanager
def device_for(serial: str | None, use_vphone: bool, preset: str = "pixel7") -> Iterator[object]:
    """The named/only device, or a virtual phone behind a private adb server (both stopped after)."""
    from android_harness.android_device import AndroidDevice

    if not use_vphone:
        yield AndroidDevice.open(serial or None)
        return
    from android_harness.vphone.scoped import scoped_vphone

    with scoped_vphone(preset, _out) as device:
        yield device


def run(spec_path: Path = typer.Argument(..., metavar="SPEC.toml", help="experiment spec"),
        serial: Optional[str] = serial_option("device serial (default: device.serial, ANDROID_SERIAL or the only device)"),
        use_vphone: bool = typer.Option(False, "--vphone", help="run on a virtual phone started for this run"),
        out: Path = typer.Option(Path("results"), "--out", help="folder the results/<name>-<time>/ folder goes into"),
        runtime: Optional[str] = typer.Option(None, "--runtime", help="executorch or ort (default: the spec's export.runtime)"),
        em_policy: str = typer.Option("balanced", "--em-policy", help="balanced (Miro) or reservoir (the host trainer's buffer)"),
        set_: list[str] = typer.Option([], "--set", help="override a spec key, e.g. --set train.epochs=2 (repeatable)")) -> None:
    """Export (cached) -> deploy -> one session per task on the device -> results folder + summary table."""
    from pipeline.cli.train_cmds import parse_overrides
    from pipeline.config import load_spec
    from pipeline.errors import ConfigError
    from pipeline.experiment import run_experiment
    from pipeline.spec_limits import check_against_data
    from android_harness.cache_dir import edgecl_home

    spec = load_spec(spec_path, parse_overrides(set_))
    check_against_data(spec, edgecl_home() / "cache")
    if serial and use_vphone:
        raise ConfigError("give --serial or --vphone, not both")
    if runtime not in (None, "executorch", "ort"):
        raise ConfigError(f"--runtime: expected executorch or ort, got {runtime!r}")
    if em_policy not in ("balanced", "reservoir"):
        raise ConfigError(f"--em-policy: expected balanced or reservoir, got {em_policy!r}")
    with device_for(serial or spec.device.serial, use_vphone or spec.device.vphone, spec.device.vphone_preset) as device:
        if spec.miro.enabled:
            from pipeline.miro.run import run_spec_with_miro

            folder, _ = run_spec_with_miro(spec, device, out, runtime=runtime, em_policy=em_policy)
        else:
            folder = run_experiment(spec, device, out, runtime=runtime, em_policy=em_policy)
    print_report(folder)


def print_report(folder: Path) -> None:
    """Write the run's HTML report and say where it is (``run``, ``tune`` and ``demo`` end with this)."""
    from pipeline.report import write_report

    with _out.status("writing the report ..."):
        files = write_report(folder)
    _out.print(f"[bold green]report:[/] {files.html}" + (" [dim](simulated)[/]" if files.simulated else ""), soft_wrap=True)


def sessions(serial: Optional[str] = serial_option()) -> None:
    """Sessions on the device and their status (running, ok, cancelled, error, stopped)."""
    from android_harness.android_device import AndroidDevice
    from android_harness.session import SessionDriver

    table = Table("session", "status")
    for row in SessionDriver(AndroidDevice.open(serial)).list_sessions():
        table.add_row(row["session_id"], row["status"])
    _out.print(table)


def attach(session_id: str = typer.Argument(..., help="session id (see `edgecl sessions`)"),
           serial: Optional[str] = serial_option(),
           out: Optional[Path] = typer.Option(None, "--out", help="pull the session folder here when it ends")) -> None:
    """Reattach to a running session: stream its events from the start to its end."""
    from android_harness.android_device import AndroidDevice
    from android_harness.session import SessionDriver

    driver = SessionDriver(AndroidDevice.open(serial))
    handle = driver.attach(session_id)
    result = driver.stream(handle)
    _out.print(f"{session_id}: {result['status']} after {result['iterations']} steps")
    if out is not None:
        _out.print(f"pulled into {driver.collect(handle, out / session_id)}")


def cancel(session_id: str = typer.Argument(..., help="session id (see `edgecl sessions`)"),
           serial: Optional[str] = serial_option()) -> None:
    """Stop a running session cleanly (it checkpoints and writes result.json with status cancelled).
    A session that already ended, or whose runner is gone, is left alone (exit code 1)."""
    from android_harness.android_device import AndroidDevice
    from android_harness.session import SessionDriver

    driver = SessionDriver(AndroidDevice.open(serial))
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
