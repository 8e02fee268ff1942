"""The native runner's binaries for the tests: ``edgecl-runner`` (android_harness.native.build) and
the C++ unit-test binary ``edgecl-units`` (the Makefile's ``units`` target), per ABI.

``edgecl-units`` is built by the same make in the build's work folder (``<EDGECL_HOME>/native/work/
<abi>-<tree>``, under the same per-ABI lock), so it reuses every object the runner's build compiled,
and is then cached beside the runner's build. An ABI
whose toolchain is missing is skipped on a workstation and fails in CI (``CI=true``).
"""
from __future__ import annotations

import fcntl
import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from android_harness.native import ToolchainMissing, build_runner, run_prefix
from android_harness.native.build import NATIVE_DIR, output_dir, work_dir
from android_harness.native.toolchain import toolchain


def _skip_or_raise(exc: ToolchainMissing) -> None:
    if os.environ.get("CI") == "true":
        raise exc
    pytest.skip(str(exc))


def missing_system_package(message: str) -> None:
    """A test's system package is absent: a failure in CI (CI=true), a skip elsewhere."""
    if os.environ.get("CI") == "true":
        pytest.fail(message)
    pytest.skip(message)


def runner_binary(abi: str) -> Path:
    """``edgecl-runner`` for ``abi`` built from the current sources (cached by source hash)."""
    try:
        return build_runner(abi, show_progress=False)
    except ToolchainMissing as exc:
        _skip_or_raise(exc)
        raise


def units_binary(abi: str) -> Path:
    """``edgecl-units`` for ``abi``, made in the build's work folder (objects shared with the runner) and
    kept beside the runner's cached build, keyed by the unit sources too: a new checkout whose runner is
    already cached (its work folder empty) does not recompile the runtime for the unit cases."""
    try:
        toolchain(abi).check()
    except ToolchainMissing as exc:
        _skip_or_raise(exc)
    cached = output_dir(abi) / f"units-{_units_key()}" / "edgecl-units"
    if cached.is_file():
        return cached
    work = work_dir(abi)
    work.mkdir(parents=True, exist_ok=True)
    with open(work.with_name(work.name + ".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        out = subprocess.run(["make", "-C", str(NATIVE_DIR), "-j2", f"ABI={abi}", f"OUT={work}", f"PYTHON={sys.executable}",
                              "units"], capture_output=True, text=True)
    assert out.returncode == 0, f"make units ({abi}) failed:\n{out.stdout[-3000:]}\n{out.stderr[-3000:]}"
    if output_dir(abi) == cached.parents[1]:           # the sources did not change while make ran
        cached.parent.mkdir(parents=True, exist_ok=True)
        tmp = cached.with_name(f".{cached.name}.{os.getpid()}")
        shutil.copy2(work / "edgecl-units", tmp)
        os.replace(tmp, cached)
    return work / "edgecl-units"


def _units_key() -> str:
    """sha256 (16 hex) of the unit-case sources (android_harness/native/tests)."""
    h = hashlib.sha256()
    for f in sorted((NATIVE_DIR / "tests").rglob("*")):
        if f.is_file():
            h.update(f.relative_to(NATIVE_DIR).as_posix().encode() + b"\0" + f.read_bytes())
    return h.hexdigest()[:16]


def command(abi: str, binary: Path, *args: str) -> list[str]:
    """The host command that runs ``binary`` (qemu-aarch64-static for arm64)."""
    return [*run_prefix(abi), str(binary), *map(str, args)]
