"""Fail early, naming the layer, on ops ORT training has no gradient builder for.

InstanceNorm and GroupNorm (ONNX ``InstanceNormalization``, ``GroupNormalization``) train in
PyTorch but not in ORT 1.19; the alternative is ``model.norm = "batch"`` or ``"none"``.
"""
from __future__ import annotations

import onnx

from pipeline.errors import ExportError
from pipeline.export.pass_manager import PassResult

UNSUPPORTED = {
    "InstanceNormalization": "InstanceNorm/GroupNorm",
    "GroupNormalization": "GroupNorm",
}


def _layer_of(node: onnx.NodeProto) -> str:
    """ONNX node names look like ``/model/features/1/InstanceNormalization``: the module path."""
    parts = [p for p in node.name.split("/") if p]
    if parts and parts[0] == "model":
        parts = parts[1:]
    return ".".join(parts[:-1]) or node.name


class RejectUnsupportedLayers:
    name = "reject_unsupported_layers"
    stage = "onnx_model"

    def __call__(self, model: onnx.ModelProto) -> PassResult:
        for node in model.graph.node:
            kind = UNSUPPORTED.get(node.op_type)
            if kind:
                raise ExportError(
                    f"layer {_layer_of(node)!r} ({kind}, ONNX {node.op_type}) has no gradient builder in ONNX Runtime "
                    "training 1.19; use model.norm = 'batch' or 'none', or runtime = 'executorch'",
                    node=node.name,
                )
        return PassResult(model, False)
