"""The harness's errors (devices, adb, sessions, power), on the root tree of ``android_harness.device.errors``."""
from __future__ import annotations

from android_harness.device.errors import EXIT_FAILED, EXIT_PHONE, EdgeclError


class DeviceError(EdgeclError):
    """Something about a device failed; always names the device."""

    def __init__(self, serial: str | None, message: str) -> None:
        self.serial = serial
        super().__init__(f"[{serial or 'no device'}] {message}")


SHOWN_CMD_CHARS = 100       # a longer (or multi-line) command is one of edgecl's scripts: named, never shown
READ_ONLY = "Read-only file system"


def shown_command(cmd: str) -> str:
    """What a message says of a device command: the command when it is one short line, else that it was edgecl's."""
    return f"`{cmd}`" if "\n" not in cmd and len(cmd) <= SHOWN_CMD_CHARS else "a device command of edgecl's"


class AdbError(DeviceError):
    """An adb command ran and failed (non-zero exit, or the transport refused it). The message carries the
    command only when it is short (``cmd`` keeps it whole), and says what a read-only storage means."""

    def __init__(self, serial: str | None, cmd: str, rc: int | None, stdout: str = "", stderr: str = "") -> None:
        self.cmd, self.rc, self.stdout, self.stderr = cmd, rc, stdout, stderr
        detail = (stderr or stdout).strip().splitlines()
        ro = next((line for line in detail if READ_ONLY in line), None)
        if ro is not None:
            super().__init__(serial, f"the phone's storage is read-only ({ro.strip()}); its filesystem was remounted "
                                     "read-only, usually after errors: reboot the phone (or free and remount the "
                                     "storage), then continue the run with --resume")
            return
        tail = f": {detail[-1]}" if detail else ""
        super().__init__(serial, f"{shown_command(cmd)} failed (exit {rc}){tail}")


class AdbTimeout(DeviceError):
    """An adb call did not finish within its timeout."""

    def __init__(self, serial: str | None, cmd: str, timeout_s: float) -> None:
        self.cmd, self.timeout_s = cmd, timeout_s
        super().__init__(serial, f"{shown_command(cmd)} timed out after {timeout_s:g} s")


class SessionError(EdgeclError):
    """A training session failed or was left paused; ``phase`` is one of precheck, start, protocol, died,
    paused; ``cause`` says what ended a stream (exited, paused, silent, events_missing, events_truncated,
    no_session_end)."""

    PHASES = ("precheck", "start", "protocol", "died", "paused")

    def __init__(self, phase: str, message: str, session_id: str | None = None, cause: str | None = None) -> None:
        assert phase in self.PHASES, phase
        self.phase, self.session_id, self.cause, self.detail = phase, session_id, cause, message
        self.exit_code = EXIT_PHONE if phase == "precheck" else EXIT_FAILED
        sid = f" {session_id}" if session_id else ""
        super().__init__(f"session{sid} {phase}: {message}")


class PowerError(EdgeclError):
    """Power counters unreadable, or energy asked for where it cannot be trusted (e.g. charging)."""
