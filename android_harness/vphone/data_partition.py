"""The phone's ``/data`` as a partition of its own size, like a phone's flash (preset field ``data_size_mb``).

Without it ``/data`` is a folder of the host's disk: ``df`` shows the host's free space and nothing
the phone does ever fills it. With ``data_size_mb = N`` the vphone keeps ``<home>/data.img``, an
ext4 image of N MiB (no reserved blocks, as an app sees /data), and mounts it over ``<home>/data``
once, before the first boot, in a mount namespace of the vphone process's own: every boot's sandbox
(bwrap binds ``<home>/data`` recursively), every shell and the sync threads see the same filesystem,
``df`` on the phone reports its size, and a write past it fails with the kernel's ENOSPC. The image
survives reboots and vphone restarts as flash does. Nothing is mounted on the host: the namespace
(and with it the mount and its autoclear loop device) goes when the vphone process ends; from the
host, the files are under ``/proc/<vphone pid>/root<home>/data``.
"""
from __future__ import annotations

import ctypes
import os
import subprocess
from pathlib import Path

from android_harness.vphone.sandbox import SandboxError

IMAGE = "data.img"
MIB = 1024 * 1024
CLONE_NEWNS = 0x20000
MKFS = "/usr/sbin/mkfs.ext4"      # e2fsprogs
MOUNT = "/usr/bin/mount"          # util-linux
_libc = ctypes.CDLL(None, use_errno=True)


def image_path(home_root: Path) -> Path:
    return Path(home_root) / IMAGE


def _make_image(image: Path, size_mb: int) -> None:
    """A fresh ext4 image, temp-then-rename (a killed mkfs leaves no half-made image)."""
    tmp = image.with_name(image.name + ".tmp")
    with open(tmp, "wb") as f:
        f.truncate(size_mb * MIB)
    out = subprocess.run([MKFS, "-q", "-F", "-m", "0", "-L", "data", "-E", "root_owner=1000:1000", str(tmp)],
                         capture_output=True, text=True)
    if out.returncode != 0:
        tmp.unlink(missing_ok=True)
        raise SandboxError(f"{MKFS} {tmp} failed: {out.stderr.strip()}")
    os.replace(tmp, image)


def _run(argv: list[str], what: str) -> None:
    out = subprocess.run(argv, capture_output=True, text=True)
    if out.returncode != 0:
        raise SandboxError(f"{what}: {out.stderr.strip() or out.returncode}")


def mount_data_partition(home_root: Path, size_mb: int) -> Path:
    """Give this process a mount namespace of its own with ``<home>/data.img`` (made if missing) on
    ``<home>/data``. Call once, before the first boot; returns the image. An image of another size is
    an error naming it (a phone's flash does not change size)."""
    home_root = Path(home_root)
    image, data = image_path(home_root), home_root / "data"
    if image.exists():
        have = image.stat().st_size
        if have != size_mb * MIB:
            raise SandboxError(f"{image} is {have / MIB:g} MiB but data_size_mb is {size_mb}: "
                               f"keep the size or remove the vphone's home")
    else:
        _make_image(image, size_mb)
    data.mkdir(parents=True, exist_ok=True)
    if _libc.unshare(CLONE_NEWNS) != 0:
        err = ctypes.get_errno()
        raise SandboxError(f"unshare(CLONE_NEWNS) for the data partition: {os.strerror(err)} (needs root)")
    _run([MOUNT, "--make-rprivate", "/"], "making the vphone's mounts private")
    _run([MOUNT, "-t", "ext4", "-o", "loop,nosuid,nodev", str(image), str(data)],
         f"mounting {image} on {data} (needs loop devices)")
    return image                          # /data/lost+found stays, as on a phone
