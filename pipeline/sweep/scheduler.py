"""The pool scheduler: one worker process per phone, one run per phone at a time, a live table.

Faults at pool scale. A phone that leaves adb (offline, absent, its server unreachable) keeps its run
for ``offline_grace_s``: the worker's session stream reconnects by itself if the phone comes back
(a TCP phone is ``adb connect``-ed again every few seconds). After the grace the worker is killed
and the run goes back to the queue with that attempt recorded as ``lost``; it is reattached on the
same phone if that phone is free first (its session may still be running there), or continues on
another phone from its last completed task (``pipeline.run_journal``). Sessions an abandoned attempt
left on a phone are cancelled when it returns. Ctrl-C stops the workers (the sessions they were
following keep running on the phones), records those runs as ``interrupted`` and says where each
one continues; ``edgecl sweep --resume`` picks them up.
"""
from __future__ import annotations

import multiprocessing as mp
import os
import signal
import shutil
import time
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from typing import Any

from rich.console import Console
from rich.live import Live

from android_harness.pool import READY, PoolMember, pool_states, try_reconnect
from pipeline.sweep.index import DONE, FAILED, PENDING, RUNNING, RunRecord, SweepIndex
from pipeline.sweep.live import pool_table
from pipeline.sweep.results import run_result
from pipeline.sweep.worker import RunOrder, worker_main

STATE_EVERY_S = 1.0
RECONNECT_EVERY_S = 2.0
POLL_S = 0.2
REDRAW_S = 1.0
STOP_TIMEOUT_S = 10.0
KILL_GRACE_S = 2.0
_CTX: Any = None


def _context() -> Any:
    """Workers fork from a forkserver that has imported the run path once (torch included), so a
    phone's worker starts in milliseconds and never inherits the scheduler's threads."""
    global _CTX
    if _CTX is None:
        _CTX = mp.get_context("forkserver")
        _CTX.set_forkserver_preload(["pipeline.sweep.worker"])
    return _CTX


@dataclass
class Slot:
    """One phone of the pool as the scheduler sees it."""

    member: PoolMember
    state: str = READY
    proc: Any = None
    conn: Connection | None = None
    ready: bool = False
    run: str | None = None
    task: str = ""
    session: str = ""
    dispatched: float = 0.0
    offline_since: float | None = None
    last_reconnect: float = 0.0
    stale: list[tuple[str, str]] = field(default_factory=list)   # (run, session) an abandoned attempt left here
    last_done: float | None = None

    @property
    def idle(self) -> bool:
        return self.state == READY and self.ready and self.run is None


@dataclass
class SchedulerStats:
    """What the scheduler cost: per finished run, wall from dispatch to done vs the run's own wall."""

    runs: int = 0
    dispatch_to_done_s: float = 0.0
    run_s: float = 0.0
    gap_s: float = 0.0             # a phone idle between one run's end and its next dispatch
    cpu_s: float = 0.0             # CPU time of the scheduler's process (its loop, the index, the live table)
    wall_s: float = 0.0
    startup_s: float = 0.0         # from the start to the first dispatch (workers forked, phones ready)
    busy_s: float = 0.0            # from the first dispatch to the last run's end


