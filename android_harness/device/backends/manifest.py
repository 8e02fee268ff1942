"""Read and verify an export's ``manifest.json`` (stdlib only: runs on the device and on the host).

The manifest lists every file of the export with its sha256 and size; a program whose bytes do
not match is refused before a runtime ever parses it.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from android_harness.device.fileio import sha256_file

MANIFEST_FORMAT = "edgecl-manifest/1"
MANIFEST_NAME = "manifest.json"


class ManifestError(ValueError):
    """The manifest is missing, of another format, or a listed file is missing or changed."""


def file_entry(root: Path, path: Path, role: str) -> dict[str, Any]:
    return {"path": path.relative_to(root).as_posix(), "role": role, "sha256": sha256_file(path), "size": path.stat().st_size}


def read_manifest(folder: str | Path, verify: bool = True) -> dict[str, Any]:
    """Load ``folder/manifest.json``; with ``verify``, check every listed file's size and sha256."""
    folder = Path(folder)
    path = folder / MANIFEST_NAME
    try:
        manifest = json.loads(path.read_text())
    except FileNotFoundError:
        raise ManifestError(f"{path}: no manifest (not an edgecl export folder?)") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise ManifestError(f"{path}: not valid JSON ({exc})") from None
    if manifest.get("format") != MANIFEST_FORMAT:
        raise ManifestError(f"{path}: format {manifest.get('format')!r}, expected {MANIFEST_FORMAT!r}")
    if verify:
        for entry in manifest.get("files", []):
            f = folder / entry["path"]
            if not f.is_file():
                raise ManifestError(f"{f}: listed in the manifest but missing")
            if f.stat().st_size != entry["size"] or sha256_file(f) != entry["sha256"]:
                raise ManifestError(f"{f}: size/sha256 differ from the manifest (corrupted or edited)")
    return manifest


def file_by_role(manifest: dict[str, Any], role: str) -> str:
    for entry in manifest["files"]:
        if entry["role"] == role:
            return entry["path"]
    raise ManifestError(f"manifest lists no {role!r} file")
