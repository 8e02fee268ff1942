"""The persistent runner: one process serves many sessions back to back (``edgecl_device.pyz serve QUEUE``).

Starting a runner per session imports the runtime and loads the program every time (seconds, while a
short profiling session trains for less than one); Miro runs dozens of such sessions. The server pays
that once: it polls ``<storage_root>/runner/queue`` for entries (a file named after the session whose
content is the session folder; the host writes it temp-then-rename), runs each session exactly as
``run`` does (same session folder, events.jsonl, checkpoints, result.json, ``runner.pid`` = the
server's pid, stderr into the session's ``runner.log``), and keeps loaded backends by model folder:
a later session on the same program gets it back ``reset()`` to the export's initial state (its
checkpoint, if any, is then loaded as usual), so sessions stay isolated; every RNG, the replay store
and the event log are the session's own, as in ``run``.

Cancel: the host creates ``<session>/cancel`` and sends SIGTERM. SIGTERM only acts on the session
that is running and has the marker (it stops at the next step, checkpoints, status "cancelled"); a
queued session with the marker ends "cancelled" when its turn comes, without training.
One server per storage root (an flock on ``runner/server.lock``); its pid is in ``runner/server.pid``
and ``runner/server.json`` is a heartbeat (pid, time, current session, sessions served). It exits
after ``idle_s`` without work; a changed zip makes it re-exec itself before the next session.

A full disk before a session starts: a session cannot write anything on a disk that filled up after
the host queued it (its own 64 KB reserve, disk_space.py, is never made), so the server holds one of its
own, ``runner/server.reserve`` (64 KB of zeros, taken at start and again, at most every second, while it
is missing). When a session ends without result.json, the server frees that reserve and writes the
session's end into its space: an ``error`` event (phase "server") and ``session_end`` unless the log
already ends with one, and the session's result (status error, the one-line cause ``No space left on
device on <path>: free X, needed Y``), so the host reports it at once. It takes the reserve again once
64 KB are free and serves on. A server started on a disk already full holds none until 64 KB are free
(the host's precheck refuses a session that will not fit before queueing it). The native runner's
server.cpp does the same.
"""
from __future__ import annotations

import contextlib
import fcntl
import json
import os
import signal
import sys
import threading
import time
import traceback
from collections import OrderedDict

from android_harness.device.disk_space import SpaceReserve
from android_harness.device.errors import NoSpaceError
from android_harness.device.events import EventLog, monotonic, process_start
from android_harness.device.fileio import write_text_atomic
from android_harness.device.runner import Runner, describe_error, to_stderr, write_result

IDLE_EXIT_S = 120.0
POLL_S = 0.05
HEARTBEAT_S = 1.0
LOCK_WAIT_S = 5.0
CACHE_SIZE = 4
CANCEL_MARKER = "cancel"
SERVER_PID = "server.pid"
SERVER_STATE = "server.json"
SERVER_LOCK = "server.lock"
SERVER_RESERVE = "server.reserve"
RESERVE_RETRY_S = 1.0


def queue_entries(queue_dir: str) -> list[str]:
    """Entry names, oldest first (temp files, whose names start with a dot, are not entries yet)."""
    try:
        names = [n for n in os.listdir(queue_dir) if not n.startswith(".") and not n.endswith(".tmp")]
    except FileNotFoundError:
        return []
    stamped = []
    for n in names:
        try:
            stamped.append((os.stat(os.path.join(queue_dir, n)).st_mtime_ns, n))
        except FileNotFoundError:
            continue
    return [n for _, n in sorted(stamped)]


class BackendCache:
    """Loaded backends by model folder (and its manifest's mtime/size), least recently used evicted."""

    def __init__(self, size: int = CACHE_SIZE) -> None:
        self.size = size
        self._items: OrderedDict[tuple, object] = OrderedDict()
        self.loads = 0
        self.reuses = 0

    @staticmethod
    def _key(model_dir: str) -> tuple:
        st = os.stat(os.path.join(model_dir, "manifest.json"))
        return os.path.realpath(model_dir), st.st_mtime_ns, st.st_size

    def get(self, model_dir: str):
        from android_harness.device.backends import load_backend

        key = self._key(model_dir)
        backend = self._items.pop(key, None)
        if backend is not None:
            backend.reset()
            self.reuses += 1
        else:
            backend = load_backend(model_dir)
            self.loads += 1
        self._items[key] = backend
        while len(self._items) > self.size:
            self._items.popitem(last=False)
        return backend

    def drop(self, model_dir: str) -> None:
        """Forget a backend whose session failed: its state is not trusted for the next one."""
        real = os.path.realpath(model_dir)
        for key in [k for k in self._items if k[0] == real]:
            del self._items[key]


