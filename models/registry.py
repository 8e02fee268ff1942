"""Models by short name, or a user's class by import path (``models.user_model``). Every builder takes
the same arguments, so a spec picks one by ``kind``.

This registry is the one list of model names (``pipeline.config`` validates ``model.kind`` against
``model_names()``). ``models`` is a leaf: it imports nothing of edgecl, so a bad name or layer list is
a ``ModelSpecError`` here and a ``ConfigError`` at the spec.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from torch import nn

from models.user_model import ModelSpecError, build_user_model, is_user_kind


@dataclass(frozen=True)
class ModelArgs:
    """What every builder receives: the sample shape (C, H, W) / (C, T) / (F,), classes, norm, width."""

    input_shape: tuple[int, ...]
    num_classes: int
    norm: str = "none"
    width: int = 0
    hidden: tuple[int, ...] = (100, 100)
    args: dict[str, Any] = field(default_factory=dict)   # a user model's constructor arguments
    maskable: tuple[str, ...] = ()                         # layers SparCL masks, overriding the model's own list


Builder = Callable[[ModelArgs], nn.Module]
_PRUNABLE = (nn.Conv1d, nn.Conv2d, nn.Linear)
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
    """Build a registered model or a user's ``module:Class``; unknown names raise a ``ModelSpecError``."""
    _load_builtin_models()
    if is_user_kind(kind):
        model = build_user_model(kind, args.args, tuple(args.input_shape), args.num_classes)
    elif kind not in _REGISTRY:
        raise ModelSpecError(f"model.kind: unknown model {kind!r} (known: {', '.join(model_names())}, or your own "
                          "'package.module:Class' / 'path/to/file.py:Class')")
    else:
        model = _REGISTRY[kind](args)
    if args.maskable:
        model.maskable = _checked_maskable(model, args.maskable)
    return model


def _checked_maskable(model: nn.Module, names: tuple[str, ...]) -> list[str]:
    modules = dict(model.named_modules())
    problems = [f"model.maskable[{i}]: {n!r} is not a Conv1d/Conv2d/Linear layer of {type(model).__name__} "
                f"(those are: {', '.join(prunable_layers(model))})"
                for i, n in enumerate(names) if not isinstance(modules.get(n), _PRUNABLE)]
    if problems:
        raise ModelSpecError(problems)
    return list(names)


def prunable_layers(model: nn.Module) -> list[str]:
    """Every Conv1d/Conv2d/Linear layer, in definition order."""
    return [n for n, m in model.named_modules() if isinstance(m, _PRUNABLE)]


def maskable_layers(model: nn.Module) -> list[str]:
    """Names of the layers SparCL masks: the model's own ``maskable`` list, else every Conv/Linear but
    the first (it sees the raw input) and the last (the classifier)."""
    names = getattr(model, "maskable", None)
    if names is None:
        return prunable_layers(model)[1:-1]
    return list(names)
