"""The sweep's live table: one row per phone (device, state, run, task, for how long) and the counts."""
from __future__ import annotations

import time
from typing import TYPE_CHECKING, Sequence

from rich.table import Table

from android_harness.pool import READY
from pipeline.sweep.index import SweepIndex

if TYPE_CHECKING:
    from pipeline.sweep.scheduler import Slot


def _state(slot: "Slot", now: float, index_done: bool) -> str:
    if slot.state != READY:
        gone = f" {now - slot.offline_since:.0f} s" if slot.offline_since else ""
        return f"[yellow]{slot.state}{gone}[/]" + (" (run kept)" if slot.run else "")
    if index_done and slot.run is None:
        return "[dim]finished[/]"
    if slot.proc is None or not slot.ready:
        return "[dim]starting[/]"
    if slot.run == "(cleanup)":
        return "cancelling stale sessions"
    return "[green]running[/]" if slot.run else "[dim]idle[/]"


def pool_table(index: SweepIndex, slots: Sequence["Slot"]) -> Table:
    now = time.monotonic()
    c = index.counts()
    sim = " (simulated)" if any("edgecl vphone" in s.member.model.replace("_", " ") for s in slots) else ""
    table = Table(title=f"sweep {index.name}: {c['done']}/{len(index.runs)} done, {c['running']} running, "
                        f"{c['pending']} pending, {c['failed']} failed{sim}", title_justify="left")
    for col in ("device", "state", "run", "task", "for"):
        table.add_column(col, justify="right" if col in ("task", "for") else "left")
    for slot in slots:
        busy = slot.run not in (None, "(cleanup)")
        model = f" [dim]{slot.member.model}[/]" if slot.member.model else ""
        table.add_row(f"{slot.member.serial}{model}", _state(slot, now, index.finished()), slot.run if busy else "",
                      slot.task if busy else "", f"{now - slot.dispatched:.0f} s" if busy else "")
    return table
