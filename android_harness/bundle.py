"""Build the device zipapp ``edgecl_device.pyz`` from the one device package, ``android_harness/device``.

Everything the runner imports on a phone lives in that package (engine, replay store, SparCL core,
shards, metrics, errors, backends, sampler) and imports only the standard library, numpy and the
runtime bindings (``tests/test_layering.py`` enforces it), so the zip is that folder plus the
parent package's own ``__init__.py`` (a docstring) and a ``__main__``: no file list to keep, no
stub packages. Entries have fixed timestamps, so the same sources give byte-identical zips (and
deploy, which compares sha256, pushes it only when the code changed).
"""
from __future__ import annotations

import hashlib
import os
import zipfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
ZIP_NAME = "edgecl_device.pyz"
DEVICE_PACKAGE = "android_harness/device"
PARENT_INIT = "android_harness/__init__.py"
MAIN = (
    '"""edgecl device zip: python3 edgecl_device.pyz run SESSION_DIR | serve QUEUE_DIR [IDLE_S] | check"""\n'
    "import sys\n\n"
    "from android_harness.device.__main__ import main\n\n"
    "sys.exit(main(sys.argv[1:]))\n"
)
_EPOCH = (2020, 1, 1, 0, 0, 0)


def bundle_files(repo: Path = REPO) -> dict[str, bytes]:
    """Archive name -> content of everything that goes into the zip."""
    files = {PARENT_INIT: (repo / PARENT_INIT).read_bytes(), "__main__.py": MAIN.encode()}
    for path in sorted((repo / DEVICE_PACKAGE).rglob("*.py")):
        if "__pycache__" not in path.parts:
            files[path.relative_to(repo).as_posix()] = path.read_bytes()
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
