"""The vphone's service channel (svc_channel.py): what the shell can plant in its drop folder is read
only when it is a small regular file with one link, never followed or opened otherwise, never
blocking; a publish never writes through a link planted at its temp or final name."""
from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from android_harness.vphone.svc_channel import POWERCTL, create_channel, publish, read_drop

LIMIT = 64


@pytest.fixture()
def victim(tmp_path: Path) -> Path:
    path = tmp_path / "victim"
    path.write_text("unplugged=1\n")
    path.chmod(0o600)
    return path


def test_a_small_regular_file_is_read_anything_else_is_not(tmp_path: Path, victim: Path) -> None:
    drop = tmp_path / "drop"
    drop.mkdir()
    assert read_drop(drop, "ctl", LIMIT) is None                                # absent
    (drop / "ctl").write_text("unplugged=1\n")
    assert read_drop(drop, "ctl", LIMIT) == b"unplugged=1\n"
    (drop / "ctl").write_bytes(b"x" * LIMIT)
    assert read_drop(drop, "ctl", LIMIT) == b"x" * LIMIT                       # the bound itself is read
    (drop / "ctl").write_bytes(b"x" * (LIMIT + 1))
    assert read_drop(drop, "ctl", LIMIT) is None                                # over the bound
    (drop / "ctl").unlink()
    (drop / "ctl").symlink_to(victim)
    assert read_drop(drop, "ctl", LIMIT) is None                                # a link is not followed
    (drop / "ctl").unlink()
    (drop / "own").write_text("unplugged=1\n")
    os.link(drop / "own", drop / "ctl")
    assert read_drop(drop, "ctl", LIMIT) is None                                # a second name of a file
    (drop / "ctl").unlink()
    os.mkfifo(drop / "ctl")
    assert read_drop(drop, "ctl", LIMIT) is None                                # a FIFO: no block, no read
    (drop / "ctl").unlink()
    os.mknod(drop / "ctl", 0o666 | stat.S_IFCHR, os.makedev(1, 3))              # /dev/null's numbers
    assert read_drop(drop, "ctl", LIMIT) is None
    (drop / "ctl").unlink()
    (drop / "ctl").mkdir()
    assert read_drop(drop, "ctl", LIMIT) is None
    assert victim.read_text() == "unplugged=1\n"


def test_a_linked_drop_folder_is_not_entered(tmp_path: Path) -> None:
    real = tmp_path / "real"
    real.mkdir()
    (real / "ctl").write_text("unplugged=1\n")
    (tmp_path / "drop").symlink_to(real)
    assert read_drop(tmp_path / "drop", "ctl", LIMIT) is None


def test_publish_replaces_planted_links_without_following_them(tmp_path: Path, victim: Path) -> None:
    folder = tmp_path / "svc"
    folder.mkdir()
    (folder / ".dump.txt.tmp").symlink_to(victim)
    (folder / "dump.txt").symlink_to(victim)
    publish(folder, "dump.txt", "rails\n")
    assert victim.read_text() == "unplugged=1\n"
    assert stat.S_ISREG(os.lstat(folder / "dump.txt").st_mode) and (folder / "dump.txt").read_text() == "rails\n"
    assert sorted(os.listdir(folder)) == ["dump.txt"]
    assert stat.S_IMODE(os.stat(folder / "dump.txt").st_mode) == 0o644


def test_create_channel_removes_what_the_last_boot_left_without_following(tmp_path: Path, victim: Path) -> None:
    svc = tmp_path / "svc"
    create_channel(svc, os.getuid())
    (svc / "ctl" / "to-victim").symlink_to(victim)
    (svc / "ctl" / "to-dir").symlink_to(tmp_path)
    create_channel(svc, os.getuid())
    assert sorted(os.listdir(svc)) == ["ctl", POWERCTL] and os.listdir(svc / "ctl") == []
    assert stat.S_ISFIFO(os.lstat(svc / POWERCTL).st_mode) and stat.S_IMODE(os.stat(svc).st_mode) == 0o755
    assert victim.read_text() == "unplugged=1\n" and sorted(os.listdir(tmp_path)) == ["svc", "victim"]
