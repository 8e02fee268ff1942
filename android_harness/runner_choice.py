"""Which device runner a session uses, and the command that starts it.

A stock phone has no Python: its sessions run the native runner (``android_harness/native``, one
static binary per ABI, ExecuTorch's C++ runtime). ExecuTorch sessions use it on every phone by default.
The Python runner (one zip: ``android_harness/device``) serves phones that have a Python, and is the
only way to run ONNX Runtime Training sessions (no Android build of ORT's training API is on any
registry here; see the README).
"""
from __future__ import annotations

from dataclasses import dataclass

from android_harness.errors import SessionError
from android_harness.profile import DeviceProfile

NATIVE_REMOTE = "runner/edgecl-runner"
PYTHON_REMOTE = "runner/edgecl_device.pyz"
NATIVE_ABIS = ("arm64-v8a", "x86_64")


@dataclass(frozen=True)
class RunnerChoice:
    """``kind`` is "native" or "python"; ``remote`` the runner's path under the storage root."""

    kind: str
    remote: str
    python_cmd: str = ""

    def argv(self, runner_path: str, *args: str) -> list[str]:
        """The command line on the device (``runner_path``: the runner's absolute path there)."""
        return [runner_path, *args] if self.kind == "native" else [self.python_cmd, runner_path, *args]


def choose_runner(profile: DeviceProfile, runtime: str, prefer: str = "") -> RunnerChoice:
    """The runner for ``runtime`` on this phone; ``prefer`` = "python" keeps ExecuTorch on the Python runner
    where the phone has one. An ORT session on a phone without Python is refused before anything is pushed."""
    if runtime == "executorch" and not (prefer == "python" and profile.python_cmd):
        if profile.abi not in NATIVE_ABIS:
            raise SessionError("precheck", f"the native runner is built for {', '.join(NATIVE_ABIS)}; this phone's ABI "
                                           f"is {profile.abi or 'unknown'!r}")
        return RunnerChoice("native", NATIVE_REMOTE)
    if profile.python_cmd:
        return RunnerChoice("python", PYTHON_REMOTE, profile.python_cmd)
    raise SessionError("precheck", f"{runtime} sessions need the Python device runner and this phone has no Python: "
                                   "use export.runtime = 'executorch' (the native runner), or a phone with Python "
                                   "(e.g. Termux; the virtual phone preset pixel7-termux)")


def default_runner(profile: DeviceProfile) -> RunnerChoice:
    """For commands that only follow sessions (attach, cancel): the runner a session there would use."""
    return RunnerChoice("python", PYTHON_REMOTE, profile.python_cmd) if profile.python_cmd else \
        RunnerChoice("native", NATIVE_REMOTE)
