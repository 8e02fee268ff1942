"""What ``edgecl run`` says and leaves when Ctrl-C stops a single run: the session of the current task
goes on on the phone (and how to follow it with ``edgecl attach``), the results folder gets an
``interrupted.json`` marker, and the exact command that continues the run from its last completed
task (``edgecl run SPEC --resume DIR``, with the options that make the same spec). Nothing recorded
is lost: completed tasks are in the folder's journal (``pipeline.run_journal``), and the resumed run
attaches to the interrupted task's session instead of training it again."""
from __future__ import annotations

import json
import shlex
import time
from dataclasses import dataclass
from pathlib import Path

from rich.console import Console

from android_harness.device.fileio import write_text_atomic

MARKER = "interrupted.json"
CHECK_TIMEOUT_S = 10.0


@dataclass
class RunProgress:
    """The run journal's task listener: which task (and session) the run is in."""

    session_id: str = ""
    task_pos: int = -1
    n_tasks: int = 0

    def __call__(self, pos: int, n: int, session_id: str) -> None:
        self.task_pos, self.n_tasks, self.session_id = pos, n, session_id


def resume_command(spec_path: Path, folder: Path, device_args: list[str], sets: list[str],
                   runtime: str | None) -> str:
    """The command line that loads the same spec and continues ``folder``."""
    argv = ["edgecl", "run", str(spec_path), "--resume", str(folder), *device_args]
    for s in sets:
        argv += ["--set", s]
    if runtime is not None:
        argv += ["--runtime", runtime]
    return shlex.join(argv)


def _session_started(device, session_id: str) -> bool | None:
    """Whether the phone has the session's folder (None: the phone did not answer)."""
    from android_harness.session import SessionDriver
    from android_harness.shell_quote import quote

    try:
        rdir = SessionDriver(device).remote_dir(session_id)
        out = device.shell(f"test -f {quote(rdir)}/session.json && echo yes || echo no", timeout=CHECK_TIMEOUT_S,
                           check=False)
    except Exception:                              # the phone or its adb server is gone: say so, never hide Ctrl-C
        return None
    return out.stdout.strip() == "yes"


def report_interrupt(console: Console, folder: Path, progress: RunProgress, resume: str, *,
                     device=None, device_arg: str = "", scoped_vphone: bool = False,
                     store_on_phone: bool = False) -> None:
    """Say what goes on where and how to continue; mark the folder (only once its run had started).
    ``scoped_vphone``: the phone was started for this run and goes with it; ``store_on_phone``: later
    tasks read the replay store that only that phone had (then such a run cannot be resumed)."""
    from pipeline.run_journal import RunJournal

    if not (folder / "spec.json").is_file():
        console.print("[bold yellow]interrupted[/] before the run started: nothing was recorded "
                      "(no results folder); run the same command again to start it", highlight=False)
        return
    done = sorted(RunJournal(folder).records())
    if scoped_vphone and store_on_phone and done:
        resume = ""
    running = bool(progress.session_id) and progress.task_pos >= 0 and progress.task_pos not in done
    started = None
    if running and not scoped_vphone and device is not None:
        started = _session_started(device, progress.session_id)
    marker = {"time": time.strftime("%Y-%m-%dT%H:%M:%S"), "completed_tasks": done,
              "session": progress.session_id if running else None, "session_on_phone": started,
              "device": device_arg or None, "resume": resume or None}
    write_text_atomic(folder / MARKER, json.dumps(marker, indent=1))
    n = progress.n_tasks or "?"
    console.print(f"[bold yellow]interrupted[/]: {len(done)} of {n} tasks complete in {folder}", highlight=False,
                  soft_wrap=True)
    if running and scoped_vphone:
        console.print(f"the virtual phone started for this run is stopped with it: session {progress.session_id} "
                      "ended there; the resumed run starts that task again", highlight=False, soft_wrap=True)
    elif running and started:
        attach = shlex.join(["edgecl", "attach", progress.session_id, *(["--serial", device_arg] if device_arg else [])])
        console.print(f"session {progress.session_id} (task {progress.task_pos + 1} of {n}) goes on on the phone; "
                      f"follow it with: {attach}", highlight=False, soft_wrap=True)
    elif running and started is None:
        console.print(f"session {progress.session_id}: the phone did not answer, so whether it runs on is unknown",
                      highlight=False, soft_wrap=True)
    if resume:
        console.print(f"continue this run from its last completed task with: {resume}", highlight=False, soft_wrap=True)
    else:
        console.print("its replay store was on that virtual phone only, so this run cannot be resumed: run it again "
                      "(or run it on a phone that stays, --serial, to be able to resume it)", highlight=False, soft_wrap=True)
