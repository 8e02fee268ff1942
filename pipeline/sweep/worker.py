"""The worker process of one pool phone: lives as long as the phone is in the pool, runs one run at a
time (``pipeline.recipe.run_spec``, as a black box) and tells the scheduler which task it is on.

Orders (scheduler -> worker): ``("run", RunOrder)``, ``("cancel", [session ids])`` (sessions an earlier,
abandoned attempt left running on this phone), ``("quit",)``. Messages back: ``("ready", pid)``,
``("task", run, position, n_tasks, session_id)``, ``("done", run, seconds)``,
``("failed", run, message, permanent)``, ``("cancelled", n)``. A phone that drops off adb mid-run is
waited for (up to the grace), then the run goes on from its last completed task. A worker ignores
Ctrl-C (the scheduler decides) and unwinds on SIGTERM; its output goes to its own log file.
"""
from __future__ import annotations

import logging
import os
import signal
import sys
import time
import traceback
from dataclasses import dataclass
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from android_harness.pool import READY, PoolMember, pool_states, try_reconnect
from android_harness.session import SessionDriver
from pipeline.config import parse_spec
from pipeline.errors import ConfigError, DataError, EdgeclError, ExportError
from pipeline.recipe import run_spec
from pipeline.run_journal import RunJournal

PERMANENT = (ConfigError, DataError, ExportError)   # the same run fails the same way on any phone
RETRY_POLL_S = 1.0


@dataclass(frozen=True)
class RunOrder:
    name: str
    spec: dict[str, Any]         # the run's resolved spec (``ExperimentSpec.to_dict()``)
    folder: str                  # its results folder (new, or an earlier attempt's to resume)
    runtime: str | None
    miro: bool
    offline_grace_s: float = 30.0   # how long to wait for the phone to come back before giving the run up


def _on_sigterm(_signo: int, _frame: Any) -> None:
    raise SystemExit(143)


def _back(member: PoolMember, within_s: float) -> bool:
    """Whether the phone was offline and is ready again within ``within_s`` (False at once if it never left)."""
    deadline, left = time.monotonic() + within_s, False
    while time.monotonic() < deadline:
        if pool_states([member])[member.key] == READY:
            return left
        left = True
        try_reconnect(member)
        time.sleep(RETRY_POLL_S)
    return False


def execute(member: PoolMember, order: RunOrder, tell: Any) -> float:
    """Run ``order`` on ``member``; when an adb call fails because the phone dropped off and it comes back
    within the grace, go on from the last completed task (a session still on the phone is reattached)
    instead of giving the run up. Returns the wall seconds."""
    t0 = time.perf_counter()
    while True:
        try:
            execute_once(member, order, tell)
            return time.perf_counter() - t0
        except PERMANENT:
            raise
        except EdgeclError as exc:
            if order.miro or not _back(member, order.offline_grace_s):
                raise
            print(f"phone back after: {exc}; resuming from the last completed task", flush=True)


def execute_once(member: PoolMember, order: RunOrder, tell: Any) -> None:
    """Run (or resume) ``order`` on ``member`` once."""
    spec = parse_spec(order.spec, source=f"run {order.name}")
    device = member.open(spec.device.profile)
    folder = Path(order.folder)
    journal = RunJournal(folder, movable=not order.miro,
                         on_task=lambda i, n, sid: tell(("task", order.name, i, n, sid)))
    run_spec(spec, device, folder.parent, runtime=order.runtime, progress=False, journal=journal)


def cancel_sessions(member: PoolMember, session_ids: list[str]) -> int:
    """Cancel sessions an abandoned attempt left on this phone (their runs finished elsewhere)."""
    driver = SessionDriver(member.open())
    running = {r["session_id"] for r in driver.list_sessions() if r["status"] == "running"}
    hit = [sid for sid in session_ids if sid in running]
    for sid in hit:
        driver.cancel(driver.attach(sid))
    return len(hit)


def worker_main(member: PoolMember, conn: Connection, log_path: str) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _on_sigterm)
    fd = os.open(log_path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    os.dup2(fd, 1)
    os.dup2(fd, 2)
    logging.basicConfig(level=logging.INFO, stream=sys.stderr, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    print(f"worker {os.getpid()} for {member.key}", flush=True)
    conn.send(("ready", os.getpid()))
    while True:
        order = conn.recv()
        if order[0] == "quit":
            return
        if order[0] == "cancel":
            try:
                conn.send(("cancelled", cancel_sessions(member, order[1])))
            except EdgeclError as exc:
                print(f"cancel failed: {exc}", flush=True)
                conn.send(("cancelled", 0))
            continue
        run: RunOrder = order[1]
        print(f"run {run.name} -> {run.folder}", flush=True)
        try:
            conn.send(("done", run.name, execute(member, run, conn.send)))
        except PERMANENT as exc:
            conn.send(("failed", run.name, str(exc), True))
        except EdgeclError as exc:
            conn.send(("failed", run.name, str(exc), False))
        except Exception as exc:   # a bug: say so with its traceback, let the scheduler decide
            traceback.print_exc()
            conn.send(("failed", run.name, f"{type(exc).__name__}: {exc} (traceback in {log_path})", False))
