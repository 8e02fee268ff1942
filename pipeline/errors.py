"""The one error tree of edgecl.

Every failure a user can cause (bad spec, bad file, bad device state) is an ``EdgeclError``;
the CLI turns it into one clear line and a non-zero exit code. A traceback means a bug.
"""
from __future__ import annotations


class EdgeclError(Exception):
    """Base of every error edgecl raises on purpose."""

    exit_code = 1


class ConfigError(EdgeclError):
    """A spec or override is invalid. Carries every problem found, not just the first."""

    exit_code = 2

    def __init__(self, problems: list[str] | str, source: str | None = None) -> None:
        self.problems = [problems] if isinstance(problems, str) else list(problems)
        self.source = source
        where = f"{source}: " if source else ""
        if len(self.problems) == 1:
            msg = f"{where}{self.problems[0]}"
        else:
            msg = f"{where}{len(self.problems)} problems:\n" + "\n".join(f"  - {p}" for p in self.problems)
        super().__init__(msg)


class DataError(EdgeclError):
    """A dataset or shard file is missing, truncated or corrupted."""

    exit_code = 2


class ExportError(EdgeclError):
    """Export failed; names the pass and, where known, the graph node or layer."""

    def __init__(self, message: str, *, pass_name: str | None = None, node: str | None = None) -> None:
        self.pass_name = pass_name
        self.node = node
        parts = [p for p in (f"pass {pass_name}" if pass_name else None, f"node {node}" if node else None) if p]
        super().__init__(f"{message}" + (f" ({', '.join(parts)})" if parts else ""))


class DeviceError(EdgeclError):
    """Something about a device failed; always names the device."""

    def __init__(self, serial: str | None, message: str) -> None:
        self.serial = serial
        super().__init__(f"[{serial or 'no device'}] {message}")


class AdbError(DeviceError):
    """An adb command ran and failed (non-zero exit, or the transport refused it)."""

    def __init__(self, serial: str | None, cmd: str, rc: int | None, stdout: str = "", stderr: str = "") -> None:
        self.cmd, self.rc, self.stdout, self.stderr = cmd, rc, stdout, stderr
        detail = (stderr or stdout).strip().splitlines()
        tail = f": {detail[-1]}" if detail else ""
        super().__init__(serial, f"`{cmd}` failed (exit {rc}){tail}")


class AdbTimeout(DeviceError):
    """An adb call did not finish within its timeout."""

    def __init__(self, serial: str | None, cmd: str, timeout_s: float) -> None:
        self.cmd, self.timeout_s = cmd, timeout_s
        super().__init__(serial, f"`{cmd}` timed out after {timeout_s:g} s")


class SessionError(EdgeclError):
    """A training session failed; ``phase`` is one of precheck, start, protocol, died; ``cause`` says what
    ended a stream (exited, stopped, silent, events_missing, events_truncated, no_session_end)."""

    PHASES = ("precheck", "start", "protocol", "died")

    def __init__(self, phase: str, message: str, session_id: str | None = None, cause: str | None = None) -> None:
        assert phase in self.PHASES, phase
        self.phase, self.session_id, self.cause = phase, session_id, cause
        sid = f" {session_id}" if session_id else ""
        super().__init__(f"session{sid} {phase}: {message}")


class PowerError(EdgeclError):
    """Power counters unreadable, or energy asked for where it cannot be trusted (e.g. charging)."""
