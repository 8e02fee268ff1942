"""Write ``manifest.json`` beside every export (the format the device side reads and verifies)."""
from __future__ import annotations

import json
import platform
from importlib import metadata
from pathlib import Path
from typing import Any

from android_harness.device.backends.manifest import (
    MANIFEST_FORMAT,
    MANIFEST_NAME,
    file_entry,
)
from android_harness.device.fileio import write_text_atomic
from pipeline.export.request import ExportRequest, PreparedModel
from pipeline.export.wrapper import MASK_OFF

LOSS = {
    "name": "edgecl-replay/1",
    "formula": "sum_i ce_weight_i * CE(logits_i*logit_mask_i + (logit_mask_i-1)*%g, y_i) "
               "+ mse_weight_i * mean_c (logits_ic - target_logits_ic)^2" % MASK_OFF,
}


def _versions() -> dict[str, str]:
    out = {"python": platform.python_version()}
    for dist in ("edgecl", "torch", "executorch", "onnxruntime-training", "onnx", "numpy"):
        try:
            out[dist] = metadata.version(dist)
        except metadata.PackageNotFoundError:
            out[dist] = "not installed"
    return out


def flops_per_step(prepared: PreparedModel, input_shape: tuple[int, ...], batch: int) -> float:
    """Training FLOPs (forward + backward) of one step at the masks' densities (SparCL's counter)."""
    from pipeline.sparcl.flops import FlopsCounter, layer_flops

    counter = FlopsCounter(layer_flops(prepared.model, tuple(input_shape)))
    density = {n.rsplit(".", 1)[0]: float(m.mean()) for n, m in prepared.masks.items()}
    fwd, bwd = counter.per_sample({k: v for k, v in density.items() if k in counter.dense_flops})
    return batch * (fwd + bwd)


def build_manifest(req: ExportRequest, prepared: PreparedModel, files: list[tuple[Path, str]], root: Path,
                   cache_key: str, passes: list[dict[str, Any]]) -> dict[str, Any]:
    sig = prepared.signature
    params = dict(prepared.model.named_parameters())
    n_params = sum(p.numel() for p in params.values())
    masked = sum(int((m == 0).sum()) for m in prepared.masks.values())
    in_masked_layers = sum(m.size for m in prepared.masks.values())
    norms = {n: float(m.momentum) for n, m in prepared.model.named_modules() if n in sig.norm_stats}
    optimizer = {"name": req.optimizer, "lr": req.lr, "momentum": req.momentum, "weight_decay": req.weight_decay}
    if req.optimizer == "adamw":
        optimizer.update(betas=[0.9, 0.999], eps=1e-8)
    return {
        "format": MANIFEST_FORMAT,
        "runtime": req.runtime,
        "versions": _versions(),
        "files": [file_entry(root, p, role) for p, role in files],
        "signature": sig.to_json(),
        "model": {"kind": req.model, "input_shape": list(req.input_shape), "num_classes": req.num_classes,
                  "norm": req.norm, "width": req.width, "hidden": list(req.hidden), "args": dict(req.args)},
        "batch_size": req.batch_size,
        "loss": LOSS,
        "optimizer": optimizer,
        "norm_momentum": norms,
        "parameter_count": n_params,
        "masked_weights": masked,
        "sparsity": masked / in_masked_layers if in_masked_layers else 0.0,
        "flops_per_step": flops_per_step(prepared, req.input_shape, req.batch_size),
        "structured": {"kept_channels": prepared.kept_channels},
        "passes": passes,
        "fast_passes": req.fast_passes,
        "cache_key": cache_key,
        "spec_hash": req.spec_hash,
    }


def write_manifest(folder: Path, manifest: dict[str, Any]) -> Path:
    path = folder / MANIFEST_NAME
    write_text_atomic(path, json.dumps(manifest, indent=2, sort_keys=False))
    return path
