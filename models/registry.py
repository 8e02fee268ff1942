"""Models by short name. Every builder takes the same arguments, so a spec picks one by ``kind``.

This registry is the one list of model names (``pipeline.config`` validates ``model.kind`` against
``model_names()``). ``models`` is a leaf: it imports nothing of edgecl, so an unknown name is a
``KeyError`` here and a ``ConfigError`` at the spec.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from torch import nn



@dataclass(frozen=True)
class ModelArgs:
    """What every builder receives: the sample shape (C, H, W) / (C, T) / (F,), classes, norm, width."""

    input_shape: tuple[int, ...]
    num_classes: int
    norm: str = "none"
    width: int = 0
    hidden: tuple[int, ...] = (100, 100)


Builder = Callable[[ModelArgs], nn.Module]
_REGISTRY: dict[str, Builder] = {}


def register(name: str) -> Callable[[Builder], Builder]:
    def deco(fn: Builder) -> Builder:
        _REGISTRY[name] = fn
        return fn

    return deco


def _load_builtin_models() -> None:
    """Import the model files so their ``@register`` decorators run (kept out of import time of the registry)."""
    from models import cnn, cnn1d, mlp, mobilenet, resnet  # noqa: F401


def model_names() -> list[str]:
    _load_builtin_models()
    return sorted(_REGISTRY)


def build_model(kind: str, args: ModelArgs) -> nn.Module:
    """Build a registered model; an unknown name raises a ``KeyError`` listing the known ones."""
    _load_builtin_models()
    if kind not in _REGISTRY:
        raise KeyError(f"model.kind: unknown model {kind!r} (known: {', '.join(model_names())})")
    return _REGISTRY[kind](args)


def maskable_layers(model: nn.Module) -> list[str]:
    """Names of the layers SparCL masks by default: each model lists its own in ``maskable``."""
    names = getattr(model, "maskable", None)
    if names is None:
        return [n for n, m in model.named_modules() if isinstance(m, (nn.Conv1d, nn.Conv2d, nn.Linear))][:-1]
    return list(names)
