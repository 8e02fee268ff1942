"""The device services behind OPEN: ``shell:``/``shell,v2:``, ``exec:``, ``sync:``, ``tcp:``,
``localabstract:``/``localfilesystem:``, ``reboot:`` and ``root:``/``unroot:`` (answered as a user
build's adbd answers); any other name gets a ``FAIL`` reply.

Shells are ``sh -c`` inside the phone's sandbox (sandbox.py) as uid 2000, cwd ``/``, with the
environment adbd gives them; ``exec:`` merges stderr into stdout as adbd does. A shell gets a PTY
of the phone's own devpts when the client asks (``pty``, ``adb shell -t``) or runs no command, as
adbd decides: one terminal for input and output, window-size frames applied, the exit code framed
under v2. Forwards connect inside the phone's own network namespace, sync works in the phone's
filesystem as the shell user.
"""
from __future__ import annotations

import asyncio
import contextlib
import fcntl
import os
import re
import signal
import socket
import struct
import termios
from dataclasses import dataclass
from typing import TYPE_CHECKING, Awaitable, Callable

from android_harness.vphone.stream import ByteReader, Stream, StreamClosed
from android_harness.vphone.sync_service import run_sync

if TYPE_CHECKING:
    from android_harness.vphone.phone import Phone

Handler = Callable[[Stream], Awaitable[None]]
PIPE_GRACE_S = 0.5        # after the shell exits, how long background holders may keep its pipes
READ_CHUNK = 64 * 1024
ID_STDIN, ID_STDOUT, ID_STDERR, ID_EXIT, ID_CLOSE_STDIN, ID_WINDOW = range(6)
LOOPBACK = {"127.0.0.1", "localhost", "::1"}
TIOCGPTPEER = 0x5441                 # _IO('T', 0x41)
TIOCSPTLCK = 0x40045431              # _IOW('T', 0x31, int)
ROOT_REPLIES = {"root": "adbd cannot run as root in production builds\n", "unroot": "adbd not running as root\n"}


@dataclass(frozen=True)
class VphoneContext:
    phone: "Phone"
    link_bytes_per_s: float = 0.0      # 0: unthrottled


def fail_reply(message: str) -> bytes:
    """The smart-socket error form (``FAIL`` + 4 hex digits of length + text) adb prints as is."""
    raw = message.encode()[:0xFFFF]
    return b"FAIL" + f"{len(raw):04x}".encode() + raw


async def open_service(name: str, ctx: VphoneContext) -> Handler | None:
    """The handler for a service name, or None to refuse the OPEN (CLSE)."""
    if name.startswith("shell"):
        head, sep, cmd = name.partition(":")
        args = head.split(",")
        if args[0] != "shell" or not sep:
            return None
        pty = "pty" in args[1:] or (not cmd and "raw" not in args[1:])
        term = next((a[5:] for a in args[1:] if a.startswith("TERM=")), "dumb")
        if pty:
            return lambda s: run_pty_shell(s, ctx, cmd, v2="v2" in args[1:], term=term)
        return lambda s: run_shell(s, ctx, cmd, v2="v2" in args[1:])
    if name.startswith("exec:"):
        return lambda s: run_exec(s, ctx, name[5:])
    if name == "sync:":
        return lambda s: run_sync(s, ctx.phone.sandbox.io)
    if name.startswith("tcp:"):
        return await open_tcp(name[4:], ctx)
    if name.startswith(("localabstract:", "localfilesystem:", "localreserved:")):
        return await open_local(name, ctx)
    if name == "reboot:" or name.startswith("reboot:"):
        return lambda s: run_reboot(s, ctx, name[7:])
    if name.rstrip(":") in ROOT_REPLIES:
        return lambda s: s.write(ROOT_REPLIES[name.rstrip(":")].encode())
    if not name:
        return None
    return lambda s: s.write(fail_reply(f"service '{name}' is not provided by the edgecl virtual phone "
                                        f"(a user build without remount, abb, jdwp, reverse or APK install)"))


