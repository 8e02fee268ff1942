"""``sync:`` service: STAT/STA2/LST2, LIST/LIS2, SEND/SND2, RECV/RCV2, QUIT (android.md A, Sync).

All disk I/O runs in the default thread pool so a 50 MB push never stalls other streams. Paths are
confined to the vphone's home folder; anything else looks missing (STAT) or fails (FAIL).
"""
from __future__ import annotations

import asyncio
import contextlib
import errno
import os
import struct
from functools import partial

from android_harness.vphone.home import VphoneHome
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


def _confine(home: VphoneHome, path: str) -> str:
    if not path.startswith("/"):
        path = str(home.storage / path)
    full = os.path.normpath(path)
    parent = os.path.realpath(os.path.dirname(full))
    root = str(home.root)
    if parent != root and not parent.startswith(root + os.sep) and full != root:
        raise SyncFail(f"{path}: permission denied (outside the vphone home {root})")
    return os.path.join(parent, os.path.basename(full)) if full != root else root


def _stat_v2_fields(st: os.stat_result | None, err: int = 0) -> tuple:
    if st is None:
        return (err, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    return (0, st.st_dev, st.st_ino, st.st_mode, st.st_nlink, st.st_uid, st.st_gid, st.st_size,
            int(st.st_atime), int(st.st_mtime), int(st.st_ctime))


def _lstat(home: VphoneHome, path: str, follow: bool = False) -> tuple[os.stat_result | None, int]:
    try:
        real = _confine(home, path)
        return (os.stat(real) if follow else os.lstat(real)), 0
    except SyncFail:
        return None, errno.EACCES
    except OSError as e:
        return None, e.errno or errno.EIO


def _listdir(home: VphoneHome, path: str) -> list[tuple[str, os.stat_result]]:
    real = _confine(home, path)
    out = []
    for name in [".", ".."] + sorted(os.listdir(real)):
        with contextlib.suppress(OSError):
            out.append((name, os.lstat(os.path.join(real, name))))
    return out


def _fail(message: str) -> bytes:
    data = message.encode()[:4096]
    return b"FAIL" + struct.pack("<I", len(data)) + data


async def _in_thread(fn, *args):
    return await asyncio.get_running_loop().run_in_executor(None, partial(fn, *args))


async def _receive_file(reader: ByteReader, stream: Stream, home: VphoneHome, path: str,
                        mode: int, dry_run: bool) -> None:
    """DATA* DONE into ``path`` (parents created); reply once, OKAY or FAIL. A failed or
    interrupted transfer leaves no partial file behind."""
    error: str | None = None
    f = None
    try:
        real = _confine(home, path)
        if not dry_run:
            await _in_thread(os.makedirs, os.path.dirname(real), 0o771, True)
            f = await _in_thread(open, real, "wb")
    except (SyncFail, OSError) as e:
        error = str(e)
    pending: list[bytes] = []
    pending_n = 0
    try:
        while True:
            ident, length = struct.unpack("<4sI", await reader.exactly(8))
            if ident == b"DATA":
                if length > CHUNK:
                    raise SyncFail(f"DATA chunk of {length} bytes > {CHUNK}")
                data = await reader.exactly(length)
                if f is not None and error is None:
                    pending.append(data)
                    pending_n += length
                    if pending_n >= FLUSH_BYTES:
                        await _in_thread(f.write, b"".join(pending))
                        pending, pending_n = [], 0
            elif ident == b"DONE":
                if f is not None and error is None:
                    await _in_thread(f.write, b"".join(pending))
                    await _in_thread(f.close)
                    await _in_thread(os.chmod, real, mode & 0o7777 or 0o644)
                    await _in_thread(os.utime, real, (length, length))
                    f = None
                await stream.write(_fail(error) if error else b"OKAY" + struct.pack("<I", 0))
                return
            else:
                raise SyncFail(f"expected DATA or DONE, got {ident!r}")
    except OSError as e:
        error = str(e)
        await stream.write(_fail(error))
    finally:
        if f is not None:
            with contextlib.suppress(OSError):
                f.close()
                os.unlink(real)


async def _send_file(stream: Stream, home: VphoneHome, path: str) -> None:
    try:
        f = await _in_thread(open, _confine(home, path), "rb")
    except (SyncFail, OSError) as e:
        await stream.write(_fail(str(e)))
        return
    try:
        while True:
            block = await _in_thread(f.read, FLUSH_BYTES)
            if not block:
                break
            out = bytearray()
            for i in range(0, len(block), CHUNK):
                piece = block[i:i + CHUNK]
                out += b"DATA" + struct.pack("<I", len(piece)) + piece
            await stream.write(bytes(out))
        await stream.write(b"DONE" + struct.pack("<I", 0))
    finally:
        f.close()


async def run_sync(stream: Stream, home: VphoneHome) -> None:
    """Request loop until QUIT, an unknown request (FAIL) or the host closing."""
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
                st, _ = await _in_thread(_lstat, home, path)
                await stream.write(STAT_V1.pack(b"STAT", *((st.st_mode, st.st_size & 0xFFFFFFFF,
                                                            int(st.st_mtime) & 0xFFFFFFFF) if st else (0, 0, 0))))
            elif ident in (b"STA2", b"LST2"):
                st, err = await _in_thread(_lstat, home, path, ident == b"STA2")
                await stream.write(STAT_V2.pack(ident, *_stat_v2_fields(st, err)))
            elif ident in (b"LIST", b"LIS2"):
                await _list(stream, home, path, v2=ident == b"LIS2")
            elif ident == b"SEND":
                name, _, mode_s = path.rpartition(",")
                mode = int(mode_s) if mode_s.isdigit() else 0o644
                await _receive_file(reader, stream, home, name or path, mode, dry_run=False)
            elif ident == b"SND2":
                _id, mode, flags = struct.unpack("<4sII", await reader.exactly(12))
                if flags & COMPRESSION_FLAGS:
                    await stream.write(_fail("compression not supported (sendrecv_v2 not advertised)"))
                    return
                await _receive_file(reader, stream, home, path, mode, dry_run=bool(flags & DRY_RUN))
            elif ident == b"RECV":
                await _send_file(stream, home, path)
            elif ident == b"RCV2":
                _id, flags = struct.unpack("<4sI", await reader.exactly(8))
                if flags & COMPRESSION_FLAGS:
                    await stream.write(_fail("compression not supported (sendrecv_v2 not advertised)"))
                    return
                await _send_file(stream, home, path)
            else:
                await stream.write(_fail(f"unknown sync request {ident!r}"))
                return
    except SyncFail as e:
        await stream.write(_fail(str(e)))
    except EOFError:
        return


async def _list(stream: Stream, home: VphoneHome, path: str, v2: bool) -> None:
    try:
        entries = await _in_thread(_listdir, home, path)
    except (SyncFail, OSError):
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
