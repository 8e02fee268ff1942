"""``export_program``: request -> export folder (program files + ``initial_state.npz`` + manifest).

The folder is built in a temporary sibling and swapped in whole, so an interrupted export never
leaves a half-written folder. An existing folder whose manifest has the same cache key and whose
files all match their sha256 is reused; a corrupted one is re-exported.
"""
from __future__ import annotations

import copy
import os
import shutil
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import numpy as np
import torch

from pipeline.errors import ExportError
from pipeline.export.manifest import build_manifest, write_manifest
from pipeline.export.pass_manager import PassManager, default_passes
from pipeline.export.request import ExportRequest, PreparedModel, prepare_model
from pipeline.export.signature import TrainingSignature
from pipeline.export.wrapper import EvalWrapper, TrainingWrapper, build_signature, eval_buffer_names
from android_harness.device.backends.manifest import ManifestError, read_manifest

Progress = Callable[[str], None]


@dataclass
class ExportResult:
    folder: Path
    manifest: dict[str, Any]
    reused: bool
    seconds: float


def example_inputs(sig: TrainingSignature, masks: dict[str, np.ndarray], seed: int = 0) -> tuple[torch.Tensor, ...]:
    """A valid batch for tracing: random x, labels in range, all-ones logit mask, the masks."""
    g = torch.Generator().manual_seed(seed)
    b, c = sig.batch_size, sig.num_classes
    base = [torch.randn(sig.inputs[0].shape, generator=g), torch.randint(0, c, (b,), generator=g),
            torch.ones(b, c), torch.full((b,), 1.0 / b), torch.zeros(b, c), torch.zeros(b)]
    return (*base, *(torch.from_numpy(masks[n]) for n in sig.mask_names))


def _eval_example(sig: TrainingSignature, model: torch.nn.Module, masks: dict[str, np.ndarray]) -> tuple[torch.Tensor, ...]:
    """x, then parameters and running stats (current values), then masks: the eval program's inputs."""
    state = dict(model.named_parameters()) | dict(model.named_buffers())
    weights = [state[t.name].detach().clone() for t in sig.eval_inputs[1:] if t.name in state]
    return (torch.zeros(sig.inputs[0].shape), *weights, *(torch.from_numpy(masks[n]) for n in sig.mask_names))


def _cached(folder: Path, key: str) -> dict[str, Any] | None:
    if not (folder / "manifest.json").is_file():
        return None
    try:
        manifest = read_manifest(folder, verify=True)
    except ManifestError:
        return None  # corrupted or edited: export again
    return manifest if manifest.get("cache_key") == key else None


def _prepare_out(out: Path) -> Path:
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        if out.exists() and not out.is_dir():
            raise ExportError(f"output folder {str(out)!r} exists and is not a folder")
        return Path(tempfile.mkdtemp(prefix=f".{out.name}.", dir=out.parent))
    except OSError as exc:
        raise ExportError(f"output folder {str(out)!r} is not writable: {exc.strerror or exc}") from None


def _swap_in(tmp: Path, out: Path) -> None:
    trash = None
    if out.exists():
        trash = out.parent / f".{out.name}.old.{os.getpid()}"
        os.replace(out, trash)
    os.replace(tmp, out)
    if trash is not None:
        shutil.rmtree(trash, ignore_errors=True)


def _export_into(tmp: Path, req: ExportRequest, prepared: PreparedModel, passes: PassManager, say: Progress) -> list[tuple[Path, str]]:
    model, masks = prepared.model, prepared.masks
    sig = build_signature(model, tuple(req.input_shape), req.num_classes, req.batch_size, list(masks))
    eval_model = copy.deepcopy(model).eval()
    train_model = copy.deepcopy(model).train()
    et = req.runtime == "executorch"
    wrapper = TrainingWrapper(train_model, sig.mask_names, explicit_batchnorm=et, conv1d_as_2d=et)
    example = example_inputs(sig, masks, req.seed)
    files: list[tuple[Path, str]] = []
    if req.runtime == "executorch":
        from pipeline.export.executorch_program import export_executorch
        from pipeline.export.operator_check import runtime_operators

        say("exporting joint forward+backward program (ExecuTorch)")
        ev = EvalWrapper(eval_model, [n for n, _ in eval_model.named_parameters()], eval_buffer_names(eval_model), sig.mask_names)
        paths = export_executorch(wrapper, ev, example, _eval_example(sig, model, masks), sig, passes, tmp,
                                  runtime_operators(req.operators))
        files += list(zip(paths, ("training", "eval")))
    else:
        from pipeline.export.ort_artifacts import export_ort

        say("exporting ONNX model and generating ORT training artifacts")
        paths = export_ort(wrapper, example, sig, passes, tmp, req.optimizer, req.weight_decay)
        files += list(zip(paths, ("training", "eval", "optimizer", "checkpoint")))
    state = dict(model.named_buffers())
    np.savez(tmp / "initial_state.npz", **{"mask/" + n: m for n, m in masks.items()},
             **{"buffer/" + n: state[n].detach().numpy() for n in sig.buffer_names})
    files.append((tmp / "initial_state.npz", "initial_state"))
    prepared.signature = sig
    return files


def export_program(req: ExportRequest, out: str | Path, progress: Progress | None = None, force: bool = False) -> ExportResult:
    """Export ``req`` into ``out`` (reusing a matching, intact export unless ``force``)."""
    t0 = time.perf_counter()
    say = progress or (lambda _msg: None)
    req.validate()
    out = Path(out)
    key = req.cache_key()
    if not force:
        cached = _cached(out, key)
        if cached is not None:
            say("reusing cached export")
            return ExportResult(out, cached, True, time.perf_counter() - t0)
    tmp = _prepare_out(out)
    try:
        say(f"building {req.model}")
        prepared = prepare_model(req)
        passes = PassManager(default_passes(req, decompose_maxpool_backward=req.decompose_maxpool_backward))
        files = _export_into(tmp, req, prepared, passes, say)
        say("writing manifest")
        manifest = build_manifest(req, prepared, files, tmp, key, passes.summary())
        write_manifest(tmp, manifest)
        _swap_in(tmp, out)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return ExportResult(out, manifest, False, time.perf_counter() - t0)
