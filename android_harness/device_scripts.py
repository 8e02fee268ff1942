"""The shell the host runs on the phone (sessions, the persistent runner, the power sampler's start),
one named script per job.

Each function returns POSIX shell text (Android's mksh and toybox, and any host ``sh``, run it the same
way) with every path quoted, and says what the script prints; ``android_harness.session`` and
``android_harness.power`` send them and parse their answers. Each script is one adb round trip.
``tests/test_device_scripts.py`` runs every one under the host's ``sh`` against real folders.
"""
from __future__ import annotations

from dataclasses import dataclass

from android_harness.shell_quote import detached, quote

OUT_MARK = "@@EDGECL@@"
WAIT_STEP_S = 0.1


def _tries(timeout_s: float) -> int:
    return int(timeout_s / WAIT_STEP_S)


def alive(pid_file: str) -> str:
    """A shell test: the pid in ``pid_file`` is a live process."""
    return f"kill -0 $(cat {quote(pid_file)} 2>/dev/null || echo x) 2>/dev/null"


def probe_session(rdir: str) -> str:
    """Prints ``spec`` when the folder has ``session.json``, then ``result.json``'s text if there is one;
    nothing for a missing folder."""
    return f"cd {quote(rdir)} 2>/dev/null || exit 0; [ -f session.json ] && echo spec; cat result.json 2>/dev/null; true"


def has_spec(rdir: str) -> str:
    """Prints ``spec`` when the session folder has ``session.json``."""
    return f"[ -f {quote(rdir + '/session.json')} ] && echo spec; true"


def publish_spec(rdir: str) -> str:
    """A prelude: the pushed ``session.json.tmp`` becomes ``session.json`` (one rename)."""
    return f"mv -f {quote(rdir + '/session.json.tmp')} {quote(rdir + '/session.json')} && "


def clear_end(rdir: str, cancel_marker: str) -> str:
    """A prelude for a relaunch: the dead runner's ``result.json`` and cancel marker go."""
    return f"rm -f {quote(rdir + '/result.json')} {quote(rdir + '/' + cancel_marker)} && "


def wait_written(path: str, timeout_s: float) -> str:
    """Waits (bounded) until ``path`` is a non-empty file, as a detached job's pid file becomes. Prints
    nothing, exits 0 either way."""
    return (f"i=0; while [ ! -s {quote(path)} ] && [ $i -lt {_tries(timeout_s)} ]; do sleep {WAIT_STEP_S:g}; "
            f"i=$((i + 1)); done; true")


def write_word(path: str, word: str) -> str:
    """Replaces the file's text with ``word`` and a newline (a lease renewal, a stop request)."""
    return f"echo {quote(word)} > {quote(path)}"


def read_file(path: str) -> str:
    """Prints the file (nothing when it is missing)."""
    return f"cat {quote(path)} 2>/dev/null"


def launch(prelude: str, rdir: str, storage_root: str, runner_cmd: str, timeout_s: float) -> str:
    """Runs ``prelude``, then the one-shot runner ``runner_cmd`` detached (log ``runner.log``) from the
    storage root, and waits (bounded) until it has written ``runner.pid``. Prints nothing."""
    pid_file = rdir + "/runner.pid"
    return (f"{prelude}rm -f {quote(pid_file)} && cd {quote(storage_root)} && {detached(runner_cmd, rdir + '/runner.log')}\n"
            + wait_written(pid_file, timeout_s))


@dataclass(frozen=True)
class Server:
    """A phone's persistent runner: its queue folder, the folder it runs in, its command, log and pid file."""

    queue: str
    storage_root: str
    serve_cmd: str
    log: str
    pid_file: str


def serving(server: Server, timeout_s: float) -> str:
    """Lines that start the persistent runner when none is live and wait, bounded, until one is. Exits 1
    when the queue folder cannot be made."""
    live = alive(server.pid_file)
    return (f"mkdir -p {quote(server.queue)} && cd {quote(server.storage_root)} || exit 1\n"
            f"if ! {live}; then {detached(server.serve_cmd, server.log)}\n"
            f"i=0; while ! {live} && [ $i -lt {_tries(timeout_s)} ]; do sleep {WAIT_STEP_S:g}; i=$((i + 1)); done; fi\n")


def start_server(server: Server, timeout_s: float) -> str:
    """``serving``, then prints ``live`` when a server is."""
    return serving(server, timeout_s) + f"{alive(server.pid_file)} && echo live; true"


