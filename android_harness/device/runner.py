"""The session runner: executes one ``session.json`` with the engine, writes events, checkpoints, result.json.

A session trains its ``tasks`` in order. It starts from its own latest checkpoint when it has one
(a restart after a kill continues bit-identically), else from ``resume_from`` (the previous
session's task-end checkpoint: one session per task, as ``edgecl run`` does), else from the
export's initial state. A checkpoint is written every ``checkpoint_every`` steps and at every task
end; SIGTERM stops at the next step boundary with a checkpoint and status "cancelled".
"""
from __future__ import annotations

import contextlib
import json
import os
import signal
import sys
import traceback
from pathlib import Path
from typing import Callable

from android_harness.device import resources
from android_harness.device.backends.base import TrainingBackend
from android_harness.device.checkpoint import latest_checkpoint, load_checkpoint, save_checkpoint
from android_harness.device.engine import Engine, EngineObserver
from android_harness.device.engine_state import restore, snapshot
from android_harness.device.disk_space import SpaceReserve, is_full, no_space_error
from android_harness.device.errors import CancelledError, NoSpaceError
from android_harness.device.events import HEARTBEAT_S, EventLog, Heartbeat, monotonic
from android_harness.device.methods import method
from android_harness.device.replay import RecordFormat, StorageTier
from android_harness.device.session_spec import SessionSpec, read_spec
from android_harness.device.task_data import TaskData
from android_harness.device.trace import Trace

BackendFactory = Callable[[str], TrainingBackend]
RESERVE_FILE = "runner.reserve"     # the error path's space (disk_space.py), as the native runner's


def _load_backend(model_dir: str) -> TrainingBackend:
    from android_harness.device.backends import load_backend

    return load_backend(model_dir)


