"""``edgecl run SPEC.toml``: the experiment on a device; ``edgecl sessions|attach|cancel`` for running sessions."""
from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer
from rich.console import Console
from rich.table import Table

_out = Console()


def run(spec_path: Path = typer.Argument(..., metavar="SPEC.toml", help="experiment spec"),
        serial: Optional[str] = typer.Option(None, "--serial", "-s", help="device serial (default: spec, ANDROID_SERIAL or the only device)"),
        use_vphone: bool = typer.Option(False, "--vphone", help="run on a virtual phone started for this run"),
        out: Path = typer.Option(Path("results"), "--out", help="folder the results/<name>-<time>/ folder goes into"),
        runtime: Optional[str] = typer.Option(None, "--runtime", help="executorch or ort (default: the spec's export.runtime)"),
        set_: list[str] = typer.Option([], "--set", help="override a spec key, e.g. --set train.epochs=2 (repeatable)")) -> None:
    """Export (cached) -> deploy -> one session per task on the device -> results folder + summary table."""
    from android_harness.device_choice import device_for
    from pipeline.config import load_spec, parse_overrides
    from pipeline.errors import ConfigError
    from pipeline.experiment import run_experiment

    overrides = parse_overrides(set_)
    if runtime is not None:
        overrides["export.runtime"] = runtime
    spec = load_spec(spec_path, overrides)
    if serial and use_vphone:
        raise ConfigError("give --serial or --vphone, not both")
    with device_for(serial or spec.device.serial, use_vphone or spec.device.vphone, spec.device.vphone_preset, _out) as device:
        if spec.miro.enabled:
            from pipeline.miro.run import run_spec_with_miro

            run_spec_with_miro(spec, device, out)
        else:
            run_experiment(spec, device, out)


def sessions(serial: Optional[str] = typer.Option(None, "--serial", "-s")) -> None:
    """Sessions on the device and their status (running, ok, cancelled, error, stopped)."""
    from android_harness.android_device import AndroidDevice
    from android_harness.session import SessionDriver

    table = Table("session", "status")
    for row in SessionDriver(AndroidDevice.open(serial)).list_sessions():
        table.add_row(row["session_id"], row["status"])
    _out.print(table)


def attach(session_id: str = typer.Argument(..., help="session id (see `edgecl sessions`)"),
           serial: Optional[str] = typer.Option(None, "--serial", "-s"),
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


def cancel(session_id: str = typer.Argument(...), serial: Optional[str] = typer.Option(None, "--serial", "-s")) -> None:
    """Stop a running session cleanly (it checkpoints and writes result.json with status cancelled)."""
    from android_harness.android_device import AndroidDevice
    from android_harness.session import SessionDriver

    driver = SessionDriver(AndroidDevice.open(serial))
    driver.cancel(driver.attach(session_id))
    _out.print(f"{session_id}: SIGTERM sent")


def register(app: typer.Typer) -> None:
    app.command("run")(run)
    app.command("sessions")(sessions)
    app.command("attach")(attach)
    app.command("cancel")(cancel)
