"""Replace ``max_pool2d_with_indices_backward`` with PyTorch's own decomposition.

ExecuTorch's portable kernel for this op computes wrong gradients (tests/test_export_parity.py
shows it); the decomposition (scatter of the incoming gradient at the saved indices) runs on
kernels that are right.
"""
from __future__ import annotations

import torch
from torch._decomp import decomposition_table

from pipeline.export.pass_manager import PassResult

_OP = torch.ops.aten.max_pool2d_with_indices_backward.default


class DecomposeMaxPoolBackward:
    name = "decompose_maxpool_backward"
    stage = "et_joint"

    def __call__(self, ep: torch.export.ExportedProgram) -> PassResult:
        count = sum(1 for n in ep.graph.nodes if n.op == "call_function" and n.target is _OP)
        if not count:
            return PassResult(ep, False)
        ep = ep.run_decompositions({_OP: decomposition_table[_OP]})
        left = sum(1 for n in ep.graph.nodes if n.op == "call_function" and n.target is _OP)
        if left:
            raise RuntimeError(f"{left} max_pool2d_with_indices_backward node(s) survived decomposition")
        return PassResult(ep, True, f"{count} node(s) decomposed")
