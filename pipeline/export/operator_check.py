"""Every operator an exported ExecuTorch program calls must have a kernel in the device's runtime.

Without this check a program with, e.g., ``aten::_adaptive_avg_pool2d_backward.out`` exports fine and
dies on the phone with ``error: 0x14`` (the cause only in the device's runner.log). The operators
a runtime has come from a list of names (``aten::add.out``): the ExecuTorch Python bindings'
kernel registry by default (what the Python runner loads), or a file of names, one per line (the
native runner's selected-operator list, ``ops.txt``). A missing operator is an ``ExportError``
naming it, the layer that produced it (found in the forward graph, where ``nn_module_stack`` and
``stack_trace`` survive; the joint graph's backward nodes carry neither) and what to use instead.
"""
from __future__ import annotations

import functools
import re
from pathlib import Path
from typing import Any, Callable, Collection, Iterable

from pipeline.errors import ExportError

PASS_NAME = "operator_check"
BINDINGS = "the ExecuTorch Python bindings' kernel registry"

# forward op (overload stripped) -> what to write instead; backward ops map to their forward op
REPLACEMENTS = {
    "_adaptive_avg_pool2d": "global mean pooling (x.mean(dim=(2, 3)), or nn.AdaptiveAvgPool2d(1), which lowers to "
                            "mean), or nn.MaxPool2d (its backward is rewritten for ExecuTorch)",
    "avg_pool2d": "nn.MaxPool2d (its backward is rewritten for ExecuTorch), a stride-2 convolution, or global mean "
                  "pooling (x.mean(dim=(2, 3)))",
    "native_layer_norm": "nn.BatchNorm (model.norm = 'batch') or no normalisation",
    "native_group_norm": "nn.BatchNorm (model.norm = 'batch') or no normalisation",
    "gelu": "nn.ReLU",
    "embedding": "a one-hot input times a Linear layer",
    "upsample_nearest2d": "a transposed convolution, or repeat_interleave along the spatial dimensions",
    "upsample_bilinear2d": "a transposed convolution",
}
BACKWARD_OF = {"threshold": "relu"}   # threshold_backward is ReLU's gradient


def program_operators(program: Any) -> list[str]:
    """``name.overload`` of every operator an ``executorch.exir.schema.Program`` calls, in first-use order."""
    seen: dict[str, None] = {}
    for plan in program.execution_plan:
        for op in plan.operators:
            seen[f"{op.name}.{op.overload}" if op.overload else op.name] = None
    return list(seen)


@functools.lru_cache(maxsize=1)
def _binding_operators() -> frozenset[str]:
    from executorch.extension.pybindings.portable_lib import _get_operator_names

    return frozenset(_get_operator_names())


def runtime_operators(source: Path | None = None) -> tuple[frozenset[str], str]:
    """(operator names, where they came from): ``source`` is a file of names, one per line (``#`` comments),
    or None for the Python bindings' registry."""
    if source is None:
        return _binding_operators(), BINDINGS
    try:
        lines = Path(source).read_text().splitlines()
    except OSError as exc:
        raise ExportError(f"operator list {str(source)!r} cannot be read: {exc.strerror or exc}",
                          pass_name=PASS_NAME) from None
    names = frozenset(s for s in (line.split("#", 1)[0].strip() for line in lines) if s)
    if not names:
        raise ExportError(f"operator list {str(source)!r} names no operators", pass_name=PASS_NAME)
    return names, str(source)


def forward_op(op: str) -> str:
    """The forward operator a program operator belongs to: 'aten::avg_pool2d_backward.grad_input' -> 'avg_pool2d'."""
    base = op.split("::", 1)[-1].split(".", 1)[0]
    base = re.sub(r"_backward(_data)?$", "", base)
    return BACKWARD_OF.get(base, base)


def _user_frame(stack_trace: str) -> str:
    """The innermost frame outside torch (the line of the model that made the op), 'file:line'."""
    frames = re.findall(r'File "([^"]+)", line (\d+)', stack_trace or "")
    outside = [f for f in frames if "/torch/" not in f[0] and "/pipeline/export/" not in f[0]]
    return f"{outside[-1][0]}:{outside[-1][1]}" if outside else ""


def layers_of(op: str, forward_graph: Any) -> list[str]:
    """Layers (module path and type, source line) of ``forward_graph`` whose forward op ``op`` belongs to."""
    want = forward_op(op)
    out: dict[str, None] = {}
    for node in forward_graph.graph.nodes:
        schema = getattr(getattr(node.target, "_schema", None), "name", "")
        if node.op != "call_function" or schema.split("::", 1)[-1] != want:
            continue
        stack = list((node.meta.get("nn_module_stack") or {}).values())
        path, cls = stack[-1] if stack else ("", "")
        path = path[len("model."):] if path.startswith("model.") else ("" if path == "model" else path)
        where = _user_frame(node.meta.get("stack_trace", ""))
        if path:
            label = f"layer {path!r} ({cls.rsplit('.', 1)[-1]})" + (f" at {where}" if where else "")
        elif cls.endswith("Wrapper"):
            label = "edgecl's training loss (pipeline/export/wrapper.py)"
        else:
            label = "the model's forward" + (f" at {where}" if where else "")
        out[label] = None
    return list(out)


def missing_operators(used: Iterable[str], available: Collection[str]) -> list[str]:
    return [op for op in used if op not in available]


def check_operators(program: Any, available: Collection[str], source: str, what: str,
                    forward_graph: Callable[[], Any] | None = None) -> None:
    """``ExportError`` naming each operator of ``program`` not in ``available``, its layer and a replacement.
    ``forward_graph`` builds the decomposed forward graph to find layers in (only called on a miss)."""
    missing = missing_operators(program_operators(program), available)
    if not missing:
        return
    graph = forward_graph() if forward_graph is not None else None
    lines = []
    for op in missing:
        layers = layers_of(op, graph) if graph is not None else []
        fix = REPLACEMENTS.get(forward_op(op))
        lines.append(f"{op} (from {', '.join(layers) if layers else 'an op with no layer recorded'})"
                     + (f": use {fix} instead" if fix else ": rewrite that layer with operators the runtime has"))
    raise ExportError(f"the {what} program calls {len(missing)} operator(s) the device runtime does not have "
                      f"({source}, {len(available)} operators): " + "; ".join(lines),
                      pass_name=PASS_NAME, node=missing[0])
