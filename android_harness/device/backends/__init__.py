"""Device-side training backends (stdlib, numpy and the runtime bindings only)."""
from android_harness.device.backends.base import StepOut, TrainingBackend
from android_harness.device.backends.loader import load_backend
from android_harness.device.backends.manifest import MANIFEST_FORMAT, ManifestError, read_manifest
from android_harness.device.backends.signature import SignatureMismatch, TensorSpec, TrainingSignature

__all__ = [
    "MANIFEST_FORMAT", "ManifestError", "SignatureMismatch", "StepOut", "TensorSpec", "TrainingBackend",
    "TrainingSignature", "load_backend", "read_manifest",
]
