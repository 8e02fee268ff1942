"""Host-side session driver: start a runner detached on the device, stream its events, reattach, cancel, collect.

Everything the host learns comes from files under ``<storage_root>/sessions/<id>/`` (docs/contracts.md):
events are read by byte offset from ``events.jsonl`` (``tail -c +N``), only complete lines count,
and sequence numbers are checked, so a lost connection or a host restart never loses or repeats
an event. The runner lives in its own session (setsid/nohup), so an adb disconnect, an adb server
restart or a host crash does not stop it; ``attach`` picks it up again by session id.

With ``served=True`` sessions go to the device's persistent runner (``android_harness.device.server``):
the host writes a queue entry and starts the server if none is live, so the runtime import and the
program load are paid once for many sessions. The session folder contract is the same either way;
``runner.pid`` then holds the server's pid, and cancel also creates the session's ``cancel`` marker
(the server acts on SIGTERM only for a session that has it; a queued one ends "cancelled" unrun).
"""
from __future__ import annotations

import io
import json
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, TypeVar

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from android_harness.android_device import AndroidDevice
from android_harness.device.session_spec import SessionSpec
from android_harness.runner_choice import RunnerChoice, default_runner
from android_harness import device_scripts as scripts
from android_harness.device_scripts import OUT_MARK
from android_harness.shell_quote import join
from android_harness.device.errors import ConfigError
from android_harness.errors import READ_ONLY, AdbError, DeviceError, SessionError
from android_harness.link import RECONNECT_TIMEOUT_S, through_drops

T = TypeVar("T")

REMOTE_QUEUE = "runner/queue"
SERVER_PID = "runner/server.pid"
SERVER_STATE = "runner/server.json"
SERVER_IDLE_S = 120.0
CANCEL_MARKER = "cancel"
START_TIMEOUT_S = 30.0
POLL_S = 0.5
END_GRACE_S = 3.0        # after result.json (or the runner's exit), time for its last events to appear
STOPPED_MAX_S = 10.0     # a runner paused (SIGSTOP) longer than this ends the stream, the session left paused
PAUSED_LIMIT_ENV = "EDGECL_PAUSED_LIMIT_S"   # seconds, for one who pauses a runner on purpose (a debugger)
SILENT_MIN_S = 300.0     # a live runner silent longer than this (and 20x its longest gap so far) is hung


@dataclass
class SessionHandle:
    """A session on a device; ``offset``/``next_seq`` say how far the host has read its events."""

    session_id: str
    remote_dir: str
    pid: int | None = None
    offset: int = 0
    next_seq: int = 0
    events: list[dict] = field(default_factory=list)
    result: dict | None = None


@dataclass
class Poll:
    events: list[dict]
    alive: bool
    result: dict | None
    state: str = "R"               # the runner's /proc state letter (R, S, D, T...), or "dead"
    events_size: int | None = 0    # bytes of events.jsonl, None when the file is missing
    truncated: bool = False        # events.jsonl is shorter than what the host had already read


def paused_limit_s() -> float:
    """How long a stream waits on a paused runner before it ends saying how to continue it:
    ``$EDGECL_PAUSED_LIMIT_S`` seconds when set, else STOPPED_MAX_S."""
    value = os.environ.get(PAUSED_LIMIT_ENV, "")
    if not value:
        return STOPPED_MAX_S
    try:
        limit = float(value)
    except ValueError:
        limit = -1.0
    if not limit > 0:
        raise ConfigError(f"{PAUSED_LIMIT_ENV}={value!r}: a number of seconds above 0; unset it for {STOPPED_MAX_S:.0f} s")
    return limit


