"""The export's initial TDM masks (docs/semantics.md 5.4): which layers are masked, magnitude pruning of
the initial weights at the spec's sparsity, and the optional unit-norm rescale.

Host side (torch modules in, numpy masks out); the engine's TDM then moves these masks on the device
and in the host trainer alike.
"""
from __future__ import annotations

import re

import numpy as np
import torch
from torch import nn

from android_harness.device.sparcl import magnitude_masks, unit_norm_factors
from models import maskable_layers
from pipeline.config import SparclSpec
from pipeline.errors import ConfigError

_WEIGHT_LAYERS = (nn.Conv1d, nn.Conv2d, nn.Linear)


def select_layers(model: nn.Module, pattern: str = "auto") -> list[str]:
    """The masked layers: the model's default list (``auto``) or conv/linear modules matching a regex."""
    modules = dict(model.named_modules())
    if pattern == "auto":
        names = maskable_layers(model)
    else:
        try:
            rx = re.compile(pattern)
        except re.error as exc:
            raise ConfigError(f"sparcl.layers: {pattern!r} is not a valid regex ({exc})") from None
        names = [n for n, m in modules.items() if isinstance(m, _WEIGHT_LAYERS) and rx.search(n)]
    bad = [n for n in names if not isinstance(modules.get(n), _WEIGHT_LAYERS)]
    if bad:
        raise ConfigError(f"sparcl.layers: {bad} are not conv/linear layers of {type(model).__name__}")
    if not names:
        raise ConfigError(f"sparcl.layers: {pattern!r} selects no conv/linear layer of {type(model).__name__}")
    return names


def initial_masks(sparcl: SparclSpec, model: nn.Module) -> dict[str, np.ndarray] | None:
    """Layer -> float32 0/1 mask for the export (None without SparCL: the exporter's defaults, all ones).

    With TDM: magnitude pruning of ``model``'s weights at ``sparcl.sparsity``; with
    ``tdm_init_rescale`` each masked unit's weights are scaled IN ``model`` so it keeps its dense norm.
    """
    if not sparcl.enabled:
        return None
    modules = dict(model.named_modules())
    layers = select_layers(model, sparcl.layers)
    weights = {n: modules[n].weight.detach().numpy().copy() for n in layers}
    if not sparcl.tdm:
        return {n: np.ones_like(w) for n, w in weights.items()}
    masks = magnitude_masks(weights, sparcl.sparsity, sparcl.structured)
    if sparcl.tdm_init_rescale:
        with torch.no_grad():
            for n in layers:
                modules[n].weight.mul_(torch.from_numpy(unit_norm_factors(weights[n], masks[n])))
    return masks
