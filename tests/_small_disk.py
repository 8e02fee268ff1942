"""A small disk for the runners' full-disk tests (host only): a bubblewrap tmpfs holding a copy of a
storage root, filled to leave an exact number of bytes; a log that refuses appends (a file-size limit);
and the checks that nothing torn is left."""
from __future__ import annotations

import json
import os
import resource
import shlex
import shutil
import signal
import subprocess
from pathlib import Path

from android_harness.device.checkpoint import load_checkpoint
from tests._native_bins import missing_system_package

NO_SPACE = "No space left on device on "
DISK_BYTES = 64 * 1024 * 1024  # the tmpfs; a filler file then leaves exactly `free` bytes of it
BWRAP = shutil.which("bwrap")


def on_small_disk(root: Path, runner: str, tmp_path: Path, script: str, free: int) -> tuple[Path, subprocess.CompletedProcess]:
    """Run `script` (sh; $R is `runner`, $D the storage root) on a tmpfs holding a copy of `root` with
    `free` bytes left; returns the root's copy as it was afterwards, and the process."""
    if BWRAP is None:
        missing_system_package("bubblewrap (Debian bwrap) makes the small disk")
    disk, out = tmp_path / "disk", tmp_path / "after"
    disk.mkdir()
    out.mkdir()
    prelude = (f'cp -a {root}/. "$D"/ && rm -rf "$D"/runner "$D"/sessions/*/result.json && '
               f'dd if=/dev/zero of="$D"/filler bs=65536 2>/dev/null; truncate -s -{free} "$D"/filler && sync; ')
    epilogue = f'; rc=$?; cp -a "$D"/. {out}/; exit $rc'
    proc = subprocess.run([BWRAP, "--dev-bind", "/", "/", "--size", str(DISK_BYTES), "--tmpfs", str(disk),
                           "sh", "-c", prelude + script + epilogue],
                          env={**os.environ, "R": runner, "D": str(disk)}, capture_output=True, text=True,
                          timeout=600)
    return out, proc


def assert_one_full_disk_error(proc: subprocess.CompletedProcess, folder: Path, disk: Path, free_kb: int) -> None:
    """The run failed with the one-line cause naming a path on ``disk``; where the 64 KB reserve fitted,
    that line is also result.json's error and the last events' (error, session_end); no torn file."""
    assert proc.returncode == 1, proc.stderr
    line = next(ln for ln in proc.stderr.splitlines() if NO_SPACE in ln)
    assert f"{NO_SPACE}{disk}/" in line and ": free " in line and ", needed " in line
    if free_kb > 64:
        result = json.loads((folder / "result.json").read_text())
        assert result["status"] == "error" and NO_SPACE in result["error"] and result["error"] in line
        events = events_of(folder)
        assert [e["type"] for e in events[-2:]] == ["error", "session_end"] and events[-2]["message"] == result["error"]
    whole_files_only(folder)


def assert_served_runner_survives(root: Path, runner: str, runner_ref: str, tmp_path: Path) -> None:
    """Sessions ``disk-a`` (fails: 100 KB free) then ``disk-b`` (the filler removed) on one served
    runner: a fails with the one-line cause and leaves whole files, b is served, the runner lives.
    ``runner_ref``: how the script names the runner (``"$R"``, or ``$R`` for a command with arguments)."""
    enqueue = 'printf %s "$D/sessions/{0}" > "$D/runner/queue/.{0}.tmp" && mv "$D/runner/queue/.{0}.tmp" "$D/runner/queue/{0}"'
    wait = 'i=0; while [ ! -f "$D/sessions/{0}/result.json" ] && [ $i -lt 1200 ]; do sleep 0.1; i=$((i+1)); done'
    script = " && ".join([
        'mkdir -p "$D/runner/queue"', f'{{ {runner_ref} serve "$D/runner/queue" 30 2>"$D/server.err" & S=$!; }}',
        enqueue.format("disk-a"), wait.format("disk-a"), 'rm "$D/filler"',
        enqueue.format("disk-b"), wait.format("disk-b"), 'kill -0 $S', 'echo alive', 'kill $S', 'wait $S; true'])
    out, proc = on_small_disk(root, runner, tmp_path, script, 100 * 1024)
    assert proc.returncode == 0 and "alive" in proc.stdout, proc.stderr
    a = json.loads((out / "sessions" / "disk-a" / "result.json").read_text())
    b = json.loads((out / "sessions" / "disk-b" / "result.json").read_text())
    assert a["status"] == "error" and NO_SPACE in a["error"], a
    assert b["status"] == "ok"
    whole_files_only(out / "sessions" / "disk-a")


