"""``TrainingSignature``: the training contract. Defined once, stdlib-only, in the device backends
(the device checks it on load); the host side uses the same class from here."""
from android_harness.device.backends.signature import (
    MODEL_PREFIX,
    SIGNATURE_FORMAT,
    SignatureMismatch,
    TensorSpec,
    TrainingSignature,
)

__all__ = ["MODEL_PREFIX", "SIGNATURE_FORMAT", "SignatureMismatch", "TensorSpec", "TrainingSignature"]
