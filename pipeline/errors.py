"""The one error tree of edgecl, as the host sees it.

The root (``EdgeclError``, ``ConfigError``, ``DataError``, the device-side errors) lives at the
bottom layer (``android_harness.device.errors``), the device/adb/session/power errors in
``android_harness.errors``; this module adds ``ExportError`` and re-exports the rest, so host code
has one place to import from. The CLI turns an ``EdgeclError`` into one clear line and an exit code.
"""
from __future__ import annotations

from android_harness.device.errors import (EXIT_MODEL, CancelledError, CheckpointError, ConfigError, DataError, DeviceSideError,
                                           EdgeclError, ReplayStoreError, SessionSpecError, StorageFullError)
from android_harness.errors import AdbError, AdbTimeout, DeviceError, PowerError, SessionError

__all__ = ["AdbError", "AdbTimeout", "CancelledError", "CheckpointError", "ConfigError", "DataError", "DeviceError",
           "DeviceSideError", "EdgeclError", "ExportError", "PowerError", "ReplayStoreError", "SessionError",
           "SessionSpecError", "StorageFullError"]


class ExportError(EdgeclError):
    """Export failed; names the pass and, where known, the graph node or layer."""

    exit_code = EXIT_MODEL

    def __init__(self, message: str, *, pass_name: str | None = None, node: str | None = None) -> None:
        self.pass_name = pass_name
        self.node = node
        parts = [p for p in (f"pass {pass_name}" if pass_name else None, f"node {node}" if node else None) if p]
        super().__init__(f"{message}" + (f" ({', '.join(parts)})" if parts else ""))
