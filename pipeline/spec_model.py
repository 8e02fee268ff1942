"""The spec's model, built for the data's sample shape and checked with one forward pass.

One place turns ``ModelSpec`` + data into ``ModelArgs`` and a model, so the host trainer, the export
and the spec-time check build the same thing. A model that cannot take the data's samples, or does
not return one logit per class, is a ``ConfigError`` naming ``model.kind`` (never a traceback).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import torch
from torch import nn

from models import ModelArgs, build_model
from models.user_model import ModelSpecError
from pipeline.errors import ConfigError

if TYPE_CHECKING:
    from pipeline.config import ModelSpec

# sample dimensions each built-in model takes (the MLP flattens anything)
SAMPLE_DIMS = {"cnn1d": (2, "(channels, time)"), "small_cnn": (3, "(channels, height, width)"),
               "resnet18_reduced": (3, "(channels, height, width)"), "resnet18": (3, "(channels, height, width)"),
               "mobilenet": (3, "(channels, height, width)")}
CHECK_BATCH = 2


def model_args(m: "ModelSpec", input_shape: tuple[int, ...], num_classes: int) -> ModelArgs:
    return ModelArgs(tuple(input_shape), num_classes, m.norm, m.width, tuple(m.hidden), dict(m.args), tuple(m.maskable))


def check_forward(model: nn.Module, kind: str, input_shape: tuple[int, ...], num_classes: int, data_label: str) -> None:
    """One eval-mode forward on a batch of ``CHECK_BATCH`` (running stats and training mode untouched)."""
    x = torch.randn((CHECK_BATCH, *input_shape), generator=torch.Generator().manual_seed(0))
    was_training = model.training
    model.eval()
    try:
        with torch.no_grad():
            out = model(x)
    except Exception as exc:
        msg = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
        raise ConfigError(f"model.kind: {kind!r} cannot take samples of shape {tuple(input_shape)} ({data_label}): "
                          f"{type(exc).__name__}: {msg}") from None
    finally:
        model.train(was_training)
    if not isinstance(out, torch.Tensor):
        raise ConfigError(f"model.kind: {kind!r} returns {type(out).__name__}; expected one logits tensor "
                          f"(batch, {num_classes})")
    if tuple(out.shape) != (CHECK_BATCH, num_classes):
        raise ConfigError(f"model.kind: {kind!r} returns shape {tuple(out.shape)} for a batch of {CHECK_BATCH} samples "
                          f"{tuple(input_shape)}; expected ({CHECK_BATCH}, {num_classes}): one logit per class of "
                          f"{data_label}")


def build_spec_model(m: "ModelSpec", input_shape: tuple[int, ...], num_classes: int, data_label: str = "the data",
                     check: bool = True) -> nn.Module:
    """Build ``m`` for the data (in train mode); with ``check``, verify it takes the samples first."""
    dims = SAMPLE_DIMS.get(m.kind)
    if dims is not None and len(input_shape) != dims[0]:
        raise ConfigError(f"model.kind: {m.kind!r} takes {dims[1]} samples; {data_label} gives samples of shape "
                          f"{tuple(input_shape)} (use a model for that shape, e.g. 'mlp', or your own)")
    try:
        model = build_model(m.kind, model_args(m, input_shape, num_classes))
    except ModelSpecError as exc:
        raise ConfigError(exc.problems) from None
    except Exception as exc:  # a built-in builder refusing these sizes
        raise ConfigError(f"model.kind: building {m.kind!r} for samples {tuple(input_shape)} and {num_classes} classes "
                          f"failed: {type(exc).__name__}: {exc}") from None
    if check:
        check_forward(model, m.kind, input_shape, num_classes, data_label)
    return model.train()
