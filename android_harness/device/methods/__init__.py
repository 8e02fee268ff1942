"""The registry of CL methods: the one place a method name means something (``method(name)``).

Each method is one file holding its ``Method`` (``base``): what a step's rows hold, the loss weights
of an EM row, what is stored. Code asks the registered object, never compares the name
(tests/test_method_registry.py checks this in Python and C++).
"""
from __future__ import annotations

from android_harness.device.methods.base import Method
from android_harness.device.methods.derpp import DERPP
from android_harness.device.methods.er import ER
from android_harness.device.methods.finetune import FINETUNE
from android_harness.device.methods.joint import JOINT

REGISTRY: dict[str, Method] = {m.name: m for m in (FINETUNE, ER, DERPP, JOINT)}
METHOD_NAMES: tuple[str, ...] = tuple(REGISTRY)


def method(name: str) -> Method:
    """The registered method ``name`` (validated specs only hold registered names)."""
    try:
        return REGISTRY[name]
    except KeyError:
        raise KeyError(f"unknown method {name!r} (registered: {', '.join(METHOD_NAMES)})") from None


__all__ = ["METHOD_NAMES", "Method", "REGISTRY", "method"]
