"""``ExportRequest``: everything an export depends on, and the model it starts from.

The same ``prepare_model`` builds the model the export traces and the eager reference the parity
tests and benchmarks train, so both start from identical (masked, pruned) weights.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

from android_harness.device.backends.loader import RUNTIMES
from models import ModelArgs, build_model, maskable_layers, model_names
from models.user_model import is_user_kind, source_digest
from pipeline.errors import ConfigError, ExportError

EXPORT_VERSION = 3  # bump when the exported program changes for the same request


@dataclass
class ExportRequest:
    """A model + loss + masks + optimizer to export for one runtime at a fixed batch size."""

    model: str
    input_shape: tuple[int, ...]
    num_classes: int
    batch_size: int
    runtime: str = "executorch"
    optimizer: str = "sgd"
    lr: float = 0.03
    momentum: float = 0.0
    weight_decay: float = 0.0
    norm: str = "none"
    width: int = 0
    hidden: tuple[int, ...] = (100, 100)
    args: dict[str, Any] = field(default_factory=dict)  # a user model's constructor arguments ([model.args])
    maskable: tuple[str, ...] = ()  # layers SparCL masks, overriding the model's own list
    seed: int = 0
    masks: dict[str, np.ndarray] | None = None  # layer or parameter name -> 0/1 array of the weight's shape
    channel_masks: dict[str, np.ndarray] | None = None  # layer -> bool keep vector over output channels
    state_dict: dict[str, torch.Tensor] | None = None  # initial weights (else seeded init)
    fast_passes: bool = True
    decompose_maxpool_backward: bool = True
    operators: Path | None = None  # ExecuTorch: the device runtime's operator list (ops.txt); None = the bindings'
    spec_hash: str = ""

    def validate(self) -> None:
        if self.model not in model_names() and not is_user_kind(self.model):
            raise ConfigError(f"model.kind: unknown model {self.model!r} (known: {', '.join(model_names())})")
        problems = []
        if self.runtime not in RUNTIMES:
            problems.append(f"runtime: {self.runtime!r} cannot be exported (expected one of {', '.join(RUNTIMES)})")
        if self.optimizer not in ("sgd", "adamw"):
            problems.append(f"optimizer: {self.optimizer!r} (expected sgd or adamw)")
        if self.runtime == "ort" and self.optimizer == "sgd" and (self.momentum or self.weight_decay):
            problems.append("optimizer: ORT's SGD has no momentum or weight decay; set them to 0 or use adamw/executorch")
        if self.batch_size < 1 or self.num_classes < 1:
            problems.append("batch_size and num_classes must be >= 1")
        if problems:
            raise ExportError("; ".join(problems))

    def cache_key(self) -> str:
        """Hash of everything that changes the exported files (masks and weights by content)."""
        h = hashlib.sha256()
        plain = {k: v for k, v in vars(self).items() if k not in ("masks", "channel_masks", "state_dict")}
        plain["export_version"] = EXPORT_VERSION
        if is_user_kind(self.model):  # a user's model file: editing it must export again
            plain["model_source"] = source_digest(self.model)
        if self.operators is not None:  # the export was checked against this list's content
            plain["operators"] = hashlib.sha256(Path(self.operators).read_bytes()).hexdigest() \
                if Path(self.operators).is_file() else str(self.operators)
        h.update(json.dumps(plain, sort_keys=True, default=str).encode())
        for group in ("masks", "channel_masks"):
            for name, arr in sorted((getattr(self, group) or {}).items()):
                h.update(f"{group}/{name}".encode())
                h.update(np.ascontiguousarray(arr, dtype=np.float32).tobytes())
        for name, t in sorted((self.state_dict or {}).items()):
            h.update(name.encode())
            h.update(t.detach().cpu().contiguous().numpy().tobytes())
        return h.hexdigest()[:24]

    def model_args(self) -> ModelArgs:
        return ModelArgs(tuple(self.input_shape), self.num_classes, self.norm, self.width, tuple(self.hidden),
                         dict(self.args), tuple(self.maskable))


def _mask_param_name(model: nn.Module, name: str) -> str:
    params = dict(model.named_parameters())
    if name in params:
        return name
    if name + ".weight" in params:
        return name + ".weight"
    raise ExportError(f"mask for {name!r}: the model has no such layer or parameter "
                      f"(maskable layers: {', '.join(maskable_layers(model))})")


@dataclass
class PreparedModel:
    model: nn.Module
    masks: dict[str, np.ndarray]  # parameter name -> float32 0/1 mask, in mask-input order
    kept_channels: dict[str, list[int]]  # structured export: layer -> kept output channels
    signature: Any = None  # TrainingSignature, set once the export built it


def prepare_model(req: ExportRequest) -> PreparedModel:
    """Build the model, load weights, prune channels, and zero masked weights (train mode)."""
    from pipeline.export.structured import prune_channels

    torch.manual_seed(req.seed)
    model = build_model(req.model, req.model_args())
    if req.state_dict is not None:
        try:
            model.load_state_dict(req.state_dict)
        except RuntimeError as exc:
            raise ExportError(f"initial weights do not fit model {req.model!r}: {exc}") from None
    requested = req.masks if req.masks is not None else {layer: None for layer in maskable_layers(model)}
    full_shapes = {n: tuple(p.shape) for n, p in model.named_parameters()}
    masks: dict[str, np.ndarray] = {}
    for name, arr in requested.items():
        pname = _mask_param_name(model, name)
        m = np.ones(full_shapes[pname], np.float32) if arr is None else np.asarray(arr, dtype=np.float32)
        if m.shape != full_shapes[pname]:
            raise ExportError(f"mask for {pname!r}: shape {m.shape}, expected {full_shapes[pname]}")
        if not np.isin(m, (0.0, 1.0)).all():
            raise ExportError(f"mask for {pname!r}: values must be 0 or 1")
        masks[pname] = m
    kept: dict[str, list[int]] = {}
    if req.channel_masks:
        model, kept, masks = prune_channels(model, req.channel_masks, masks, req.input_shape)
    params = dict(model.named_parameters())
    with torch.no_grad():
        for pname, m in masks.items():  # + 0.0: a masked weight is +0 (w * 0 is -0 for a negative w), so it stays
            params[pname].mul_(torch.from_numpy(m)).add_(0.0)  # +0 under any zero gradient (docs/semantics.md 12)
    return PreparedModel(model.train(), masks, kept)
