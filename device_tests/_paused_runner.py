"""Holding a run at the point a test checks: the phone's runner is paused (SIGSTOP) through the test's own
adb server, so a session that had not ended when it was paused cannot end before the test lets it go on.
Tests never hope a session is still running when they act on it."""
from __future__ import annotations

import os
import signal
import subprocess
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

from android_harness.android_device import AndroidDevice
from android_harness.session import SERVER_PID
from android_harness.shell_quote import quote
from pipeline.run_journal import TASK_RECORD
from device_tests._small_run import wait_for


def pause_runner(device: AndroidDevice, session_dir: str) -> tuple[int, bool]:
    """SIGSTOP the runner following ``session_dir`` (its ``runner.pid``: the persistent runner's pid) and
    say, in the same shell round trip, whether the session had already ended (result.json is there).
    Returns (pid, ended)."""
    out = device.shell(f"cd {quote(session_dir)} && pid=$(cat runner.pid) && kill -STOP \"$pid\" && echo \"$pid\" && "
                       "if [ -f result.json ]; then echo ended; else echo held; fi").stdout.split()
    return int(out[0]), out[1] == "ended"


def pause_persistent_runner(device: AndroidDevice) -> int:
    """SIGSTOP the phone's persistent runner, idle or in a session; its pid."""
    return int(device.shell(f"pid=$(cat {quote(device.storage_path(SERVER_PID))}) && kill -STOP \"$pid\" && "
                            "echo \"$pid\"").stdout)


def continue_runner(device: AndroidDevice, pid: int) -> None:
    device.shell(f"kill -CONT {pid}; true", check=False)


def _descendants(pid: int) -> list[int]:
    """Every live process under ``pid`` (the sweep's forkserver and phone workers), parents first."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    ppid = int(f.read().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(ppid, []).append(int(entry))
    found, todo = [], list(children.get(pid, []))
    while todo:
        found.append(todo.pop(0))
        todo += children.get(found[-1], [])
    return found


def signal_all(pids: list[int], sig: signal.Signals) -> None:
    """Each pid that is still there."""
    for pid in pids:
        try:
            os.kill(pid, sig)
        except ProcessLookupError:
            pass


@contextmanager
def host_frozen(proc: subprocess.Popen) -> Iterator[list[int]]:
    """The host process and everything it started stopped (SIGSTOP) while the test looks at the phones:
    none of them polls, so no watchdog of theirs can run out; a signal sent to the host meanwhile is
    handled first thing once it continues (it continues first, its workers after). Yields a list: the
    pids the caller puts there stay stopped (a sweep worker holding its phone's run)."""
    os.kill(proc.pid, signal.SIGSTOP)
    frozen, keep = [proc.pid], []
    try:
        frozen += _descendants(proc.pid)
        signal_all(frozen[1:], signal.SIGSTOP)
        yield keep
    finally:
        signal_all([pid for pid in frozen if pid not in keep], signal.SIGCONT)


def session_states(device: AndroidDevice, sids: list[str]) -> list[str]:
    """Each session's state on the phone: ended (result.json), started (an event), queued (session.json) or none."""
    checks = [f"d={quote(device.storage_path('sessions', sid))}; if [ -f \"$d/result.json\" ]; then echo ended; "
              f"elif [ -s \"$d/events.jsonl\" ]; then echo started; elif [ -f \"$d/session.json\" ]; then echo queued; "
              "else echo none; fi" for sid in sids]
    return device.shell("; ".join(checks)).stdout.split()


@dataclass
class Held:
    pid: int     # the phone's persistent runner, paused while idle
    task: int    # the task whose session has ended; the next task's session is not yet sent


@contextmanager
def held_between_sessions(proc: subprocess.Popen, device: AndroidDevice, folder: Path, tasks: int) -> Iterator[Held]:
    """The run in ``folder`` (``tasks`` tasks) held between two of its sessions: the host frozen and the phone's
    persistent runner paused with nothing left to do. The host, frozen before a task's record is written,
    cannot have sent the next task's session, and the session it sent ends on its own; a task already
    recorded when the host is frozen is passed over for the next. On exit the host
    continues and the runner stays paused (``continue_runner``)."""
    sids = [f"{folder.name}-task{t}" for t in range(tasks)]
    for task in range(tasks - 1):
        wait_for(f"task {task + 1}'s session on the phone", lambda: session_states(device, sids[task:task + 1]) != ["none"])
        with host_frozen(proc):
            if (folder / "sessions" / sids[task] / TASK_RECORD).exists():
                continue
            wait_for(f"task {task + 1}'s end", lambda: session_states(device, sids[task:task + 1]) == ["ended"])
            yield Held(pause_persistent_runner(device), task)
            return
    raise AssertionError(f"every session of {folder.name} ended before the test could hold the run")


def as_from_a_terminal() -> None:
    """``preexec_fn`` of a host a test will Ctrl-C: SIGINT at its default, as a terminal's foreground job has
    it. A suite started in the background (``cmd &`` in a script) runs with SIGINT ignored, its children
    inherit that, and a Python started so never raises KeyboardInterrupt: the Ctrl-C would be lost."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


STACKS_ON_ABORT = {"PYTHONFAULTHANDLER": "1"}    # the env a held host is started with: SIGABRT prints its stacks


def output_or_stacks(proc: subprocess.Popen, timeout: float) -> str:
    """The host's output once it exits. One that has not within ``timeout`` (started with STACKS_ON_ABORT)
    is aborted with its workers, and the failure carries every Python stack it printed: where it hung."""
    try:
        out = proc.communicate(timeout=timeout)[0]
    except subprocess.TimeoutExpired:
        signal_all([proc.pid, *_descendants(proc.pid)], signal.SIGABRT)
        out = proc.communicate(timeout=60)[0]
        text = out if isinstance(out, str) else out.decode(errors="replace")
        raise AssertionError(f"the host did not exit {timeout:g} s after the test let it go on; "
                             f"its output and stacks:\n{text[-8000:]}") from None
    return out if isinstance(out, str) else out.decode()

