"""ExecuTorch export: the training wrapper -> a joint forward+backward ``.pte``, plus an eval ``.pte``.

``torch.export.export`` -> ``_export_forward_backward(ep, joint_loss_index=0)`` -> passes
(``et_joint``) -> ``to_edge`` -> passes (``et_edge``) -> ``to_executorch`` -> every operator checked
against the device runtime's (``operator_check``); the eval program, decomposed, takes the ``et_eval``
passes. The joint program's outputs are [loss, logits, norm stats, gradients..., parameters...]
(ExecuTorch's training convention); the eval program takes x, parameters, running stats and masks as inputs.
"""
from __future__ import annotations

import warnings
from pathlib import Path

import torch
from torch.export import export
from torch.export.experimental import _export_forward_backward

from pipeline.errors import ExportError
from pipeline.export.operator_check import check_operators, runtime_operators
from pipeline.export.pass_manager import PassManager
from pipeline.export.signature import MODEL_PREFIX, TrainingSignature

TRAIN_FILE = "training.pte"
EVAL_FILE = "eval.pte"


def _check_joint(ep: torch.export.ExportedProgram, sig: TrainingSignature) -> None:
    """The joint program must take the signature's inputs and expose its parameters, in order."""
    gs = ep.graph_signature
    if len(gs.user_inputs) != len(sig.inputs):
        raise ExportError(f"joint program takes {len(gs.user_inputs)} inputs, signature declares {len(sig.inputs)}")
    grads = list(gs.backward_signature.gradients_to_parameters.values()) if gs.backward_signature else []
    names = [n[len(MODEL_PREFIX):] if n.startswith(MODEL_PREFIX) else n for n in grads]
    if names != list(sig.parameter_names):
        raise ExportError(f"joint program's gradients {names} do not match the signature's parameters {list(sig.parameter_names)}")


def joint_program(wrapper: torch.nn.Module, example: tuple[torch.Tensor, ...], sig: TrainingSignature,
                  passes: PassManager) -> torch.export.ExportedProgram:
    """Export the training wrapper and derive its joint forward+backward graph (passes applied)."""
    try:
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", message=".*were assigned during export.*")  # the per-call mask slots
            ep = export(wrapper, example, strict=False)
        ep = _export_forward_backward(ep, joint_loss_index=0)
    except ExportError:
        raise
    except Exception as exc:
        raise ExportError(f"torch.export of the training program failed: {type(exc).__name__}: {exc}") from exc
    ep = passes.run("et_joint", ep)
    _check_joint(ep, sig)
    return ep


def _decomposed(ep: torch.export.ExportedProgram) -> torch.export.ExportedProgram:
    """The forward graph decomposed as the joint one is, with layer names kept (for the operator check)."""
    from torch._decomp import core_aten_decompositions

    return ep.run_decompositions(core_aten_decompositions())


def _to_pte(ep: torch.export.ExportedProgram, passes: PassManager | None, what: str,
            operators: tuple[frozenset[str], str], forward_graph) -> bytes:
    from executorch.exir import to_edge

    try:
        edge = to_edge(ep)
        if passes is not None:
            edge = passes.run("et_edge", edge)
        program = edge.to_executorch()
    except ExportError:
        raise
    except Exception as exc:
        raise ExportError(f"lowering the {what} program to ExecuTorch failed: {type(exc).__name__}: {exc}") from exc
    check_operators(program.executorch_program, *operators, what, forward_graph)
    return program.buffer


def export_executorch(wrapper: torch.nn.Module, eval_wrapper: torch.nn.Module, example: tuple[torch.Tensor, ...],
                      eval_example: tuple[torch.Tensor, ...], sig: TrainingSignature, passes: PassManager,
                      out_dir: Path, operators: tuple[frozenset[str], str] | None = None) -> list[Path]:
    """Write ``training.pte`` and ``eval.pte`` into ``out_dir``; return their paths. ``operators``: the
    device runtime's operator names and their source (default: the Python bindings' registry)."""
    operators = operators or runtime_operators()
    joint = joint_program(wrapper, example, sig, passes)

    def training_forward() -> torch.export.ExportedProgram:
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", message=".*were assigned during export.*")
            return _decomposed(export(wrapper, example, strict=False))

    train_bytes = _to_pte(joint, passes, "training", operators, training_forward)
    try:
        eval_ep = _decomposed(export(eval_wrapper, eval_example, strict=False))
    except Exception as exc:
        raise ExportError(f"torch.export of the eval program failed: {type(exc).__name__}: {exc}") from exc
    eval_ep = passes.run("et_eval", eval_ep)
    eval_bytes = _to_pte(eval_ep, None, "eval", operators, lambda: eval_ep)
    paths = []
    for name, blob in ((TRAIN_FILE, train_bytes), (EVAL_FILE, eval_bytes)):
        (out_dir / name).write_bytes(blob)
        paths.append(out_dir / name)
    return paths
