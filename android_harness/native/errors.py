"""Errors of the native runner build: part of the one ``EdgeclError`` tree (``pipeline/errors.py``)."""
from __future__ import annotations

from android_harness.device.errors import EdgeclError


class NativeBuildError(EdgeclError):
    """Building ``edgecl-runner`` failed; names the ABI and the failing step."""

    def __init__(self, abi: str, message: str) -> None:
        self.abi = abi
        super().__init__(f"edgecl-runner ({abi}): {message}")


class ToolchainMissing(NativeBuildError):
    """A compiler or tool the build needs is not installed; names the Debian package that has it."""

    exit_code = 2

    def __init__(self, abi: str, tool: str, package: str) -> None:
        self.tool, self.package = tool, package
        super().__init__(abi, f"`{tool}` not found: install the Debian package {package} "
                              f"(apt-get install -y {package}, or run scripts/system_deps.sh as root)")
