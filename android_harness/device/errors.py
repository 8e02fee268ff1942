"""The root of edgecl's error tree, at the bottom layer (stdlib only, shipped in the device zip).

Every failure a user can cause is an ``EdgeclError``; the CLI turns one into a clear line and
``exit_code``. Device-side code raises the ``DeviceSideError`` branch; ``android_harness.errors``
adds the device/adb/session/power errors of the harness and ``pipeline.errors`` the export error,
both on this root, so one ``except EdgeclError`` catches them all.
"""
from __future__ import annotations

# The CLI's exit codes, one per kind of refusal (README "Exit codes"); 130 is Ctrl-C.
EXIT_FAILED = 1    # something failed while working: a device, adb, a session, a build
EXIT_SPEC = 2      # the spec, an override or a command-line argument is refused
EXIT_DATA = 3      # the data set is refused (missing, unreadable, or unusable as the spec asks)
EXIT_MODEL = 4     # the model cannot be exported for, or run by, the runtime the run uses
EXIT_PHONE = 5     # the phone refuses the session before it starts (no runner for its ABI, no Python for ORT, no space)


class EdgeclError(Exception):
    """Base of every error edgecl raises on purpose."""

    exit_code = EXIT_FAILED


class ConfigError(EdgeclError):
    """A spec or override is invalid. Carries every problem found, not just the first."""

    exit_code = EXIT_SPEC

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

    exit_code = EXIT_DATA


class DeviceSideError(EdgeclError):
    """Base of every error the device-side code raises on purpose."""


class SessionSpecError(DeviceSideError):
    """``session.json`` is missing a field or has a wrong value (the message names the field)."""


class StorageFullError(DeviceSideError):
    """The replay store's storage tier would exceed its byte budget."""


class NoSpaceError(DeviceSideError):
    """The device's filesystem is full: the message is the one-line cause the host shows
    (``No space left on device on <path>: free X, needed Y``, as the native runner's)."""


class ReplayStoreError(DeviceSideError):
    """The replay store's files do not match what the session expects (shape, position)."""


class CheckpointError(DeviceSideError):
    """A checkpoint is missing, of another format or runtime, or does not fit the program."""


class CancelledError(DeviceSideError):
    """The runner received SIGTERM and stopped at a step boundary."""
