"""The harness's errors (devices, adb, sessions, power), on the root tree of ``android_harness.device.errors``."""
from __future__ import annotations

from android_harness.device.errors import EXIT_FAILED, EXIT_PHONE, EdgeclError


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
        self.exit_code = EXIT_PHONE if phase == "precheck" else EXIT_FAILED
        sid = f" {session_id}" if session_id else ""
        super().__init__(f"session{sid} {phase}: {message}")


class PowerError(EdgeclError):
    """Power counters unreadable, or energy asked for where it cannot be trusted (e.g. charging)."""