async def _spawn(ctx: VphoneContext, cmd: str, merge_stderr: bool,
                 drop_stderr: bool = False, tty: int | None = None) -> asyncio.subprocess.Process:
    """Start ``sh -c cmd``; a cancellation (host CLSE) that lands mid-start still reaps it."""
    start = asyncio.ensure_future(_start_process(ctx, cmd, merge_stderr, drop_stderr, tty))
    try:
        return await asyncio.shield(start)
    except asyncio.CancelledError:
        proc = await start
        await _hang_up(proc)
        if proc.stdin is not None:
            proc.stdin.close()
        raise


async def _start_process(ctx: VphoneContext, cmd: str, merge_stderr: bool,
                         drop_stderr: bool, tty: int | None) -> asyncio.subprocess.Process:
    box = ctx.phone.sandbox
    if tty is not None:                     # the terminal is all three, and the session's controlling tty
        return await asyncio.create_subprocess_exec(
            *box.shell_argv(cmd), stdin=tty, stdout=tty, stderr=tty, cwd="/", env=box.shell_env(),
            start_new_session=True, preexec_fn=lambda: fcntl.ioctl(0, termios.TIOCSCTTY, 0))
    stderr = asyncio.subprocess.STDOUT if merge_stderr else (
        asyncio.subprocess.DEVNULL if drop_stderr else asyncio.subprocess.PIPE)
    return await asyncio.create_subprocess_exec(
        *box.shell_argv(cmd), stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=stderr,
        cwd="/", env=box.shell_env(), start_new_session=True)


async def _hang_up(proc: asyncio.subprocess.Process) -> None:
    """Host closed the stream: SIGHUP the shell's process group, then SIGKILL what is left of the
    group. Work meant to outlive the stream must leave the group (``setsid``), as on a phone."""
    if proc.returncode is None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(proc.pid, signal.SIGHUP)
        try:
            await asyncio.wait_for(asyncio.shield(proc.wait()), 0.3)
        except asyncio.TimeoutError:
            pass
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, signal.SIGKILL)
    if proc.returncode is None:
        await proc.wait()


@dataclass
class PumpProgress:
    """What the output pumps did: chunks moved, and how many wait on the host (a write not yet OKAYed).
    A pump waiting on the host is not a silent pipe: a slow or starved host must not cut the output."""

    moved: int = 0
    writing: int = 0

    async def emit(self, emit: Callable[[bytes], Awaitable[None]], chunk: bytes) -> None:
        """``emit(chunk)``, counted as moved and, until the host takes it, as waiting on the host."""
        self.moved += 1
        self.writing += 1
        try:
            await emit(chunk)
        finally:
            self.writing -= 1


async def _pump_out(reader: asyncio.StreamReader, emit: Callable[[bytes], Awaitable[None]],
                    progress: PumpProgress) -> None:
    while chunk := await reader.read(READ_CHUNK):
        await progress.emit(emit, chunk)
        progress.moved += 1


async def _feed_stdin_raw(stream: Stream, proc: asyncio.subprocess.Process) -> None:
    assert proc.stdin is not None
    with contextlib.suppress(ConnectionError):
        while data := await stream.read():
            proc.stdin.write(data)
            await proc.stdin.drain()


async def _feed_stdin_v2(stream: Stream, proc: asyncio.subprocess.Process) -> None:
    assert proc.stdin is not None
    reader = ByteReader(stream)
    with contextlib.suppress(ConnectionError, EOFError):
        while True:
            kind, length = struct.unpack("<BI", await reader.exactly(5))
            data = await reader.exactly(length) if length else b""
            if kind == ID_STDIN and not proc.stdin.is_closing():
                proc.stdin.write(data)
                await proc.stdin.drain()
            elif kind == ID_CLOSE_STDIN:
                proc.stdin.close()


async def _run_process(proc: asyncio.subprocess.Process, pumps: list[Awaitable[None]],
                       progress: PumpProgress, stdin_feeder: Awaitable[None]) -> int:
    """Wait for the shell, then for its output; pipes that a background child keeps open are
    abandoned once they stay silent for PIPE_GRACE_S (never while a pump waits on the host)."""
    feeder = asyncio.ensure_future(stdin_feeder)
    tasks = [asyncio.ensure_future(p) for p in pumps]
    try:
        rc = await proc.wait()
        while True:
            seen = progress.moved
            _done, pending = await asyncio.wait(tasks, timeout=PIPE_GRACE_S)
            if not pending or (progress.moved == seen and not progress.writing):
                break
        for t in pending:
            t.cancel()
        await asyncio.gather(*pending, return_exceptions=True)   # cancelled tasks are done only once awaited
        for t in tasks:
            if not t.cancelled() and t.exception() is not None and not isinstance(t.exception(), StreamClosed):
                raise t.exception()  # type: ignore[misc]
        return rc if rc >= 0 else 0x80 | -rc
    finally:
        feeder.cancel()
        for t in tasks:
            t.cancel()
        await _hang_up(proc)
        if proc.stdin is not None:
            proc.stdin.close()              # the subprocess transport closes once all pipes are


