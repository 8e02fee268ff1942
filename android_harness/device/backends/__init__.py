"""Device-side training backends (stdlib, numpy and the runtime bindings only)."""
from android_harness.device.backends.base import OptimizerConfig, StepOut, TrainingBackend
from android_harness.device.backends.loader import RUNTIMES, load_backend
from android_harness.device.backends.manifest import MANIFEST_FORMAT, ManifestError, read_manifest
from android_harness.device.backends.signature import SignatureMismatch, TensorSpec, TrainingSignature

__all__ = [
    "MANIFEST_FORMAT", "RUNTIMES", "ManifestError", "OptimizerConfig", "SignatureMismatch", "StepOut", "TensorSpec",
    "TrainingBackend", "TrainingSignature", "load_backend", "read_manifest",
]