def assert_a_session_taken_on_a_full_disk_ends_at_once(root: Path, runner: str, runner_ref: str, tmp_path: Path) -> None:
    """A served runner holding its reserve is stopped (SIGSTOP), ``full-a`` is queued as the host queues it,
    the disk is filled to its last page, and the runner continued: ``full-a`` (which cannot make its own
    reserve) ends within seconds with result.json status error naming the path, the free and the needed
    bytes, and whole events (error, session_end) written from the server's reserve; once the filler is
    removed the server takes its reserve again and serves ``full-b`` (status ok), lives on, and frees the
    reserve when it exits idle."""
    d = tmp_path / "disk"
    enqueue = ('printf %s "$D/sessions/{0}" > "$D/runner/queue/.{0}.tmp" && mv "$D/runner/queue/.{0}.tmp" '
               '"$D/runner/queue/{0}" && printf %s $S > "$D/sessions/{0}/runner.pid"')
    wait = 'i=0; while [ ! -f "$D/sessions/{0}/result.json" ] && [ $i -lt 1200 ]; do sleep 0.05; i=$((i+1)); done'
    reserved = ('i=0; until [ "$(cat "$D/runner/server.reserve" 2>/dev/null | wc -c)" = 65536 ] || [ $i -gt 600 ]; '
                'do sleep 0.05; i=$((i+1)); done; [ $i -le 600 ]')
    script = " && ".join([
        'mkdir -p "$D/runner/queue"', f'{{ {runner_ref} serve "$D/runner/queue" 10 >/dev/null 2>"$D/server.err" & S=$!; }}',
        reserved, 'kill -STOP $S', enqueue.format("full-a"),
        # the rest of the disk, to its last page (dd stops at ENOSPC)
        '{ dd if=/dev/zero of="$D/filler.64k" bs=65536 2>/dev/null; dd if=/dev/zero of="$D/filler.1k" bs=1024 2>/dev/null; true; }',
        'echo "free_before=$(df -B1 --output=avail "$D" | tail -n 1)"', 't0=$(date +%s%N)', 'kill -CONT $S',
        wait.format("full-a"), 'echo "ended_ms=$(( ($(date +%s%N) - t0) / 1000000 ))"',
        'rm "$D"/filler*', reserved, enqueue.format("full-b"), wait.format("full-b"), reserved,
        'kill -0 $S', 'echo alive', 'wait $S'])  # the idle exit
    script += '; rc=$?; kill -CONT $S 2>/dev/null; kill -9 $S 2>/dev/null; (exit $rc)'  # a failed step never leaves the server behind
    out, proc = on_small_disk(root, runner, tmp_path, script, 1024 * 1024)
    assert proc.returncode == 0 and "alive" in proc.stdout, proc.stdout + proc.stderr
    said = dict(ln.split("=", 1) for ln in proc.stdout.splitlines() if "=" in ln)
    assert int(said["free_before"]) == 0, "the disk was not full when the session was taken"
    ended_ms = int(said["ended_ms"])
    assert ended_ms < 5000, f"the session taken on a full disk ended after {ended_ms} ms"
    # the claim's unlink of the queue entry frees one page: that is all the session had
    message = (f"{NO_SPACE}{d}/sessions/full-a/runner.reserve: free 4096 bytes, needed 64.0 KB "
               "(the session's error reserve)")
    a_dir = out / "sessions" / "full-a"
    a = json.loads((a_dir / "result.json").read_text())
    assert (a["session_id"], a["status"], a["error"]) == ("full-a", "error", message), a
    events = events_of(a_dir)
    assert [(e["seq"], e["type"]) for e in events] == [(0, "error"), (1, "session_end")], events
    # the session itself (in the page the claim freed, the native runner) or the server (phase "server", the
    # Python runner, whose traceback took that page first) wrote them: the host reads the same end either way
    assert events[0]["message"] == message and events[1]["status"] == "error"
    assert f"edgecl-runner: {d}/sessions/full-a: {message}" in (out / "server.err").read_text()
    whole_files_only(a_dir)
    assert json.loads((out / "sessions" / "full-b" / "result.json").read_text())["status"] == "ok"
    whole_files_only(out / "sessions" / "full-b")
    assert not (out / "runner" / "server.reserve").exists()  # held while serving (the script waited for it), freed at exit


def assert_no_result_without_session_end(runner: str, folder: Path) -> None:
    """A session whose events.jsonl refuses every append while result.json still fits (the race of a phone's
    ext4, whose journal frees a block between the two writes; here a file-size limit at the log's size, so
    its own reserve fails first): it writes no result.json, whose presence says the log holds session_end;
    the log is as it was, the cause is on stderr, no reserve is left."""
    limit = 16 * 1024
    lines = [json.dumps({"seq": i, "t": 1.0, "t_boot": 1.0, "type": "heartbeat", "cpu_s": 0.0}, separators=(",", ":"))
             for i in range(limit // 80)]
    pad = limit - sum(len(line) + 1 for line in lines)
    lines[-1] = lines[-1][:-1] + ',"pad":"' + "x" * (pad - 9) + '"}'
    log = "".join(line + "\n" for line in lines).encode()
    assert len(log) == limit
    (folder / "events.jsonl").write_bytes(log)

    def limited() -> None:  # the limit's signal ignored (as inherited through exec): a write past it is EFBIG
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    proc = subprocess.run([*shlex.split(runner), "run", str(folder)], preexec_fn=limited, capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == 1, proc.stderr
    assert "runner.reserve" in proc.stderr and "end was not written" in proc.stderr, proc.stderr
    assert not (folder / "result.json").exists(), (folder / "result.json").read_text()
    assert (folder / "events.jsonl").read_bytes() == log
    assert not (folder / "runner.reserve").exists()


def events_of(folder: Path) -> list[dict]:
    """Every line of events.jsonl, each a whole JSON object (a torn line fails the test)."""
    return [json.loads(line) for line in (folder / "events.jsonl").read_text().splitlines()]


def whole_files_only(folder: Path) -> None:
    """No torn line, no half-written checkpoint, no reserve left behind."""
    events = events_of(folder)
    assert [e["seq"] for e in events] == list(range(len(events)))
    if (folder / "trace.jsonl").exists():
        for line in (folder / "trace.jsonl").read_text().splitlines():
            json.loads(line)
    ckpts = folder / "checkpoints"
    if ckpts.exists():
        assert not [p.name for p in ckpts.iterdir() if p.name.startswith(".")], "a temp checkpoint was left"
        for c in ckpts.iterdir():
            state, arrays = load_checkpoint(str(c))
            assert state["iteration"] >= 0 and arrays
    assert not (folder / "runner.reserve").exists()
