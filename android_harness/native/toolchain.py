"""The compilers and tools each ABI's build needs, and the Debian packages that provide them."""
from __future__ import annotations

import shutil
import subprocess
from dataclasses import dataclass

from android_harness.native.errors import NativeBuildError, ToolchainMissing

ABIS = ("arm64-v8a", "x86_64")


@dataclass(frozen=True)
class Toolchain:
    """``tools`` maps each command the Makefile runs for this ABI to the Debian package holding it."""

    abi: str
    cxx: str
    tools: tuple[tuple[str, str], ...]
    run_prefix: tuple[str, ...] = ()  # how the host runs the binary (qemu for arm64)

    def check(self) -> None:
        """Raise ``ToolchainMissing`` for the first tool that is not on PATH."""
        for tool, package in self.tools:
            if shutil.which(tool) is None:
                raise ToolchainMissing(self.abi, tool, package)

    def version(self) -> str:
        """The compiler's identification line (part of the build's cache key)."""
        out = subprocess.run([self.cxx, "--version"], capture_output=True, text=True, check=False)
        return out.stdout.splitlines()[0] if out.returncode == 0 and out.stdout else "unknown"


TOOLCHAINS = {
    "arm64-v8a": Toolchain(
        "arm64-v8a", "aarch64-linux-gnu-g++",
        (("make", "make"), ("aarch64-linux-gnu-g++", "g++-aarch64-linux-gnu"),
         ("aarch64-linux-gnu-strip", "binutils-aarch64-linux-gnu"), ("qemu-aarch64-static", "qemu-user-static")),
        ("qemu-aarch64-static",)),
    "x86_64": Toolchain("x86_64", "g++", (("make", "make"), ("g++", "g++"), ("strip", "binutils"))),
}


def toolchain(abi: str) -> Toolchain:
    """The toolchain of ``abi``; an unknown ABI is a ``NativeBuildError`` listing the known ones."""
    try:
        return TOOLCHAINS[abi]
    except KeyError:
        raise NativeBuildError(abi, f"unknown ABI (expected one of {', '.join(ABIS)})") from None