async def run_shell(stream: Stream, ctx: VphoneContext, cmd: str, v2: bool) -> None:
    proc = await _spawn(ctx, cmd, merge_stderr=not v2)
    assert proc.stdout is not None
    if not v2:
        progress = PumpProgress()
        await _run_process(proc, [_pump_out(proc.stdout, stream.write, progress)], progress,
                           _feed_stdin_raw(stream, proc))
        return

    def framed(kind: int) -> Callable[[bytes], Awaitable[None]]:
        return lambda data: stream.write(struct.pack("<BI", kind, len(data)) + data)

    assert proc.stderr is not None
    progress = PumpProgress()
    rc = await _run_process(proc, [_pump_out(proc.stdout, framed(ID_STDOUT), progress),
                                   _pump_out(proc.stderr, framed(ID_STDERR), progress)],
                            progress, _feed_stdin_v2(stream, proc))
    await stream.write(struct.pack("<BIB", ID_EXIT, 1, rc & 0xFF))


def _open_phone_pty() -> tuple[int, int]:
    """Runs on a phone thread: a master of the phone's own devpts (so ``tty`` names ``/dev/pts/N``
    inside the phone) and its unlocked slave."""
    master = os.open("/dev/ptmx", os.O_RDWR | os.O_NOCTTY | os.O_CLOEXEC)
    try:
        fcntl.ioctl(master, TIOCSPTLCK, struct.pack("i", 0))
        slave = fcntl.ioctl(master, TIOCGPTPEER, os.O_RDWR | os.O_NOCTTY | os.O_CLOEXEC)
        return master, slave
    except BaseException:
        os.close(master)
        raise


def _set_window(master: int, spec: bytes) -> None:
    """adbd's window-size frame: ``ROWSxCOLS,XPIXELxYPIXEL``."""
    m = re.match(rb"(\d+)x(\d+),(\d+)x(\d+)", spec)
    if m:
        rows, cols, xpix, ypix = (int(g) & 0xFFFF for g in m.groups())
        with contextlib.suppress(OSError):
            fcntl.ioctl(master, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, xpix, ypix))


async def _fd_ready(fd: int, add: Callable, remove: Callable) -> None:
    """Until ``fd`` is ready, as the event loop's ``add`` (``add_reader``/``add_writer``) sees it."""
    ready = asyncio.get_running_loop().create_future()
    add(fd, lambda: ready.done() or ready.set_result(None))
    try:
        await ready
    finally:
        remove(fd)


async def _pump_pty(master: int, emit: Callable[[bytes], Awaitable[None]], progress: PumpProgress) -> None:
    loop = asyncio.get_running_loop()
    while True:
        await _fd_ready(master, loop.add_reader, loop.remove_reader)
        try:
            chunk = os.read(master, READ_CHUNK)
        except BlockingIOError:
            continue
        except OSError:                      # EIO: every holder of the terminal is gone
            return
        if not chunk:
            return
        await progress.emit(emit, chunk)


async def _feed_pty(stream: Stream, master: int, v2: bool) -> None:
    """Input to the terminal (a PTY cannot close only its input: close-stdin is ignored, as adbd does)."""
    loop = asyncio.get_running_loop()

    async def put(data: bytes) -> None:
        while data:
            try:
                data = data[os.write(master, data):]
            except BlockingIOError:
                await _fd_ready(master, loop.add_writer, loop.remove_writer)

    with contextlib.suppress(ConnectionError, EOFError, OSError):
        if not v2:
            while data := await stream.read():
                await put(data)
            return
        reader = ByteReader(stream)
        while True:
            kind, length = struct.unpack("<BI", await reader.exactly(5))
            data = await reader.exactly(length) if length else b""
            if kind == ID_STDIN:
                await put(data)
            elif kind == ID_WINDOW:
                _set_window(master, data)