class Runner:
    """One session. ``run()`` returns the result dict it also writes to ``result.json``."""

    def __init__(self, session_dir: str, backend_factory: BackendFactory = _load_backend,
                 observer: EngineObserver | None = None) -> None:
        self.dir = os.path.abspath(session_dir)
        self.storage_root = os.path.dirname(os.path.dirname(self.dir))
        self.spec: SessionSpec = read_spec(self.dir)
        self.log = EventLog(os.path.join(self.dir, "events.jsonl"))
        self.backend_factory, self.observer = backend_factory, observer
        self.cancel_requested = False
        self.ckpt_dir = os.path.join(self.dir, "checkpoints")
        self.engine: Engine | None = None
        self.storage: StorageTier | None = None
        self._last_resources = 0.0

    def _path(self, p: str) -> str:
        return self.spec.resolve(self.storage_root, p)

    def _setup(self) -> None:
        spec = self.spec
        data = TaskData(self._path(spec.data_dir))
        backend = self.backend_factory(self._path(spec.model_dir))
        sig = backend.signature
        n_logits = sig.num_classes if method(spec.train.method).stores_logits else 0
        self.storage = StorageTier(self._path(spec.replay_dir), RecordFormat(tuple(sig.inputs[0].shape[1:]), n_logits),
                                   int(spec.replay.storage_budget_mb * 1024 * 1024), read_only=spec.kind == "profiling")
        trace = Trace(os.path.join(self.dir, "trace.jsonl"), spec.trace)
        self.engine = Engine(spec, backend, data, self.storage, self.log, trace, self.observer)

    def _restore(self) -> tuple[str | None, bool]:
        """Load the own latest checkpoint, else ``resume_from``; returns (path, own)."""
        own = latest_checkpoint(self.ckpt_dir)
        path = own or (self._path(self.spec.resume_from) if self.spec.resume_from else None)
        engine = self.engine
        if path is None:                       # the export's initial state: nothing stored yet
            if self.spec.kind == "task":
                self.storage.truncate_to({})
            engine.trace.reset_to(0)
            return None, False
        state, arrays = load_checkpoint(path)
        if self.spec.kind == "task":
            self.storage.truncate_to(state["storage_position"])
        restore(engine, state, arrays, own is not None, path)
        runtime = Path(path) / "runtime"
        if runtime.is_dir():
            engine.backend.load_runtime_state(runtime)
        engine.trace.reset_to(int(state["trace_bytes"]) if own is not None else 0)
        return path, own is not None

    def checkpoint(self) -> None:
        engine = self.engine
        engine.apply_swap()
        state, arrays = snapshot(engine)
        path = save_checkpoint(self.ckpt_dir, engine.pos.iteration, state, arrays,
                               lambda folder: engine.backend.save_runtime_state(Path(folder)), keep=self.spec.keep_checkpoints)
        self.log.emit("checkpoint", path=os.path.relpath(path, self.storage_root), step=engine.pos.iteration)

    def _after_step(self, last_of_task: bool) -> None:
        every = self.spec.checkpoint_every
        now = monotonic()
        if now - self._last_resources >= self.spec.resources_every_s:
            self._last_resources = now
            self.log.emit("resources", **resources.probe(self.spec.meminfo_path, self.dir, self.storage.root))
        if self.cancel_requested or (every and self.engine.pos.iteration % every == 0 and not last_of_task):
            self.checkpoint()
            if self.cancel_requested:
                raise CancelledError("SIGTERM")

    def _train(self, task: int, started: bool) -> None:
        engine = self.engine
        if not started:
            engine.start_task(task)
        self.log.emit("task_start", task=task, classes=engine.data.classes(task).tolist(), n_train=int(engine.sb.size))
        engine.train_task(self._after_step)
        engine.finish_task()
        if self.spec.checkpoint_at_task_end:
            self.checkpoint()
        if self.cancel_requested:
            raise CancelledError("SIGTERM")

    def _on_sigterm(self, signum, frame) -> None:
        self.cancel_requested = True

    def run(self, handle_sigterm: bool = True, launched: float | None = None) -> dict:
        """Run the session. ``handle_sigterm=False``: the caller (the persistent runner) owns SIGTERM and sets
        ``cancel_requested``; a session cancelled before it started ends at once with status "cancelled".
        ``launched``: CLOCK_MONOTONIC of this runner's start (a one-shot runner: its process start), the
        start of its program load; default now (the persistent runner takes the session now)."""
        if handle_sigterm:
            signal.signal(signal.SIGTERM, self._on_sigterm)
        started = monotonic()
        launched = started if launched is None else min(float(launched), started)
        status, error = "ok", None
        beat = Heartbeat(self.log, HEARTBEAT_S)
        reserve: SpaceReserve | None = None
        try:
            if self.cancel_requested:
                raise CancelledError("cancelled before the session started")
            reserve = SpaceReserve(os.path.join(self.dir, RESERVE_FILE))
            self._setup()
            resumed, own = self._restore()
            engine = self.engine
            self.log.emit("session_start", session_id=self.spec.session_id, runtime=engine.backend.runtime, pid=os.getpid(),
                          kind=self.spec.kind, resumed_from=resumed, device=resources.probe(self.spec.meminfo_path),
                          t_launch=round(launched, 6), heartbeat_s=beat.period_s)
            beat.start()
            tasks, p = self.spec.tasks, engine.pos
            todo = list(tasks)
            if own and p.task in tasks:
                i = tasks.index(p.task)
                if not p.task_finished:
                    self._train(p.task, started=True)
                todo = tasks[i + 1:]
            for task in todo:
                self._train(task, started=False)
        except CancelledError:
            status = "cancelled"
        except Exception as exc:  # the host learns about every failure from the log and result.json
            status, error = "error", describe_error(exc, self.dir)
            to_stderr(lambda: traceback.print_exc(file=sys.stderr))
        finally:
            beat.stop()
            if self.engine is not None:
                self.engine.close()
            if self.storage is not None:
                self.storage.close()
            if reserve is not None:
                reserve.release()       # the error path's writes below fit on a disk the session filled
        return self._finish(status, error, started)

    def _finish(self, status: str, error: str | None, started: float) -> dict:
        """The error event, ``session_end`` and result.json; what a full disk refuses still reaches stderr
        (runner.log) as the one-line cause, and the runner lives on (the persistent runner serves the next)."""
        engine = self.engine
        result = {"session_id": self.spec.session_id, "status": status, "error": error, "kind": self.spec.kind,
                  "tasks": self.spec.tasks, "iterations": engine.pos.iteration if engine else 0,
                  "evals": engine.pos.evals if engine else [], "checkpoint": latest_checkpoint(self.ckpt_dir),
                  "t_start": started, "t_end": monotonic()}
        if result["checkpoint"]:
            result["checkpoint"] = os.path.relpath(result["checkpoint"], self.storage_root)
        if error is not None:
            to_stderr(lambda: print(f"edgecl-runner: {error}", file=sys.stderr, flush=True))
        try:
            if error is not None:
                self.log.emit("error", phase="training", message=error)
            elif status == "ok":   # a session that trained ends with a probe: its peak RSS known however short it was
                self.log.emit("resources", **resources.probe(self.spec.meminfo_path, self.dir, self.storage.root))
            self.log.emit("session_end", status=status)
            self.log.close()
            write_result(self.dir, result)
        except (OSError, NoSpaceError) as exc:
            why = describe_error(exc, self.dir)
            to_stderr(lambda: print(f"edgecl-runner: the session's end was not written: {why}", file=sys.stderr, flush=True))
        return result


def describe_error(exc: BaseException, where: str) -> str:
    """The one-line cause: a full disk as ``No space left on device on <path>: ...``, else ``Type: message``."""
    if isinstance(exc, NoSpaceError):
        return str(exc)
    if is_full(exc):
        return str(no_space_error(getattr(exc, "filename", None) or where, None))
    return f"{type(exc).__name__}: {exc}"


def to_stderr(write: Callable[[], None]) -> None:
    """stderr is runner.log, on the disk that may be full: what does not fit is dropped, never raised."""
    try:
        write()
    except OSError:
        pass


def write_result(session_dir: str, result: dict) -> None:
    """Temp-then-rename with fsync: its presence means the session is over (a temp a full disk cut is removed)."""
    path = os.path.join(session_dir, "result.json")
    try:
        with open(path + ".tmp", "w") as f:
            json.dump(result, f, indent=1)
            f.flush()
            os.fsync(f.fileno())
    except OSError:
        with contextlib.suppress(OSError):
            os.remove(path + ".tmp")
        raise
    os.replace(path + ".tmp", path)
