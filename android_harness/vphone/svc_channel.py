"""The folders between the phone's service commands (device_tools.py) and the vphone process, laid
out so that the vphone (host root) never follows a path the phone's shell chose:

    <home>/svc      root 0755   -> /dev/socket/edgecl_vphone, READ-ONLY in the phone: what the vphone
                                   publishes (``ipowerstats.txt``) and the ``powerctl`` FIFO (root:shell 0620)
    <home>/svc/ctl  shell 0770  -> /dev/socket/edgecl_vphone/ctl, the shell's drop folder:
                                   ``battery_ctl`` (read by the power model), ``ipowerstats.prev``

The vphone writes only in ``svc``, which no process of the phone can change: a temp name created
with O_CREAT|O_EXCL|O_NOFOLLOW, then renamed, both under the folder's fd (``publish``). It reads the
drop folder only through ``read_drop``: the name opened O_PATH|O_NOFOLLOW under the folder's fd,
fstat'd (a regular file with one link, at most ``limit`` bytes), then reopened through that same fd.
So a symlink, FIFO, socket or device node planted there is never followed or opened, a rename race
only swaps which phone file is read, and nothing there can block the vphone's loop.
"""
from __future__ import annotations

import contextlib
import os
import shutil
import stat
from pathlib import Path

CTL = "ctl"                  # the drop folder, under svc
POWERCTL = "powerctl"        # reboot requests (a FIFO the shell writes, as init's sys.powerctl)
_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC


def create_channel(svc: Path, shell_uid: int) -> None:
    """A fresh ``svc`` (root's, read-only in the phone) with an empty drop folder and the powerctl
    FIFO; whatever the previous boot's shell left is removed without following its links."""
    if svc.exists():
        shutil.rmtree(svc)           # fd-based on Linux: links inside are removed, not followed
    svc.mkdir(0o755)
    os.chmod(svc, 0o755)
    (svc / CTL).mkdir(0o770)
    os.chown(svc / CTL, shell_uid, shell_uid)
    os.chmod(svc / CTL, 0o770)
    os.mkfifo(svc / POWERCTL)
    os.chown(svc / POWERCTL, 0, shell_uid)
    os.chmod(svc / POWERCTL, 0o620)


def publish(folder: Path, name: str, text: str) -> None:
    """Replace ``folder/name`` atomically (readers never see half a file), never through a link."""
    dfd = os.open(folder, _DIR_FLAGS)
    tmp = f".{name}.tmp"
    try:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp, dir_fd=dfd)
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o644, dir_fd=dfd)
        try:
            with os.fdopen(fd, "wb", closefd=False) as f:
                f.write(text.encode())
            os.fchmod(fd, 0o644)
        finally:
            os.close(fd)
        os.rename(tmp, name, src_dir_fd=dfd, dst_dir_fd=dfd)
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(tmp, dir_fd=dfd)
        raise
    finally:
        os.close(dfd)


def read_drop(folder: Path, name: str, limit: int) -> bytes | None:
    """``folder/name`` if it is a regular file with one link and at most ``limit`` bytes, else None
    (absent, a link, a FIFO or device node, or too big: the shell's file is then ignored)."""
    try:
        dfd = os.open(folder, _DIR_FLAGS)
    except OSError:
        return None
    try:
        pfd = os.open(name, os.O_PATH | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=dfd)
    except OSError:
        return None
    finally:
        os.close(dfd)
    try:
        st = os.fstat(pfd)
        if not stat.S_ISREG(st.st_mode) or st.st_nlink != 1 or st.st_size > limit:
            return None
        fd = os.open(f"/proc/self/fd/{pfd}", os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC)
    except OSError:
        return None
    finally:
        os.close(pfd)
    try:
        data = os.read(fd, limit + 1)
    except OSError:
        return None
    finally:
        os.close(fd)
    return data if len(data) <= limit else None
