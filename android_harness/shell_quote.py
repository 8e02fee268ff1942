"""Device shell text: arguments that no name or path can break out of, and detached background jobs.

Every argument is single-quoted (POSIX; Android's mksh/toybox sh parse it the same way), so
``; rm -rf``, ``$(..)``, backticks, globs, newlines and quotes in names stay literal.
"""
from __future__ import annotations

import shlex
from typing import Sequence


def quote(arg: str) -> str:
    if "\0" in arg:
        raise ValueError(f"NUL byte in shell argument {arg!r}")
    return shlex.quote(arg)


def join(argv: Sequence[str]) -> str:
    """``["ls", "-l", "a b"]`` -> ``ls -l 'a b'``."""
    if isinstance(argv, str):
        raise TypeError("join() takes a list of arguments, not a string")
    return " ".join(quote(a) for a in argv)


def to_shell(cmd: "str | Sequence[str]") -> str:
    """A string is trusted shell text (pipes allowed); a list is quoted argument by argument."""
    return cmd if isinstance(cmd, str) else join(cmd)


def detached(cmd: str, log_file: str) -> str:
    """Shell text that runs ``cmd`` in its own session (adbd hangs up the shell's process group when
    the stream closes), immune to SIGHUP, with no terminal fds held open."""
    tail = f" >{quote(log_file)} 2>&1 </dev/null &"
    return (f"if command -v setsid >/dev/null 2>&1; then setsid nohup {cmd}{tail} "
            f"else nohup {cmd}{tail} fi")
