"""Make ORT's AdamW follow ``torch.optim.AdamW`` (``adam_mode = 0``).

onnxblock's AdamW hard-codes ``adam_mode = 1`` (Hugging Face's variant: epsilon outside the bias
correction, weight decay after the update), which drifts from the host reference trainer by
~1e-4 within a few steps; mode 0 is PyTorch's rule, the one the ExecuTorch backend implements.
"""
from __future__ import annotations

import onnx

from pipeline.export.pass_manager import PassResult


class TorchAdamWMode:
    name = "torch_adamw_mode"
    stage = "ort_optimizer"

    def __call__(self, model: onnx.ModelProto) -> PassResult:
        changed = 0
        for node in model.graph.node:
            if node.op_type != "AdamWOptimizer":
                continue
            for attr in node.attribute:
                if attr.name == "adam_mode" and attr.i != 0:
                    attr.i = 0
                    changed += 1
        return PassResult(model, changed > 0, f"{changed} AdamW node(s) set to PyTorch mode")
