"""``sync:`` service: STAT/STA2/LST2, LIST/LIS2, SEND/SND2, RECV/RCV2, QUIT.

All file work runs on the phone's I/O threads (sandbox.py): they live in the phone's mount
namespace as the shell user (uid 2000, no capabilities), so a path means what it means on the phone
(``/data/local/tmp/x``, ``/sdcard/x``, relative to ``/``), symlinks resolve inside the phone, and
permissions are the shell user's, as for adbd: ``/system`` is read-only, ``/data/misc`` is not the
shell's, and nothing of the host exists there. A 50 MB push never stalls other streams (the loop only moves bytes).
As adbd does: parents are created (0775), a file's user permission bits are copied to group and
other (a 0644 file arrives 0666), a SEND with S_IFLNK creates a symlink to the DATA text, an
existing non-directory is replaced, and a failed transfer leaves nothing behind.
"""
from __future__ import annotations

import asyncio
import contextlib
import errno
import os
import stat as statmod
import struct
from concurrent.futures import Executor
from functools import partial

from android_harness.vphone.stream import ByteReader, Stream

MAX_PATH = 1024
CHUNK = 64 * 1024
FLUSH_BYTES = 1024 * 1024
COMPRESSION_FLAGS = 0x7
DRY_RUN = 0x80000000
STAT_V1 = struct.Struct("<4sIII")
STAT_V2 = struct.Struct("<4sIQQIIIIQqqq")
DENT_V1 = struct.Struct("<4sIIII")
DENT_V2 = struct.Struct("<4sIQQIIIIQqqqI")


class SyncFail(Exception):
    """Sent to the host as FAIL <message>."""


def _stat_v2_fields(st: os.stat_result | None, err: int = 0) -> tuple:
    if st is None:
        return (err, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    return (0, st.st_dev, st.st_ino, st.st_mode, st.st_nlink, st.st_uid, st.st_gid, st.st_size,
            int(st.st_atime), int(st.st_mtime), int(st.st_ctime))


def _lstat(path: str, follow: bool = False) -> tuple[os.stat_result | None, int]:
    try:
        return (os.stat(path) if follow else os.lstat(path)), 0
    except OSError as e:
        return None, e.errno or errno.EIO


def _listdir(path: str) -> list[tuple[str, os.stat_result]]:
    out = []
    for name in [".", ".."] + sorted(os.listdir(path)):
        with contextlib.suppress(OSError):
            out.append((name, os.lstat(os.path.join(path, name))))
    return out


def _fail(message: str) -> bytes:
    data = message.encode()[:4096]
    return b"FAIL" + struct.pack("<I", len(data)) + data


def _errno_text(what: str, path: str, e: OSError) -> str:
    return f"{what} '{path}': {os.strerror(e.errno) if e.errno else e}"


def _mkdirs(path: str) -> None:
    parent = os.path.dirname(path)
    if parent and not os.path.isdir(parent):
        os.makedirs(parent, 0o775, exist_ok=True)


def _open_target(path: str, mode: int):
    """adbd's handle_send_file: parents created, the user bits copied to group/other, a
    non-directory in the way replaced."""
    mode &= 0o777
    mode |= (mode >> 3) & 0o070
    mode |= (mode >> 3) & 0o007
    _mkdirs(path)
    st, _ = _lstat(path)
    if st is not None and not statmod.S_ISREG(st.st_mode) and not statmod.S_ISDIR(st.st_mode):
        os.unlink(path)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, mode)
    os.fchmod(fd, mode)
    return os.fdopen(fd, "wb")


def _finish_file(f, path: str, mtime: int) -> None:
    f.close()
    os.utime(path, (mtime, mtime))


def _make_link(path: str, target: bytes, mtime: int) -> None:
    """adbd's handle_send_link: the DATA is the NUL-terminated target."""
    target = target[:-1] if target.endswith(b"\0") else target
    if not target or b"\0" in target:
        raise OSError(errno.EINVAL, "invalid symlink target")
    _mkdirs(path)
    st, _ = _lstat(path)
    if st is not None and not statmod.S_ISDIR(st.st_mode):
        os.unlink(path)
    os.symlink(target, path)
    os.utime(path, (mtime, mtime), follow_symlinks=False)


def _discard(f, path: str) -> None:
    with contextlib.suppress(OSError):
        f.close()
        os.unlink(path)


