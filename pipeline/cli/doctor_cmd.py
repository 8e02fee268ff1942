"""``edgecl doctor [--serial S]``: one screen of what will work on the phone and what will not, with
the fix for each; exit code 0 when a session can run (``android_harness.doctor``)."""
from __future__ import annotations

import json
from dataclasses import asdict
from typing import Optional

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from pipeline.cli.options import serial_option

MARKS = {"ok": "[green]ok[/]", "warn": "[yellow]warn[/]", "fail": "[bold red]FAIL[/]", "info": "[dim]info[/]"}


def doctor(serial: Optional[str] = serial_option(),
           as_json: bool = typer.Option(False, "--json", help="print the checks as JSON")) -> None:
    """Check a phone for edgecl: adb, ABI, Android, storage, runners, power counters, charging, thermal, RAM."""
    from android_harness.doctor import diagnose, session_can_run

    found, checks = diagnose(*_locate(serial))
    ok = session_can_run(checks)
    if as_json:
        print(json.dumps({"serial": found, "session_can_run": ok, "checks": [asdict(c) for c in checks]}, indent=1))
        raise typer.Exit(0 if ok else 1)
    table = Table("check", "", "found", "fix", title=f"edgecl doctor: {found or serial or 'no device'}",
                  title_justify="left", show_lines=False)
    for c in checks:
        table.add_row(c.name, MARKS[c.verdict], escape(c.found), escape(c.fix))
    console = Console()
    console.print(table)
    blocking = [c.name for c in checks if c.blocks_session and c.verdict == "fail"]
    console.print("[bold green]a session can run here[/]" if ok else
                  f"[bold red]no session can run until this is fixed:[/] {', '.join(blocking)}")
    raise typer.Exit(0 if ok else 1)


def _locate(serial: Optional[str]) -> tuple[Optional[str], object]:
    """(serial, adb server) of the phone meant, looked up on the servers ``run`` and ``devices`` use (a
    vphone's own server included); a phone found nowhere goes to the doctor's adb check as given, which
    says what is wrong with it."""
    from pipeline.cli.pool_opts import pool_members
    from pipeline.errors import EdgeclError

    try:
        member = pool_members([serial] if serial else None, False, None, None)[0]
    except EdgeclError:
        return serial, None
    return member.serial, member.server


def register(app: typer.Typer) -> None:
    app.command("doctor")(doctor)
