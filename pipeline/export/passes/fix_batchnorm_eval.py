"""Make ORT's generated eval model loadable when the model has BatchNorm.

``generate_artifacts`` flips ``training_mode`` to 0 in the eval model but keeps the node's three
outputs (Y, running_mean, running_var); ORT 1.19 then refuses the model ("op outputs should be 1
when Training_mode = False"). The extra outputs are unused in eval, so we drop them.
"""
from __future__ import annotations

import onnx

from pipeline.export.pass_manager import PassResult


class FixBatchNormEval:
    name = "fix_batchnorm_eval"
    stage = "ort_eval"

    def __call__(self, model: onnx.ModelProto) -> PassResult:
        used = {i for n in model.graph.node for i in n.input} | {o.name for o in model.graph.output}
        fixed = 0
        for node in model.graph.node:
            if node.op_type != "BatchNormalization" or len(node.output) == 1:
                continue
            mode = next((a.i for a in node.attribute if a.name == "training_mode"), 0)
            if mode:
                continue
            if any(o and o in used for o in node.output[1:]):
                raise RuntimeError(f"BatchNormalization {node.name!r}: running-stat outputs are used in the eval graph")
            del node.output[1:]
            fixed += 1
        return PassResult(model, fixed > 0, f"{fixed} BatchNormalization node(s) reduced to one output")