async def run_pty_shell(stream: Stream, ctx: VphoneContext, cmd: str, v2: bool, term: str) -> None:
    master, slave = await asyncio.get_running_loop().run_in_executor(ctx.phone.sandbox.io, _open_phone_pty)
    try:
        os.set_blocking(master, False)
        proc = await _spawn(ctx, _with_term(cmd, term), merge_stderr=True, tty=slave)
        os.close(slave)
        slave = -1
        progress = PumpProgress()
        emit = (lambda data: stream.write(struct.pack("<BI", ID_STDOUT, len(data)) + data)) if v2 else stream.write
        rc = await _run_process(proc, [_pump_pty(master, emit, progress)], progress, _feed_pty(stream, master, v2))
        if v2:
            await stream.write(struct.pack("<BIB", ID_EXIT, 1, rc & 0xFF))
    finally:
        if slave >= 0:
            os.close(slave)
        os.close(master)


def _with_term(cmd: str, term: str) -> str:
    """adbd sets ``$TERM`` from the client's ``TERM=`` argument."""
    if not re.fullmatch(r"[A-Za-z0-9._+-]{1,64}", term):
        term = "dumb"
    return f"export TERM={term}; exec /system/bin/sh" if not cmd else f"export TERM={term}; {cmd}"


async def run_exec(stream: Stream, ctx: VphoneContext, cmd: str) -> None:
    """Binary-clean output, no framing, no exit code (``adb exec-out``); stderr is merged into it as
    adbd does for a raw subprocess (so ``adb install``'s ``exec:cmd package`` shows its reason)."""
    proc = await _spawn(ctx, cmd, merge_stderr=True)
    assert proc.stdout is not None
    progress = PumpProgress()
    await _run_process(proc, [_pump_out(proc.stdout, stream.write, progress)], progress,
                       _feed_stdin_raw(stream, proc))


def _connect_in_phone(family: int, address: object) -> socket.socket:
    """Runs on a phone thread: the socket belongs to the phone's network namespace."""
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.settimeout(5)
        sock.connect(address)
        sock.setblocking(False)
        return sock
    except BaseException:
        sock.close()
        raise


async def _open_in_phone(ctx: VphoneContext, family: int, address: object) -> Handler | None:
    loop = asyncio.get_running_loop()
    try:
        sock = await loop.run_in_executor(ctx.phone.sandbox.io, _connect_in_phone, family, address)
        reader, writer = await asyncio.open_connection(sock=sock)
    except (OSError, asyncio.TimeoutError):
        return None

    async def forward(stream: Stream) -> None:
        async def upstream() -> None:
            while data := await stream.read():
                writer.write(data)
                await writer.drain()
            with contextlib.suppress(OSError):
                writer.write_eof()

        up = asyncio.ensure_future(upstream())
        try:
            await _pump_out(reader, stream.write, PumpProgress())
        finally:
            up.cancel()
            writer.close()

    return forward


async def open_tcp(spec: str, ctx: VphoneContext) -> Handler | None:
    """``tcp:PORT`` or ``tcp:PORT:HOST`` to the phone's own loopback (adb forward)."""
    port_s, _, host = spec.partition(":")
    host = host or "127.0.0.1"
    if not port_s.isdigit() or not 0 < int(port_s) < 65536 or host not in LOOPBACK:
        return None
    family = socket.AF_INET6 if host == "::1" else socket.AF_INET
    return await _open_in_phone(ctx, family, (host, int(port_s)))


async def open_local(name: str, ctx: VphoneContext) -> Handler | None:
    """``localabstract:NAME`` (the phone's abstract namespace) or ``localfilesystem:PATH``."""
    kind, _, where = name.partition(":")
    if not where:
        return None
    address = "\0" + where if kind == "localabstract" else where
    return await _open_in_phone(ctx, socket.AF_UNIX, address)


async def run_reboot(stream: Stream, ctx: VphoneContext, reason: str) -> None:
    """``adb reboot [TARGET]``: the phone restarts (processes die, /data stays, adb reconnects)."""
    ctx.phone.request_reboot(reason or "adb")
    await asyncio.sleep(3600)                 # the reboot closes this connection