class Server:
    """Serves the sessions queued in ``queue_dir`` until ``idle_s`` pass without one."""

    def __init__(self, queue_dir: str, idle_s: float = IDLE_EXIT_S, code_path: str | None = None) -> None:
        self.queue = os.path.abspath(queue_dir)
        self.home = os.path.dirname(self.queue)
        self.idle_s = idle_s
        self.cache = BackendCache()
        self.current: Runner | None = None
        self.served = 0
        self.started = monotonic()
        self.code_path = code_path
        self._code_stamp = self._stamp()
        self._lock_fd: int | None = None
        self._stop = threading.Event()
        self.reserve: SpaceReserve | None = None
        self._reserve_tried = float("-inf")

    # -- lifecycle -----------------------------------------------------------------------------
    def _stamp(self) -> tuple | None:
        if not self.code_path:
            return None
        try:
            st = os.stat(self.code_path)
        except FileNotFoundError:
            return None
        return st.st_mtime_ns, st.st_size

    def _acquire(self) -> bool:
        """Take the storage root's server lock; another live server keeps it and this one exits."""
        os.makedirs(self.queue, exist_ok=True)
        fd = os.open(os.path.join(self.home, SERVER_LOCK), os.O_RDWR | os.O_CREAT, 0o644)
        deadline = time.monotonic() + LOCK_WAIT_S
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                self._lock_fd = fd
                return True
            except BlockingIOError:
                if time.monotonic() > deadline:
                    os.close(fd)
                    return False
                time.sleep(0.1)

    def _keep_reserve(self, now: bool = False) -> None:
        """Hold ``runner/server.reserve``; while the disk is too full for it, try again at most every
        RESERVE_RETRY_S (``now``: at once)."""
        if self.reserve is not None or (not now and monotonic() - self._reserve_tried < RESERVE_RETRY_S):
            return
        self._reserve_tried = monotonic()
        try:
            self.reserve = SpaceReserve(os.path.join(self.home, SERVER_RESERVE))
        except (OSError, NoSpaceError):
            self.reserve = None

    def _publish(self) -> None:
        write_text_atomic(os.path.join(self.home, SERVER_PID), str(os.getpid()))

    def _unpublish(self) -> None:
        try:
            os.remove(os.path.join(self.home, SERVER_PID))
        except FileNotFoundError:
            pass

    def _write_state(self) -> None:
        cur = self.current
        state = {"pid": os.getpid(), "t": monotonic(), "started": self.started, "served": self.served,
                 "session": cur.spec.session_id if cur is not None else None,
                 "backend_loads": self.cache.loads, "backend_reuses": self.cache.reuses}
        try:
            write_text_atomic(os.path.join(self.home, SERVER_STATE), json.dumps(state))
        except OSError:
            pass

    def _heartbeat(self) -> None:
        while not self._stop.is_set():
            self._write_state()
            self._stop.wait(HEARTBEAT_S)

    def _on_sigterm(self, signum, frame) -> None:
        cur = self.current
        if cur is not None and os.path.exists(os.path.join(cur.dir, CANCEL_MARKER)):
            cur.cancel_requested = True

    def serve(self) -> int:
        if not self._acquire():
            print(f"another server holds {self.home}/{SERVER_LOCK}; exiting", file=sys.stderr)
            return 0
        signal.signal(signal.SIGTERM, self._on_sigterm)
        if hasattr(signal, "SIGHUP"):
            signal.signal(signal.SIGHUP, signal.SIG_IGN)
        self._publish()
        self._keep_reserve(now=True)
        beat = threading.Thread(target=self._heartbeat, name="heartbeat", daemon=True)
        beat.start()
        last_work = monotonic()
        try:
            while True:
                self._keep_reserve()
                entries = queue_entries(self.queue)
                if entries and self._stamp() != self._code_stamp:
                    self._reexec()
                if entries:
                    self._serve_entry(entries[0])
                    last_work = monotonic()
                    continue
                if monotonic() - last_work > self.idle_s:
                    self._unpublish()
                    if queue_entries(self.queue):  # a host enqueued while we were deciding: keep serving
                        self._publish()
                        continue
                    return 0
                time.sleep(POLL_S)
        finally:
            self._stop.set()
            self._unpublish_if_mine()
            if self.reserve is not None:
                self.reserve.release()

    def _unpublish_if_mine(self) -> None:
        try:
            with open(os.path.join(self.home, SERVER_PID)) as f:
                mine = f.read().strip() == str(os.getpid())
        except FileNotFoundError:
            return
        if mine:
            self._unpublish()

    def _reexec(self) -> None:
        """The zip changed on disk (a new deploy): start over with the new code, same pid."""
        self._stop.set()
        self._unpublish()
        if self._lock_fd is not None:
            os.close(self._lock_fd)
        sys.stderr.flush()
        os.execv(sys.executable, [sys.executable, self.code_path, "serve", self.queue, str(self.idle_s)])

    # -- one session ---------------------------------------------------------------------------
    def _serve_entry(self, name: str) -> None:
        path = os.path.join(self.queue, name)
        try:
            queued = monotonic() - max(0.0, time.time() - os.stat(path).st_mtime)
            with open(path) as f:
                session_dir = f.read().strip()
            os.remove(path)  # claimed: the queue has one reader (the lock holder)
        except FileNotFoundError:
            return
        # the first session pays this server's start (interpreter, imports), never time before it was queued
        launched = max(process_start(), queued) if self.served == 0 else None
        if not os.path.isfile(os.path.join(session_dir, "session.json")):
            print(f"queue entry {name}: no session.json in {session_dir!r}; skipped", file=sys.stderr)
            return
        self._keep_reserve(now=True)
        with contextlib.suppress(OSError):  # on a full disk the host's copy (the same pid) stands
            write_text_atomic(os.path.join(session_dir, "runner.pid"), str(os.getpid()))
        try:
            log: int | None = os.open(os.path.join(session_dir, "runner.log"), os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
        except OSError:
            log = None  # its stderr stays the server's
        saved_err = os.dup(2)
        to_stderr(sys.stderr.flush)
        if log is not None:
            os.dup2(log, 2)
        try:
            result = self._run_session(session_dir, launched)
        except Exception as exc:  # whatever one session hits (a full disk on close), the server serves the next
            to_stderr(lambda: traceback.print_exc(file=sys.stderr))
            result = error_result(session_dir, describe_error(exc, session_dir))
        finally:
            to_stderr(sys.stderr.flush)
            os.dup2(saved_err, 2)
            os.close(saved_err)
            if log is not None:
                os.close(log)
        if not os.path.exists(os.path.join(session_dir, "result.json")):
            self._write_end(session_dir, result)
        self.served += 1
        self._write_state()

    def _run_session(self, session_dir: str, launched: float | None) -> dict:
        """The session's result (written by the runner, or not when the disk had no room for it)."""
        try:
            runner = Runner(session_dir, backend_factory=self.cache.get)
        except Exception as exc:  # unreadable session.json: the host learns it from result.json, as from run
            traceback.print_exc(file=sys.stderr)
            result = error_result(session_dir, f"{type(exc).__name__}: {exc}")
            self._write_end(session_dir, result, phase="setup")
            return result
        self.current = runner
        try:
            if os.path.exists(os.path.join(session_dir, CANCEL_MARKER)):
                runner.cancel_requested = True
            result = runner.run(handle_sigterm=False, launched=launched)
        finally:
            self.current = None
        if result["status"] != "ok":
            self.cache.drop(runner.spec.resolve(runner.storage_root, runner.spec.model_dir))
        return result

    def _write_end(self, session_dir: str, result: dict, phase: str = "server") -> None:
        """The end a session could not write (events, result.json; ``phase``: of its error event), in the
        space of the server's reserve; what does not fit even then goes to the server's stderr only."""
        if self.reserve is not None:
            self.reserve.release()
            self.reserve = None
        error = result.get("error")
        to_stderr(lambda: print(f"edgecl-runner: {session_dir}: {error or result['status']}", file=sys.stderr, flush=True))
        try:
            log = EventLog(os.path.join(session_dir, "events.jsonl"))
            if log.last_type != "session_end":
                if error and log.last_type != "error":    # the session's own may be written
                    log.emit("error", phase=phase, message=error)
                log.emit("session_end", status=result["status"])
            log.close()
            write_result(session_dir, result)
        except (OSError, NoSpaceError) as exc:
            why = describe_error(exc, session_dir)
            to_stderr(lambda: print(f"edgecl-runner: {session_dir}: its end was not written: {why}", file=sys.stderr,
                                    flush=True))
        self._keep_reserve(now=True)


def error_result(session_dir: str, message: str) -> dict:
    """result.json of a session that failed before its runner could say more."""
    now = monotonic()
    return {"session_id": os.path.basename(session_dir), "status": "error", "error": message, "kind": None,
            "tasks": [], "iterations": 0, "evals": [], "checkpoint": None, "t_start": now, "t_end": now}