@dataclass
class _Watchdog:
    """Decides when a session that has not ended never will: the runner died, stayed stopped, went
    silent (no event but heartbeats) longer than any gap it showed before (and at least
    ``SILENT_MIN_S``), or its events.jsonl was removed or truncated. Returns (phase, cause, message) or None."""

    adb_prefix: str = "adb"          # the adb command line that reaches this phone (its server and serial)
    last_progress: float = field(default_factory=time.monotonic)
    longest_gap: float = 0.0
    stopped_since: float | None = None
    done_since: float | None = None

    def check(self, handle: SessionHandle, p: Poll) -> tuple[str, str, str] | None:
        now = time.monotonic()
        if any(e["type"] != "heartbeat" for e in p.events):   # a hung runner's heartbeat thread still beats
            self.longest_gap = max(self.longest_gap, now - self.last_progress)
            self.last_progress = now
        read = f"the host had read {len(handle.events)} events (to seq {handle.next_seq - 1})"
        if p.truncated:
            return "protocol", "events_truncated", f"events.jsonl shrank to {p.events_size} bytes below the {handle.offset} already read; {read}" + _status(p.result)
        if p.events_size is None and (handle.offset or p.result is not None):
            return "protocol", "events_missing", f"events.jsonl is missing on the device; {read}" + _status(p.result)
        if p.result is not None or not p.alive:
            self.done_since = self.done_since or now
            if now - self.done_since > END_GRACE_S:  # the runner ended but its last events never came
                if p.result is None:
                    return "died", "exited", f"runner exited without result.json; {read}"
                return "protocol", "no_session_end", f"result.json is written but events.jsonl ends without session_end; {read}" + _status(p.result)
            return None
        self.done_since = None
        if p.state in ("T", "t"):
            self.stopped_since = self.stopped_since or now
            if now - self.stopped_since > paused_limit_s():
                return "paused", "paused", (f"runner pid {handle.pid} is paused (SIGSTOP) for {now - self.stopped_since:.0f} s "
                                            f"and left so; `{self.adb_prefix} shell kill -CONT {handle.pid}` continues it "
                                            f"(a run then goes on with --resume: it follows this session, nothing is lost), "
                                            f"`edgecl cancel {handle.session_id}` ends it")
            return None
        self.stopped_since = None
        silent, bound = now - self.last_progress, max(SILENT_MIN_S, 20 * self.longest_gap)
        if silent > bound:
            return "died", "silent", f"runner pid {handle.pid} is alive (state {p.state}) but wrote no event for {silent:.0f} s; {read}"
        return None


def log_summary(text: str) -> str:
    """A device log's lines as one line for a message: a Python traceback's frames dropped (its last line,
    the error, stays), the rest joined with " / "."""
    lines = [ln.strip() for ln in text.splitlines()
             if ln.strip() and not ln.startswith((" ", "\t", "Traceback (most recent call last)"))]
    return " / ".join(lines)


def _status(result: dict | None) -> str:
    return f"; result.json says status {result.get('status')!r}" if result else ""


