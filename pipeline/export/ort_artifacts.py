"""ONNX Runtime Training export: training / eval / optimizer models and a checkpoint.

The training wrapper (loss inside the graph, output 0) is exported with the TorchScript ONNX
exporter (``do_constant_folding=False``, ``training=TRAINING``, opset 17, IR 8 — both accepted by
ORT 1.19), then ``generate_artifacts(loss=None)`` adds the gradient graph for output 0 as is.
Masks are graph inputs multiplied into the weights (never trainable); BatchNorm running
statistics are frozen initializers (the device backend updates them from the batch-stat outputs).
"""
from __future__ import annotations

import contextlib
import io
import logging
from pathlib import Path

import onnx
import torch

from pipeline.errors import ExportError
from pipeline.export.pass_manager import PassManager
from pipeline.export.signature import MODEL_PREFIX, TrainingSignature

OPSET = 17
IR_VERSION = 8
TRAIN_FILE, EVAL_FILE, OPTIM_FILE, CKPT_FILE = "training_model.onnx", "eval_model.onnx", "optimizer_model.onnx", "checkpoint"
ADAMW_BETAS, ADAMW_EPS = (0.9, 0.999), 1e-8


def onnx_training_model(wrapper: torch.nn.Module, example: tuple[torch.Tensor, ...], sig: TrainingSignature) -> onnx.ModelProto:
    buf = io.BytesIO()
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            torch.onnx.export(
                wrapper, example, buf, input_names=sig.input_names, output_names=list(sig.outputs),
                do_constant_folding=False, training=torch.onnx.TrainingMode.TRAINING, opset_version=OPSET,
                dynamo=False, export_params=True,
            )
    except Exception as exc:
        raise ExportError(f"ONNX export of the training program failed: {type(exc).__name__}: {exc}") from exc
    model = onnx.load_from_string(buf.getvalue())
    model.ir_version = min(model.ir_version, IR_VERSION)
    return model


def _check(model: onnx.ModelProto, sig: TrainingSignature) -> None:
    inputs = [i.name for i in model.graph.input]
    outputs = [o.name for o in model.graph.output]
    if inputs[: len(sig.inputs)] != sig.input_names or outputs[: len(sig.outputs)] != list(sig.outputs):
        raise ExportError(f"ONNX model inputs {inputs} / outputs {outputs} do not follow the signature")
    inits = {i.name for i in model.graph.initializer}
    missing = [n for n in sig.parameter_names if MODEL_PREFIX + n not in inits]
    if missing:
        raise ExportError(f"parameters {missing} are not initializers of the ONNX model (unused or folded?)")


@contextlib.contextmanager
def _quiet_native_logs():
    """generate_artifacts' gradient builder logs every graph transformer at INFO straight to fd 2;
    capture it in a temp file and show it only if the call fails."""
    import os
    import sys
    import tempfile

    sys.stderr.flush()
    saved = os.dup(2)
    with tempfile.TemporaryFile() as sink:
        os.dup2(sink.fileno(), 2)
        try:
            yield
        except BaseException:
            os.dup2(saved, 2)
            sink.seek(0)
            tail = sink.read().decode(errors="replace").splitlines()[-20:]
            sys.stderr.write("\n".join(tail) + "\n")
            raise
        finally:
            os.dup2(saved, 2)
            os.close(saved)


def _optimizer_block(optimizer: str, weight_decay: float):
    from onnxruntime.training import onnxblock

    if optimizer == "sgd":
        return onnxblock.optim.SGD()
    return onnxblock.optim.AdamW(betas=ADAMW_BETAS, eps=ADAMW_EPS, weight_decay=weight_decay)


def export_ort(wrapper: torch.nn.Module, example: tuple[torch.Tensor, ...], sig: TrainingSignature, passes: PassManager,
               out_dir: Path, optimizer: str, weight_decay: float) -> list[Path]:
    """Write the four ORT training artifacts into ``out_dir``; return their paths."""
    from onnxruntime.training import artifacts

    model = passes.run("onnx_model", onnx_training_model(wrapper, example, sig))
    _check(model, sig)
    trainable = [MODEL_PREFIX + n for n in sig.parameter_names]
    frozen = [i.name for i in model.graph.initializer if i.name not in set(trainable)]
    level = logging.getLogger().level
    logging.getLogger().setLevel(logging.WARNING)
    try:
        with _quiet_native_logs():
            artifacts.generate_artifacts(
                model, requires_grad=trainable, frozen_params=frozen, loss=None,
                optimizer=_optimizer_block(optimizer, weight_decay), artifact_directory=out_dir,
            )
    except Exception as exc:
        raise ExportError(f"onnxruntime generate_artifacts failed: {type(exc).__name__}: {exc}") from exc
    finally:
        logging.getLogger().setLevel(level)
    for stage, name in (("ort_eval", EVAL_FILE), ("ort_optimizer", OPTIM_FILE)):
        path = out_dir / name
        onnx.save(passes.run(stage, onnx.load(path)), path)
    return [out_dir / f for f in (TRAIN_FILE, EVAL_FILE, OPTIM_FILE, CKPT_FILE)]
