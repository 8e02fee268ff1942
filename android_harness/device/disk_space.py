"""A full disk, reported with its cause and never leaving a torn file (the native runner's disk_space.cpp).

Appends that fail part-way are cut back to the file's previous end (events.jsonl, trace.jsonl and the
replay store stay whole lines / records). A session holds a small reserve file from its start: its
error path frees it first, so the ``error`` event, ``session_end`` and result.json still fit on a
disk the session filled. The error names the path, the free space and what was needed, in one line.
"""
from __future__ import annotations

import errno
import os

from android_harness.device.errors import NoSpaceError

ERROR_RESERVE_BYTES = 64 * 1024      # events and result.json of the error path: a few KB
FULL_ERRNOS = (errno.ENOSPC, errno.EDQUOT)


def human_size(n: int) -> str:
    """As the native runner prints sizes (bytes below 10 KiB, then KB, then MB)."""
    if 0 <= n < 10 * 1024:
        return f"{n} bytes"
    if n < 1024 * 1024:
        return f"{n / 1024:.1f} KB"
    return f"{n / (1024 * 1024):.2f} MB"


def free_bytes(path: str) -> int:
    """Bytes free to this user on the filesystem holding ``path`` (or its nearest existing parent); -1 if unknown."""
    p = os.path.abspath(path)
    while True:
        try:
            st = os.statvfs(p)
            return st.f_bavail * st.f_frsize
        except OSError:
            if p == "/":
                return -1
            p = os.path.dirname(p)


def no_space_error(path: str, needed: int | None, what: str = "") -> NoSpaceError:
    """``No space left on device on <path>: free X, needed Y`` (+ `` (what)``)."""
    free = free_bytes(path)
    msg = f"No space left on device on {path}: free {'unknown' if free < 0 else human_size(free)}, " \
          f"needed {'more' if needed is None else human_size(needed)}"
    return NoSpaceError(msg + (f" ({what})" if what else ""))


def is_full(exc: BaseException) -> bool:
    return isinstance(exc, OSError) and exc.errno in FULL_ERRNOS


def check_free_space(path: str, needed: int, what: str = "") -> None:
    """Raise no_space_error when fewer than ``needed`` bytes are free where ``path`` would be written."""
    free = free_bytes(path)
    if 0 <= free < needed:
        raise no_space_error(path, needed, what)


def append_whole(fd: int, path: str, data: bytes) -> None:
    """Write all of ``data`` at the end of ``fd`` (opened O_APPEND) as one unit: a write that fails part-way
    is cut back to the file's previous size, and ENOSPC becomes no_space_error."""
    start = os.fstat(fd).st_size
    view, done = memoryview(data), 0
    while done < len(data):
        try:
            n = os.write(fd, view[done:])
        except InterruptedError:
            continue
        except OSError as exc:
            if done:
                os.ftruncate(fd, start)
            if is_full(exc):
                raise no_space_error(path, len(data)) from None
            raise OSError(exc.errno, exc.strerror, path) from None   # named: the one-line cause says which file
        if n == 0:                               # no progress on a non-empty write: the disk is full
            if done:
                os.ftruncate(fd, start)
            raise no_space_error(path, len(data))
        done += n


class SpaceReserve:
    """A file of ``nbytes`` zeros held on the session's filesystem until ``release()``."""

    def __init__(self, path: str, nbytes: int = ERROR_RESERVE_BYTES) -> None:
        self.path: str | None = path
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_APPEND | os.O_CLOEXEC, 0o644)
        try:
            append_whole(fd, path, bytes(nbytes))   # zeros written, not sparse: the space is taken now
        except (OSError, NoSpaceError) as exc:  # never left behind half-made, whatever refused it
            os.close(fd)
            self.release()
            if isinstance(exc, NoSpaceError):
                raise NoSpaceError(f"{exc} (the session's error reserve)") from None
            raise
        os.close(fd)

    def release(self) -> None:
        """Remove the file (idempotent): its space is free for the writes that follow."""
        if self.path is not None:
            try:
                os.unlink(self.path)
            except FileNotFoundError:
                pass
            self.path = None
