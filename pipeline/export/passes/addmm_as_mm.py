"""``addmm`` (every ``nn.Linear`` with a bias) as the optimized ``mm`` plus the optimized ``add``.

The shipped optimized kernel library has ``mm`` but not ``addmm``, so ``addmm`` falls to the
portable kernel, a naive triple loop: ~2/3 of the MLP's training step (bench/RESULTS.md).
``mm(a, b) + bias`` is the same computation (beta = alpha = 1 only).
"""
from __future__ import annotations

import torch

from pipeline.export.pass_manager import PassResult
from pipeline.export.passes.fx_rewrite import call

aten = torch.ops.aten


class AddmmAsMmAdd:
    name = "addmm_as_mm"
    stage = "et_joint"

    def __call__(self, ep: torch.export.ExportedProgram) -> PassResult:
        graph = ep.graph_module.graph
        count = 0
        for node in list(graph.nodes):
            if node.op != "call_function" or node.target is not aten.addmm.default:
                continue
            if len(node.args) != 3 or node.kwargs.get("beta", 1) != 1 or node.kwargs.get("alpha", 1) != 1:
                continue
            bias, a, b = node.args
            with graph.inserting_before(node):
                new = call(graph, aten.add.Tensor, call(graph, aten.mm.default, a, b, like=node), bias, like=node)
            node.replace_all_uses_with(new)
            graph.erase_node(node)
            count += 1
        if not count:
            return PassResult(ep, False)
        ep.graph_module.recompile()
        return PassResult(ep, True, f"{count} addmm node(s) rewritten")


class EvalAddmmAsMmAdd(AddmmAsMmAdd):
    """The same rewrite on the eval program, whose ``mm`` the native runner can then run sparse."""

    name = "addmm_as_mm_eval"
    stage = "et_eval"
