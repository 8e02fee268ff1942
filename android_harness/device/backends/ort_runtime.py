"""Import ONNX Runtime's training API without torch, the way a phone's ORT training runtime has it.

``import onnxruntime`` runs ``onnxruntime.capi.onnxruntime_validation``, which tries
``onnxruntime.training.ortmodule`` (the torch front end), and ``onnxruntime.training/__init__``
imports ``amp``/``optim`` (torch again). On a host with torch installed that costs ~6 s per runner
process; a phone has no torch at all. The on-device API (``onnxruntime.training.api``: Module,
CheckpointState, Optimizer) needs none of it. So, unless torch is already loaded in this process
(host-side tests: then the normal import is free), torch is made unimportable for the duration of
the import and ``onnxruntime.training`` is registered as a bare package (its real folder as
``__path__``, its ``__init__`` not run), which cuts the import to ~0.5 s.
"""
from __future__ import annotations

import importlib.util
import os
import sys
import types


def _bare_training_package() -> None:
    """Register ``onnxruntime.training`` as a package whose ``__init__`` is not executed."""
    if "onnxruntime.training" in sys.modules:
        return
    spec = importlib.util.find_spec("onnxruntime")
    if spec is None or not spec.submodule_search_locations:
        raise ImportError("onnxruntime is not installed")
    folder = os.path.join(list(spec.submodule_search_locations)[0], "training")
    pkg = types.ModuleType("onnxruntime.training")
    pkg.__path__ = [folder]
    pkg.__package__ = "onnxruntime.training"
    sys.modules["onnxruntime.training"] = pkg


def load_training_api() -> types.ModuleType:
    """``onnxruntime.training.api`` (and ``onnxruntime``), imported torch-free when torch is not loaded yet."""
    if "torch" in sys.modules or "onnxruntime.training.api" in sys.modules:
        import onnxruntime.training.api as api

        return api
    sys.modules["torch"] = None  # type: ignore[assignment]  # import of torch raises ImportError
    try:
        _bare_training_package()
        import onnxruntime  # noqa: F401  (its validation step now skips ortmodule quickly)
        import onnxruntime.training.api as api
    finally:
        if sys.modules.get("torch", 0) is None:
            del sys.modules["torch"]
    return api
