"""Names that become paths, and paths that must stay under their root (host and device code alike).

Every name a user gives that ends up in a path (experiment, run, session, export, model folder) must
match ``SAFE_NAME``: no separators, no ``..``, no leading dot or dash, at most 64 characters. Every
path built from a root and relative parts goes through ``under_root``, which refuses one that would
resolve outside the root (``..``, an absolute part, a symlink pointing out).
"""
from __future__ import annotations

import os
import re

from android_harness.device.errors import DeviceSideError

SAFE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")
SAFE_NAME_TEXT = "1-64 characters of letters, digits, '.', '_' or '-', starting with a letter or digit"


class UnsafePathError(DeviceSideError):
    """A name or path would escape the folder it belongs in."""


def name_problem(value: object, field: str) -> str | None:
    """Why ``value`` cannot be used as the path component ``field``, or None when it can."""
    if not isinstance(value, str) or not SAFE_NAME.fullmatch(value) or ".." in value:
        return f"{field}: {value!r} cannot name a folder; expected {SAFE_NAME_TEXT} (no '..')"
    return None


def check_name(value: str, field: str) -> str:
    """``value`` when it is a safe path component, else ``UnsafePathError`` naming ``field``."""
    problem = name_problem(value, field)
    if problem:
        raise UnsafePathError(problem)
    return value


def under_root(root: str | os.PathLike, *parts: str | os.PathLike) -> str:
    """``root/parts...`` as an absolute path, proven to stay inside ``root`` (symlinks resolved)."""
    base = os.path.realpath(os.fspath(root))
    for part in parts:
        if "\0" in os.fspath(part):
            raise UnsafePathError(f"{os.fspath(part)!r}: a NUL byte in a path")
        if os.path.isabs(os.fspath(part)):
            raise UnsafePathError(f"{os.fspath(part)!r}: an absolute path where a path under {base} was expected")
    target = os.path.realpath(os.path.join(base, *map(os.fspath, parts)))
    if target != base and not target.startswith(base + os.sep):
        joined = os.path.join(*map(os.fspath, parts)) if parts else ""
        raise UnsafePathError(f"{joined!r} resolves to {target}, outside {base}")
    return target