async def _receive(reader: ByteReader, stream: Stream, io: Executor, path: str, mode: int,
                   dry_run: bool) -> None:
    """DATA* DONE into ``path`` (a file, or a symlink for S_IFLNK); reply once, OKAY or FAIL. After
    an error the rest of the file's DATA is read and dropped until DONE, as adbd does.

    Disk writes are write-behind: a 1 MB block goes to the phone's I/O thread while the next one is
    received (at most one write in flight), so the host's next WRTE is acknowledged during the
    write, as adbd's socketpair to its sync thread lets it be."""
    loop = asyncio.get_running_loop()

    def run(fn, *args):
        return loop.run_in_executor(io, partial(fn, *args))

    link = statmod.S_ISLNK(mode)
    error: str | None = None
    f = None
    writing: asyncio.Future | None = None

    async def settle() -> None:
        """Wait for the write in flight; a failed one turns into the file's error."""
        nonlocal writing, error, f
        if writing is None:
            return
        w, writing = writing, None
        try:
            await w
        except OSError as e:
            error = error or _errno_text("write failed for", path, e)
            await run(_discard, f, path)
            f = None

    if not dry_run and not link:
        try:
            f = await run(_open_target, path, mode)
        except OSError as e:
            error = _errno_text("couldn't create file", path, e)
    pending: list[bytes] = []
    pending_n = 0
    try:
        while True:
            ident, length = struct.unpack("<4sI", await reader.exactly(8))
            if ident == b"DATA":
                if length > CHUNK:
                    raise SyncFail(f"DATA chunk of {length} bytes > {CHUNK}")
                data = await reader.exactly(length)
                if error is None and (f is not None or link):
                    pending.append(data)
                    pending_n += length
                    if f is not None and pending_n >= FLUSH_BYTES:
                        await settle()
                        if f is not None:
                            writing = run(f.write, b"".join(pending))
                        pending, pending_n = [], 0
            elif ident == b"DONE":
                await settle()
                if error is None and not dry_run:
                    try:
                        if link:
                            await run(_make_link, path, b"".join(pending), length)
                        else:
                            await run(f.write, b"".join(pending))
                            await run(_finish_file, f, path, length)
                            f = None
                    except OSError as e:
                        what = "couldn't create symlink" if link else "write failed for"
                        error = _errno_text(what, path, e)
                await stream.write(_fail(error) if error else b"OKAY" + struct.pack("<I", 0))
                return
            else:
                raise SyncFail(f"expected DATA or DONE, got {ident!r}")
    finally:
        if writing is not None:
            with contextlib.suppress(OSError):
                await asyncio.shield(writing)
        if f is not None:
            await run(_discard, f, path)


async def _send_file(stream: Stream, io: Executor, path: str) -> None:
    """RECV: DATA chunks, then DONE in the same write as the last data (one WRTE for a small file)."""
    loop = asyncio.get_running_loop()
    try:
        f = await loop.run_in_executor(io, open, path, "rb")
    except OSError as e:
        await stream.write(_fail(_errno_text("open failed for", path, e)))
        return
    try:
        block = await loop.run_in_executor(io, f.read, FLUSH_BYTES)
        while True:
            out = bytearray()
            for i in range(0, len(block), CHUNK):
                piece = block[i:i + CHUNK]
                out += b"DATA" + struct.pack("<I", len(piece)) + piece
            block = await loop.run_in_executor(io, f.read, FLUSH_BYTES) if len(block) == FLUSH_BYTES else b""
            if not block:
                await stream.write(bytes(out + b"DONE" + struct.pack("<I", 0)))
                return
            await stream.write(bytes(out))
    finally:
        f.close()


async def run_sync(stream: Stream, io: Executor) -> None:
    """Request loop until QUIT, an unknown request (FAIL) or the host closing."""
    loop = asyncio.get_running_loop()
    reader = ByteReader(stream)
    try:
        while True:
            ident, length = struct.unpack("<4sI", await reader.exactly(8))
            if ident == b"QUIT":
                return
            if length > MAX_PATH:
                await stream.write(_fail(f"path too long: {length} > {MAX_PATH}"))
                return
            path = (await reader.exactly(length)).decode("utf-8", "replace")
            if "\0" in path:
                await stream.write(_fail("path contains NUL"))
                return
            if ident == b"STAT":
                st, _ = await loop.run_in_executor(io, _lstat, path)
                await stream.write(STAT_V1.pack(b"STAT", *((st.st_mode, st.st_size & 0xFFFFFFFF,
                                                            int(st.st_mtime) & 0xFFFFFFFF) if st else (0, 0, 0))))
            elif ident in (b"STA2", b"LST2"):
                st, err = await loop.run_in_executor(io, _lstat, path, ident == b"STA2")
                await stream.write(STAT_V2.pack(ident, *_stat_v2_fields(st, err)))
            elif ident in (b"LIST", b"LIS2"):
                await _list(stream, io, path, v2=ident == b"LIS2")
            elif ident == b"SEND":
                name, _, mode_s = path.rpartition(",")
                mode = int(mode_s) if mode_s.isdigit() else statmod.S_IFREG | 0o644
                await _receive(reader, stream, io, name or path, mode, dry_run=False)
            elif ident == b"SND2":
                _id, mode, flags = struct.unpack("<4sII", await reader.exactly(12))
                if flags & COMPRESSION_FLAGS:
                    await stream.write(_fail("compression not supported (sendrecv_v2 not advertised)"))
                    return
                await _receive(reader, stream, io, path, mode, dry_run=bool(flags & DRY_RUN))
            elif ident == b"RECV":
                await _send_file(stream, io, path)
            elif ident == b"RCV2":
                _id, flags = struct.unpack("<4sI", await reader.exactly(8))
                if flags & COMPRESSION_FLAGS:
                    await stream.write(_fail("compression not supported (sendrecv_v2 not advertised)"))
                    return
                await _send_file(stream, io, path)
            else:
                await stream.write(_fail(f"unknown sync request {ident!r}"))
                return
    except SyncFail as e:
        await stream.write(_fail(str(e)))
    except EOFError:
        return


async def _list(stream: Stream, io: Executor, path: str, v2: bool) -> None:
    try:
        entries = await asyncio.get_running_loop().run_in_executor(io, _listdir, path)
    except OSError:
        entries = []
    out = bytearray()
    for name, st in entries:
        raw = name.encode("utf-8", "surrogateescape")
        if v2:
            out += DENT_V2.pack(b"DNT2", *_stat_v2_fields(st), len(raw)) + raw
        else:
            out += DENT_V1.pack(b"DENT", st.st_mode, st.st_size & 0xFFFFFFFF,
                                int(st.st_mtime) & 0xFFFFFFFF, len(raw)) + raw
    out += DENT_V2.pack(b"DONE", *([0] * 12)) if v2 else DENT_V1.pack(b"DONE", 0, 0, 0, 0)
    await stream.write(bytes(out))
