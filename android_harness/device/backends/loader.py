"""``load_backend(folder)``: verify an export folder's manifest and open the backend for its runtime.

``RUNTIMES`` is the closed registry of device runtimes: the experiment spec, the exporter and the
CLI all take their choices from here.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

from android_harness.device.backends.base import TrainingBackend
from android_harness.device.backends.manifest import ManifestError, file_by_role, read_manifest

RUNTIMES = ("executorch", "ort")


def load_backend(folder: str | Path, verify: bool = True) -> TrainingBackend:
    """Open the training program in ``folder`` (sha256 of every file checked unless ``verify=False``)."""
    folder = Path(folder)
    manifest = read_manifest(folder, verify=verify)
    with np.load(folder / file_by_role(manifest, "initial_state")) as z:
        initial = dict(z.items())
    runtime = manifest["runtime"]
    if runtime == "executorch":
        from android_harness.device.backends.executorch_backend import ExecuTorchBackend

        return ExecuTorchBackend(folder, manifest, initial)
    if runtime == "ort":
        from android_harness.device.backends.ort_backend import OrtBackend

        return OrtBackend(folder, manifest, initial)
    raise ManifestError(f"{folder}: unknown runtime {runtime!r} in manifest (expected one of {', '.join(RUNTIMES)})")
