"""Build the device zipapp ``edgecl_device.pyz``: the device-side code plus the numpy-only shared modules.

The zip holds ``android_harness/device`` (runner, replay store, sampler, backends) and the shared
numpy-only modules it imports (SparCL's core, the shard reader, the CL reservoir/metrics/sampling,
the error tree the shard reader raises). The parent packages (``pipeline``, ``pipeline.cl``,
``pipeline.datasets``, ``pipeline.sparcl``, ``android_harness``) get fresh empty ``__init__.py``
files, so importing a shared module on the device never runs a host ``__init__`` that pulls
torch. Entries have fixed timestamps, so the same sources give byte-identical zips (and deploy,
which compares sha256, pushes it only when the code changed).
"""
from __future__ import annotations

import hashlib
import os
import zipfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
ZIP_NAME = "edgecl_device.pyz"
DEVICE_TREE = "android_harness/device"
SHARED_FILES = (
    "pipeline/errors.py",
    "pipeline/datasets/shards.py",
    "pipeline/cl/reservoir.py",
    "pipeline/cl/metrics.py",
    "pipeline/cl/sampling.py",
    "pipeline/cl/policy.py",
)
SHARED_TREES = ("pipeline/sparcl/core",)
EMPTY_PACKAGES = ("android_harness", "pipeline", "pipeline/cl", "pipeline/datasets", "pipeline/sparcl")
MAIN = (
    '"""edgecl device zip: python3 edgecl_device.pyz run SESSION_DIR | serve QUEUE_DIR [IDLE_S] | check"""\n'
    "import sys\n\n"
    "from android_harness.device.__main__ import main\n\n"
    "sys.exit(main(sys.argv[1:]))\n"
)
_EPOCH = (2020, 1, 1, 0, 0, 0)


def bundle_files(repo: Path = REPO) -> dict[str, bytes]:
    """Archive name -> content of everything that goes into the zip."""
    files: dict[str, bytes] = {}
    for tree in (DEVICE_TREE, *SHARED_TREES):
        for path in sorted((repo / tree).rglob("*.py")):
            if "__pycache__" not in path.parts:
                files[path.relative_to(repo).as_posix()] = path.read_bytes()
    for rel in SHARED_FILES:
        files[rel] = (repo / rel).read_bytes()
    for pkg in EMPTY_PACKAGES:
        files[f"{pkg}/__init__.py"] = b'"""Namespace for the device zip (the host package is not shipped)."""\n'
    files["__main__.py"] = MAIN.encode()
    return files


def build_device_zip(out: str | Path, repo: Path = REPO) -> Path:
    """Write the zipapp to ``out`` (a file path or a folder) atomically; return its path."""
    out = Path(out)
    if out.is_dir() or out.suffix != ".pyz":
        out = out / ZIP_NAME
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(f".{out.name}.{os.getpid()}.tmp")
    with zipfile.ZipFile(tmp, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        for name, data in sorted(bundle_files(repo).items()):
            info = zipfile.ZipInfo(name, date_time=_EPOCH)
            info.external_attr = 0o644 << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            zf.writestr(info, data)
    os.replace(tmp, out)
    return out


def zip_digest(path: str | Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()