def submit(prelude: str, rdir: str, session_id: str, server: Server, timeout_s: float) -> str:
    """Runs ``prelude``, queues the session (temp file, then rename into the queue), runs ``serving`` and
    copies the live server's pid into the session's ``runner.pid`` (the server writes it again when the
    session's turn comes). Exits 1 when the entry cannot be written."""
    queue = server.queue
    entry, tmp = f"{queue}/{session_id}", f"{queue}/.{session_id}.tmp"
    host_tmp = f"{rdir}/.runner.pid.host"  # never runner.pid.tmp: the server writes that one at the same moment
    return (f"{prelude}rm -f {quote(rdir + '/runner.pid')} && mkdir -p {quote(queue)} && "
            f"printf %s {quote(rdir)} > {quote(tmp)} && mv -f {quote(tmp)} {quote(entry)} || exit 1\n"
            f"{serving(server, timeout_s)}{alive(server.pid_file)} && cat {quote(server.pid_file)} > {quote(host_tmp)} && "
            f"mv -f {quote(host_tmp)} {quote(rdir + '/runner.pid')}; true")


def read_pid(rdir: str) -> str:
    """Prints the session's ``runner.pid`` (nothing when there is none)."""
    return read_file(rdir + "/runner.pid")


def poll(rdir: str, offset: int) -> str:
    """Prints the runner's /proc state letter (``dead`` when it is not running), the byte size of
    ``events.jsonl`` (``missing`` when absent), then, each after an ``OUT_MARK`` line, ``result.json``
    and the bytes of ``events.jsonl`` from ``offset`` on. Exits 3 when the folder is missing.
    The state is always one token: a runner that exits between ``kill -0`` and reading its stat is
    ``dead``, never an empty line."""
    state = ("pid=$(cat runner.pid 2>/dev/null); st=dead; if [ -n \"$pid\" ] && kill -0 \"$pid\" 2>/dev/null; then "
             "st=$(sed 's/.*) //' /proc/$pid/stat 2>/dev/null | cut -d' ' -f1); fi; echo \"${st:-dead}\"")
    return (f"cd {quote(rdir)} || exit 3; {state}; if [ -f events.jsonl ]; then wc -c < events.jsonl; else echo missing; fi; "
            f"echo {OUT_MARK}; cat result.json 2>/dev/null; echo {OUT_MARK}; tail -c +{offset + 1} events.jsonl 2>/dev/null")


def log_tails(paths: list[str], lines: int) -> str:
    """Prints the last ``lines`` lines of each file that exists."""
    return " ; ".join(f"tail -n {lines} {quote(p)} 2>/dev/null" for p in paths)


def cancel(rdir: str, cancel_marker: str) -> str:
    """Creates the cancel marker and sends SIGTERM to the pid in ``runner.pid``."""
    return (f"touch {quote(rdir + '/' + cancel_marker)} && "
            f"kill -TERM $(cat {quote(rdir + '/runner.pid')} 2>/dev/null || echo x) 2>/dev/null; true")


def list_files(rdir: str) -> str:
    """Prints every file under the session folder, ``./``-relative, one a line."""
    return f"cd {quote(rdir)} && find . -type f"


def stop_idle_server(server_pid: str, server_state: str, queue: str) -> str:
    """Kills the persistent runner and prints ``stopped`` only when it is idle: its state file says
    ``"session": null`` (any JSON spacing) and its queue is empty."""
    return (f"pid=$(cat {quote(server_pid)} 2>/dev/null) || exit 0; "
            f"grep -Eq '\"session\": *null' {quote(server_state)} 2>/dev/null || exit 0; "
            f"[ -z \"$(ls -A {quote(queue)} 2>/dev/null)\" ] || exit 0; "
            f"kill -9 \"$pid\" 2>/dev/null && rm -f {quote(server_pid)} && echo stopped; true")


def list_sessions(root: str) -> str:
    """Prints ``<session id> <status>`` per session folder: result.json's status, else ``running`` while
    its runner lives, else ``stopped``."""
    return (f"cd {quote(root)} 2>/dev/null || exit 0; for d in */; do d=${{d%/}}; s=running; "
            f"if [ -f \"$d/result.json\" ]; then s=$(grep -Eo '\"status\": *\"[a-z]*\"' \"$d/result.json\" | head -n1 | cut -d'\"' -f4); "
            f"elif ! kill -0 $(cat \"$d/runner.pid\" 2>/dev/null || echo x) 2>/dev/null; then s=stopped; fi; "
            f"echo \"$d $s\"; done")