class SessionDriver:
    """Sessions on one device. ``reconnect`` (optional) is called after adb fails, e.g. to re-``adb connect``."""

    def __init__(self, device: AndroidDevice, reconnect: Callable[[], None] | None = None, served: bool = False,
                 runner: RunnerChoice | None = None) -> None:
        self.device = device
        self.reconnect = reconnect
        self.served = served
        self.runner = runner or default_runner(device.profile)

    def remote_dir(self, session_id: str) -> str:
        return self.device.storage_path("sessions", session_id)

    # -- start / attach ----------------------------------------------------------------------
    def start(self, spec: SessionSpec) -> SessionHandle:
        """Write ``session.json`` and launch the runner detached; returns once it is running."""
        d = self.device
        rdir = self.remote_dir(spec.session_id)
        runner_path = d.storage_path(self.runner.remote)
        check = d.batch([["mkdir", "-p", rdir], ["test", "-e", f"{rdir}/result.json"], ["test", "-f", runner_path]],
                        check=False, idempotent=True)
        if not check[0].ok:
            if READ_ONLY in check[0].stderr:      # the storage, not this session: AdbError says so and the way on
                raise AdbError(d.serial, check[0].cmd, check[0].exit_code, check[0].stdout, check[0].stderr)
            raise SessionError("precheck", f"cannot create {rdir}: {check[0].stderr.strip()}", spec.session_id)
        if check[1].ok:
            raise SessionError("precheck", "this session already finished (result.json exists); use a new id", spec.session_id)
        if not check[2].ok:
            raise SessionError("precheck", f"{runner_path} missing: deploy the {self.runner.kind} runner first", spec.session_id)
        spec.validate()
        d.adb.push(io.BytesIO(json.dumps(spec.to_json(), indent=1).encode()), f"{rdir}/session.json.tmp")
        return self._launch(spec.session_id, scripts.publish_spec(rdir))

    def clear_unfollowed(self, session_id: str) -> None:
        """Before a session starts, and its power sampler with it (the sampler writes into the session's
        folder): remove what an earlier attempt left on the device that is not to be followed, a session
        that ended otherwise than ok. One still running or finished ok is kept for ``start_or_attach``."""
        rdir = self.remote_dir(session_id)
        probe = self.device.shell(scripts.probe_session(rdir), idempotent=True)
        head, _, result_text = probe.stdout.partition("\n")
        if head == "spec" and (not result_text.strip() or json.loads(result_text).get("status") == "ok"):
            return
        if probe.stdout.strip():
            self.device.shell(["rm", "-rf", rdir])

    def start_or_attach(self, spec: SessionSpec) -> SessionHandle:
        """Start the session -- or, when the device already has it, attach to it: a resumed run's session
        still running or finished ok (``clear_unfollowed`` removed any other), or one whose start the link
        cut short, is followed to its end, never run twice (one whose runner died is then relaunched from
        its own checkpoint by the caller)."""
        rdir = self.remote_dir(spec.session_id)
        probe = self.device.shell(scripts.has_spec(rdir), idempotent=True)
        if probe.stdout.strip() == "spec":
            return self.attach(spec.session_id)
        return self.start(spec)

    def relaunch(self, handle: SessionHandle) -> SessionHandle:
        """Start the runner again on a session whose runner died: it resumes from its latest checkpoint
        and continues the same events.jsonl (the sequence goes on where the complete lines end)."""
        self._launch(handle.session_id, scripts.clear_end(handle.remote_dir, CANCEL_MARKER))
        return self.attach(handle.session_id, handle)

    def _launch(self, session_id: str, prelude: str) -> SessionHandle:
        if self.served:
            return self._submit(session_id, prelude)
        d = self.device
        rdir = self.remote_dir(session_id)
        cmd = join(self.runner.argv(d.storage_path(self.runner.remote), "run", rdir))
        d.shell(scripts.launch(prelude, rdir, d.profile.storage_root, cmd, START_TIMEOUT_S), timeout=START_TIMEOUT_S + 20)
        return self._attach_started(session_id, rdir + "/runner.log", "runner")

    def _server(self) -> scripts.Server:
        """This device's persistent runner."""
        d = self.device
        queue = d.storage_path(REMOTE_QUEUE)
        serve = join(self.runner.argv(d.storage_path(self.runner.remote), "serve", queue, f"{SERVER_IDLE_S:g}"))
        return scripts.Server(queue, d.profile.storage_root, serve, d.storage_path("runner/server.log"),
                              d.storage_path(SERVER_PID))

    def start_server(self) -> None:
        """The persistent runner started now when none is live, ahead of the sessions it will serve (whose
        energy then does not include its start)."""
        server = self._server()
        if self.device.shell(scripts.start_server(server, START_TIMEOUT_S), timeout=START_TIMEOUT_S + 20).stdout.strip() != "live":
            log = self.device.shell(scripts.log_tails([server.log], 20), check=False).stdout.strip()
            raise DeviceError(self.device.serial, f"the persistent runner did not start within {START_TIMEOUT_S:g} s"
                              + (f": {log}" if log else ""))

    def _submit(self, session_id: str, prelude: str) -> SessionHandle:
        """Queue the session for the persistent runner (temp-then-rename), starting the server when none is
        live; one shell round trip. ``runner.pid`` gets the server's pid at once (the server writes it again
        when the session's turn comes)."""
        server = self._server()
        self.device.shell(scripts.submit(prelude, self.remote_dir(session_id), session_id, server, START_TIMEOUT_S),
                          timeout=START_TIMEOUT_S + 20)
        return self._attach_started(session_id, server.log, "the persistent runner")

    def _attach_started(self, session_id: str, log_path: str, what: str) -> SessionHandle:
        """Attach to a session just started; one that left no pid is a start error quoting the log's tail."""
        handle = self.attach(session_id)
        if handle.pid is None:
            log = self.device.shell(scripts.log_tails([log_path], 20), check=False).stdout.strip()
            raise SessionError("start", f"{what} did not start within {START_TIMEOUT_S:g} s" + (f": {log}" if log else ""),
                               session_id)
        return handle

    def attach(self, session_id: str, handle: SessionHandle | None = None) -> SessionHandle:
        """A handle for an existing session (after a host or adb restart); reads no events yet."""
        rdir = self.remote_dir(session_id)
        res = self.device.shell(scripts.read_pid(rdir), check=False, idempotent=True)
        pid = int(res.stdout.strip()) if res.stdout.strip().isdigit() else None
        if handle is None:
            handle = SessionHandle(session_id, rdir)
        handle.pid = pid
        return handle

    # -- events ------------------------------------------------------------------------------
    def poll(self, handle: SessionHandle) -> Poll:
        """One round trip: new complete event lines, the runner's state, events.jsonl's size, result.json."""
        rdir = handle.remote_dir
        out = self.device.shell(scripts.poll(rdir, handle.offset), check=False, idempotent=True)
        if out.exit_code == 3:
            raise SessionError("protocol", f"no session folder {rdir} on {self.device.serial}", handle.session_id)
        parts = out.stdout.split(OUT_MARK + "\n", 2)
        lines = parts[0].split()
        if len(parts) < 3 or len(lines) != 2:
            # an answer cut short (the shell or the link failed mid-reply) says nothing about the session:
            # a failed round trip, retried like a dropped link -- never "the runner died" or "events missing"
            raise AdbError(self.device.serial, "session poll", None, out.stdout[-200:],
                           out.stderr[-200:] or "poll reply incomplete")
        head, result_text, tail = parts
        proc_state, size_text = lines
        events_size = int(size_text) if size_text.isdigit() else None
        if events_size is None and tail:   # the runner created it between the size check and the tail: it is there
            events_size = handle.offset + len(tail.encode())
        truncated = events_size is not None and events_size < handle.offset  # (measured before the tail was read)
        if truncated:
            tail = ""  # replaced or truncated under us: nothing after our offset can be trusted
        end = tail.rfind("\n") + 1
        events = []
        for line in tail[:end].splitlines():
            if not line.strip():
                continue
            try:
                event = json.loads(line)
            except json.JSONDecodeError:
                raise SessionError("protocol", f"events.jsonl line after seq {handle.next_seq - 1} is not JSON: {line[:80]!r}",
                                   handle.session_id) from None
            if event["seq"] != handle.next_seq:
                raise SessionError("protocol", f"event sequence gap: expected {handle.next_seq}, got {event['seq']}",
                                   handle.session_id)
            handle.next_seq += 1
            events.append(event)
        handle.offset += len(tail[:end].encode())
        handle.events += events
        result = json.loads(result_text) if result_text.strip() else None
        return Poll(events, proc_state not in ("dead", "Z"), result, proc_state, events_size, truncated)

    def stream(self, handle: SessionHandle, on_event: Callable[[dict], None] | None = None, progress: bool = True,
               total_epochs: int | None = None, poll_s: float = POLL_S) -> dict:
        """Follow the session until ``result.json`` and every event are in; survives adb drops. It always
        ends: a runner that died, stays paused (SIGSTOP), or goes silent, and an events.jsonl that was
        removed or truncated, each end it with a ``SessionError`` saying which, with the device log's tail."""
        bar = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                       disable=not progress, transient=False)
        server = self.device.adb.server
        watch = _Watchdog(adb_prefix=f"adb -H {server.host} -P {server.port} -s {self.device.serial}")
        with bar:
            task = bar.add_task(f"session {handle.session_id}", total=total_epochs)

            def reconnecting() -> None:
                bar.update(task, description=f"session {handle.session_id} [yellow]reconnecting[/]")

            while True:
                p = self.through_drops(lambda: self.poll(handle), handle.session_id, on_drop=reconnecting)
                for ev in p.events:
                    if on_event is not None:
                        on_event(ev)
                    if ev["type"] != "heartbeat":
                        bar.update(task, advance=1 if ev["type"] == "epoch" else 0, description=_describe(handle, ev))
                if handle.events and handle.events[-1]["type"] == "session_end" and p.result is not None:
                    handle.result = p.result
                    return p.result
                problem = watch.check(handle, p)
                if problem is not None:
                    phase, cause, message = problem
                    tail = "" if cause == "paused" else self._log_tail(handle)   # a paused runner wrote nothing wrong
                    raise SessionError(phase, message + tail, handle.session_id, cause)
                if not p.events:
                    time.sleep(poll_s)

    def _log_tail(self, handle: SessionHandle) -> str:
        """The last lines of the runner's stderr on the device (one-shot or served), for an error message."""
        logs = [handle.remote_dir + "/runner.log", self.device.storage_path("runner/server.log")]
        out = self.device.shell(scripts.log_tails(logs, 5), check=False).stdout
        out = log_summary(out)
        return f"; device log: {out}" if out else ""

    def through_drops(self, fn: Callable[[], T], session_id: str, on_drop: Callable[[], None] | None = None) -> T:
        """``fn`` -- a step safe to repeat (a poll, attaching to a session, pulling its folder) -- run again
        while the link drops (``android_harness.link``), reconnecting between tries (``on_drop`` called
        first); a session error once the device stayed unreachable."""
        def dropped() -> None:
            if on_drop is not None:
                on_drop()
            self._try_reconnect()

        return through_drops(fn, lambda exc: SessionError(
            "protocol", f"device unreachable for {RECONNECT_TIMEOUT_S:g} s: {exc}", session_id), dropped)

    def _try_reconnect(self) -> None:
        if self.reconnect is not None:
            try:
                self.reconnect()
            except Exception:  # the next poll reports whether the device is back
                pass

    # -- cancel / collect / list -------------------------------------------------------------
    def cancel(self, handle: SessionHandle) -> None:
        """SIGTERM: the runner stops at the next step, checkpoints and writes status "cancelled" (a session
        still queued for the persistent runner ends "cancelled" when its turn comes, without training)."""
        self.device.shell(scripts.cancel(handle.remote_dir, CANCEL_MARKER))
        self.attach(handle.session_id, handle)

    def collect(self, handle: SessionHandle, local: Path, include_replay: bool = False) -> Path:
        """Pull the session folder (events, result, checkpoints, logs, power.csv) into ``local``."""
        local = Path(local)
        rdir = handle.remote_dir
        listing = self.device.shell(scripts.list_files(rdir), idempotent=True).stdout.split()
        for rel in sorted(listing):
            rel = rel[2:] if rel.startswith("./") else rel
            if rel.endswith(".tmp") or (not include_replay and rel.startswith("replay/")):
                continue
            dest = local / rel
            dest.parent.mkdir(parents=True, exist_ok=True)
            self.device.pull(f"{rdir}/{rel}", dest)
        return local

    def stop_idle_server(self) -> bool:
        """Stop the device's persistent runner if it is idle (nothing queued, no current session), e.g.
        before an idle-power baseline: its queue polling is work of ours on the phone. True if stopped."""
        d = self.device
        script = scripts.stop_idle_server(d.storage_path(SERVER_PID), d.storage_path(SERVER_STATE), d.storage_path(REMOTE_QUEUE))
        return "stopped" in d.shell(script).stdout

    def list_sessions(self) -> list[dict]:
        """Every session folder on the device with its status (running / ok / cancelled / error / stopped)."""
        rows = self.device.shell(scripts.list_sessions(self.device.storage_path("sessions")), idempotent=True).stdout.split("\n")
        return [{"session_id": r.split()[0], "status": r.split()[1] if len(r.split()) > 1 else "unknown"}
                for r in rows if r.strip() and r.strip() != "*"]


def _describe(handle: SessionHandle, ev: dict) -> str:
    sid = handle.session_id
    if ev["type"] == "epoch":
        return f"{sid} task {ev['task'] + 1} epoch {ev['epoch'] + 1} loss {ev['loss']:.3f}"
    if ev["type"] == "eval":
        return f"{sid} after task {ev['after_task'] + 1}: task {ev['task'] + 1} class-IL {ev['class_il']:.1f}%"
    return f"{sid} {ev['type']}"