class Scheduler:
    def __init__(self, index: SweepIndex, members: list[PoolMember], specs: dict[str, dict], *,
                 offline_grace_s: float = 30.0, max_attempts: int = 3, console: Console | None = None,
                 live: bool = True) -> None:
        self.index, self.specs = index, specs
        self.slots = [Slot(m) for m in members]
        self.offline_grace_s, self.max_attempts = offline_grace_s, max_attempts
        self.console = console or Console()
        self.live = live
        self.stats = SchedulerStats()
        self.log_dir = index.folder / "logs"
        self.interrupted: list[tuple[RunRecord, Slot]] = []
        self._first: float | None = None     # first dispatch, last run's end (for the stats)
        self._last: float | None = None

    # -- main loop -----------------------------------------------------------------------------------
    def run(self) -> bool:
        """Schedule until every run is done or failed; False when stopped by Ctrl-C."""
        self.log_dir.mkdir(parents=True, exist_ok=True)
        t0, cpu0, next_state = time.monotonic(), time.process_time(), 0.0
        live = Live(pool_table(self.index, self.slots), console=self.console, auto_refresh=False,
                    transient=False) if self.live else None
        drawn = 0.0
        try:
            if live is not None:
                live.start()
            while not self.index.finished():
                now = time.monotonic()
                if now >= next_state:
                    self._watch_states(now)
                    next_state = now + STATE_EVERY_S
                changed = self._dispatch() + self._receive(POLL_S)
                if live is not None and (changed or now - drawn >= REDRAW_S):   # drawn on change, else once a second
                    live.update(pool_table(self.index, self.slots), refresh=True)
                    drawn = now
            self._quit_workers()
            return True
        except KeyboardInterrupt:
            self._interrupt()
            return False
        finally:
            if live is not None:
                live.update(pool_table(self.index, self.slots), refresh=True)
                live.stop()
            self.stats.wall_s, self.stats.cpu_s = time.monotonic() - t0, time.process_time() - cpu0
            if self._first is not None and self._last is not None:
                self.stats.startup_s, self.stats.busy_s = self._first - t0, self._last - self._first

    # -- phones ----------------------------------------------------------------------------------------
    def _watch_states(self, now: float) -> None:
        states = pool_states([s.member for s in self.slots])
        for slot in self.slots:
            slot.state = states[slot.member.key]
            if slot.state == READY:
                slot.offline_since = None
                if slot.proc is None:
                    self._spawn(slot)
                continue
            slot.offline_since = slot.offline_since or now
            if slot.member.reconnectable and now - slot.last_reconnect > RECONNECT_EVERY_S:
                slot.last_reconnect = now
                try_reconnect(slot.member)
            if slot.run is not None and now - slot.offline_since > self.offline_grace_s:
                self._abandon(slot, "lost", f"{slot.member.serial} {slot.state} for {now - slot.offline_since:.0f} s")

    def _spawn(self, slot: Slot) -> None:
        parent, child = mp.Pipe()
        log = self.log_dir / f"{slot.member.key.replace('/', '_').replace(':', '_')}.log"
        proc = _context().Process(target=worker_main, args=(slot.member, child, str(log)), daemon=True,
                                  name=f"edgecl-worker-{slot.member.serial}")
        proc.start()
        child.close()
        slot.proc, slot.conn, slot.ready = proc, parent, False

    def _kill(self, slot: Slot, grace_s: float) -> None:
        """End the slot's worker by its PID: SIGTERM, then SIGKILL after ``grace_s``."""
        proc = slot.proc
        if proc is not None and proc.is_alive():
            os.kill(proc.pid, signal.SIGTERM)
            proc.join(grace_s)
            if proc.is_alive():
                os.kill(proc.pid, signal.SIGKILL)
                proc.join(STOP_TIMEOUT_S)
        if slot.conn is not None:
            slot.conn.close()
        slot.proc, slot.conn, slot.ready = None, None, False

    def _abandon(self, slot: Slot, outcome: str, note: str) -> None:
        """The slot's run stops here (phone lost, worker crashed): back to the queue, attempt recorded."""
        rec = self.index.run(slot.run)
        self._kill(slot, KILL_GRACE_S)
        if slot.session:
            slot.stale.append((rec.name, slot.session))
        retry = outcome == "lost" or len(rec.attempts) < self.max_attempts
        self.index.end_attempt(rec, outcome, PENDING if retry else FAILED, note, slot.session)
        slot.run, slot.task, slot.session = None, "", ""

    # -- runs ------------------------------------------------------------------------------------------
    def _pick(self, slot: Slot) -> RunRecord | None:
        pending = [r for r in self.index.runs if r.state == PENDING]
        by_key = {s.member.key: s for s in self.slots}
        for rec in pending:
            if rec.pin == slot.member.key:
                return rec
        for rec in pending:
            if rec.pin is None and rec.last_device == slot.member.key:
                return rec                                     # reattach where its session may still run
        for rec in pending:
            home = by_key.get(rec.last_device or "")
            if rec.pin is None and rec.last_device and not (home is not None and home.idle):
                return rec                                     # continue elsewhere from its last completed task
        return next((r for r in pending if r.pin is None and r.last_device is None), None)

    def _dispatch(self) -> int:
        """Give idle phones work; returns how many orders were sent."""
        sent = 0
        for slot in self.slots:
            if not slot.idle:
                continue
            if slot.stale:      # unless the run comes back here to reattach, its old session is cancelled
                cancel = [sid for run, sid in slot.stale
                          if not (self.index.run(run).state == PENDING and self.index.run(run).last_device == slot.member.key)]
                slot.stale = []
                if cancel:
                    slot.conn.send(("cancel", cancel))
                    slot.run = "(cleanup)"
                    sent += 1
                    continue
            rec = self._pick(slot)
            if rec is None:
                continue
            folder = self._folder_for(rec)
            self.index.start(rec, slot.member.key, folder)
            order = RunOrder(rec.name, self.specs[rec.name], str(self.index.folder / folder), self.index.runtime,
                             rec.miro, self.offline_grace_s)
            now = time.monotonic()
            self._first = self._first or now
            if slot.last_done is not None:
                self.stats.gap_s += now - slot.last_done
            slot.run, slot.task, slot.session, slot.dispatched = rec.name, "", "", now
            slot.conn.send(("run", order))
            sent += 1
        return sent

    def _folder_for(self, rec: RunRecord) -> str:
        """The run's results folder: its earlier one (resumed from the last completed task), or a new
        one -- also for a Miro run, whose tuner state is not journaled (the old folder is set aside)."""
        if rec.folder and not rec.miro:
            return rec.folder
        if rec.folder:
            old = self.index.folder / rec.folder
            if old.exists():
                aside = self.index.folder / "abandoned" / f"{old.name}-attempt{len(rec.attempts)}"
                aside.parent.mkdir(parents=True, exist_ok=True)
                shutil.move(str(old), str(aside))
        return f"runs/{rec.name}-{time.strftime('%Y%m%d-%H%M%S')}"

    def _receive(self, timeout: float) -> int:
        """Handle what the workers sent within ``timeout``; returns how many messages."""
        conns = {s.conn: s for s in self.slots if s.conn is not None}
        if not conns:
            time.sleep(timeout)
            return 0
        ready = wait(list(conns), timeout)
        for conn in ready:
            slot = conns[conn]
            try:
                msg = conn.recv()
            except (EOFError, OSError):
                self._worker_died(slot)
                continue
            self._handle(slot, msg)
        return len(ready)

    def _worker_died(self, slot: Slot) -> None:
        code = slot.proc.exitcode if slot.proc is not None else None
        if slot.run not in (None, "(cleanup)"):
            self._abandon(slot, "crashed", f"worker exited with code {code}")
        else:
            self._kill(slot, 0.0)
            slot.run = None

    def _handle(self, slot: Slot, msg: tuple) -> None:
        kind = msg[0]
        if kind == "ready":
            slot.ready = True
        elif kind == "cancelled":
            slot.run = None
        elif kind == "task" and msg[1] == slot.run:
            _, _, pos, n, sid = msg
            slot.task, slot.session = f"{pos + 1}/{n}", sid
            rec = self.index.run(slot.run)
            rec.attempts[-1].session = sid
            self.index.save()
        elif kind == "done" and msg[1] == slot.run:
            rec = self.index.run(slot.run)
            now = time.monotonic()
            self.stats.runs += 1
            self.stats.dispatch_to_done_s += now - slot.dispatched
            self.stats.run_s += msg[2]
            self.index.complete(rec, run_result(self.index.folder / rec.folder, msg[2]))
            slot.run, slot.task, slot.session, slot.last_done = None, "", "", now
            self._last = now
        elif kind == "failed" and msg[1] == slot.run:
            rec = self.index.run(slot.run)
            _, _, message, permanent = msg
            if slot.state != READY or pool_states([slot.member])[slot.member.key] != READY:
                outcome, state = "lost", PENDING                    # the phone went away under the run
            elif permanent or len(rec.attempts) >= self.max_attempts:
                outcome, state = "failed", FAILED
            else:
                outcome, state = "failed", PENDING
            self.index.end_attempt(rec, outcome, state, message, slot.session)
            if outcome == "lost" and slot.session:
                slot.stale.append((rec.name, slot.session))
            slot.run, slot.task, slot.session = None, "", ""

    # -- stopping --------------------------------------------------------------------------------------
    def _quit_workers(self) -> None:
        for slot in self.slots:
            if slot.conn is not None and slot.proc is not None and slot.proc.is_alive():
                try:
                    slot.conn.send(("quit",))
                except OSError:
                    pass
        for slot in self.slots:
            if slot.proc is not None:
                slot.proc.join(STOP_TIMEOUT_S)
            self._kill(slot, 0.0)

    def _interrupt(self) -> None:
        """Ctrl-C: stop every worker; the runs they followed stay ``pending`` (their sessions go on)."""
        busy = [s for s in self.slots if s.run not in (None, "(cleanup)")]
        for slot in busy:
            if slot.proc is not None and slot.proc.is_alive():
                os.kill(slot.proc.pid, signal.SIGTERM)
        for slot in busy:
            rec = self.index.run(slot.run)
            if rec.state == RUNNING and rec.result is not None:      # Ctrl-C landed while it was being recorded
                self.index.end_attempt(rec, DONE, DONE)
            elif rec.state == RUNNING:
                self.index.end_attempt(rec, "interrupted", PENDING, "Ctrl-C", slot.session)
                self.interrupted.append((rec, slot))
        for slot in self.slots:
            self._kill(slot, STOP_TIMEOUT_S)
        self.index.save()


def continuing_lines(sched: Scheduler) -> list[str]:
    """After Ctrl-C: where each interrupted run goes on (its session keeps running on the phone)."""
    lines = []
    for rec, slot in sched.interrupted:
        where = f"{slot.member.serial}" + (f" ({slot.member.model})" if slot.member.model else "")
        what = f"session {slot.session} (task {slot.task})" if slot.session else "its preparation (nothing on the phone yet)"
        lines.append(f"{rec.name}: {what} continues on {where}" if slot.session else f"{rec.name}: stopped during {what}")
    return lines
