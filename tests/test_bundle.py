"""The device zip imports and runs without torch and without the host package."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from android_harness.bundle import build_device_zip, zip_digest

TORCH_FREE = ("android_harness.device.runner", "android_harness.device.replay", "android_harness.device.engine",
              "android_harness.device.checkpoint", "android_harness.device.backends", "android_harness.device.sampler",
              "android_harness.device.sparcl", "android_harness.device.shards", "android_harness.device.metrics",
              "android_harness.device.rng", "android_harness.device.server")


def _blocked(code: str, zip_path: Path) -> subprocess.CompletedProcess:
    """Run ``code`` with the zip first on sys.path, torch unimportable and the repo not on the path."""
    prelude = (f"import sys; sys.modules['torch'] = None; sys.path.insert(0, {str(zip_path)!r}); "
               "import os; sys.path[:] = [p for p in sys.path if not os.path.isdir(os.path.join(p or '.', 'android_harness'))]; ")
    return subprocess.run([sys.executable, "-c", prelude + code], capture_output=True, text=True, cwd="/", timeout=120)


def test_zip_is_the_device_package(tmp_path: Path) -> None:
    """Every file of the zip is a file of the device package (plus the parent's docstring-only __init__)."""
    import zipfile

    from android_harness.bundle import REPO

    names = zipfile.ZipFile(build_device_zip(tmp_path)).namelist()
    device = sorted(p.relative_to(REPO).as_posix() for p in (REPO / "android_harness/device").rglob("*.py")
                    if "__pycache__" not in p.parts)
    assert sorted(names) == sorted(device + ["android_harness/__init__.py", "__main__.py"])
    assert not any(n.startswith("pipeline/") for n in names)


def test_zip_is_reproducible(tmp_path: Path) -> None:
    a = build_device_zip(tmp_path / "a")
    b = build_device_zip(tmp_path / "b")
    assert zip_digest(a) == zip_digest(b)


def test_device_modules_import_without_torch(tmp_path: Path) -> None:
    z = build_device_zip(tmp_path)
    code = ("import importlib, json; mods = " + repr(TORCH_FREE) + "; "
            "files = {m: importlib.import_module(m).__file__ for m in mods}; print(json.dumps(files))")
    proc = _blocked(code, z)
    assert proc.returncode == 0, proc.stderr
    files = json.loads(proc.stdout)
    assert all(f.startswith(str(z)) for f in files.values()), files


def test_zip_check_command(tmp_path: Path) -> None:
    z = build_device_zip(tmp_path)
    proc = subprocess.run([sys.executable, str(z), "check"], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["numpy"]
    bad = subprocess.run([sys.executable, str(z), "frobnicate"], capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and "usage" in bad.stderr
