"""ReLU's backward as a multiply by a 0/1 mask instead of ``le`` + ``where``.

The joint graph computes ReLU's gradient as ``where(out <= 0, 0, grad)``; ExecuTorch's portable
``where`` and ``le`` cost ~15 ns per element (bench/RESULTS.md), more than the matmuls.
``grad * sign(relu(out))`` uses ``relu``/``sign`` (cheap unary kernels) and the optimized ``mul``,
and is exactly equal for finite gradients: the mask is exactly 1 where ``out > 0``, else exactly 0.
Where ``out`` is ReLU's own output (the usual case: autograd saves it), ``relu(out)`` is ``out``
bit for bit (never below zero), so the mask is ``sign(out)``: one pass over the activation fewer.
"""
from __future__ import annotations

import torch

from pipeline.export.pass_manager import PassResult
from pipeline.export.passes.fx_rewrite import call

aten = torch.ops.aten


def _is_zero_scalar(node) -> bool:
    return (isinstance(node, torch.fx.Node) and node.target in (aten.scalar_tensor.default, aten.full.default)
            and node.args[-1] == 0 and len(node.meta["val"].shape) == 0)


def _is_relu_output(node: torch.fx.Node) -> bool:
    """Whether ``node`` is a ReLU's output, through any aliases."""
    while node.op == "call_function" and node.target in (aten.alias.default, aten.detach.default):
        node = node.args[0]
    return node.op == "call_function" and node.target is aten.relu.default


def _relu_grad_operands(node: torch.fx.Node) -> tuple[torch.fx.Node, torch.fx.Node] | None:
    """``where(le(a, 0), 0, g)`` with float ``a`` and ``g`` of the same shape -> (a, g)."""
    if node.target is not aten.where.self or len(node.args) != 3:
        return None
    cond, zero, grad = node.args
    if not (isinstance(cond, torch.fx.Node) and cond.target is aten.le.Scalar and cond.args[1] == 0):
        return None
    a = cond.args[0]
    if not (_is_zero_scalar(zero) and isinstance(grad, torch.fx.Node)):
        return None
    av, gv = a.meta["val"], grad.meta["val"]
    if not av.dtype.is_floating_point or av.shape != gv.shape or av.dtype != gv.dtype:
        return None
    return a, grad


class ReluBackwardAsMul:
    name = "relu_backward_mask"
    stage = "et_joint"

    def __call__(self, ep: torch.export.ExportedProgram) -> PassResult:
        graph = ep.graph_module.graph
        count = 0
        for node in list(graph.nodes):
            operands = _relu_grad_operands(node) if node.op == "call_function" else None
            if operands is None:
                continue
            a, grad = operands
            with graph.inserting_before(node):
                nonneg = a if _is_relu_output(a) else call(graph, aten.relu.default, a, like=node)
                mask = call(graph, aten.sign.default, nonneg, like=node)
                new = call(graph, aten.mul.Tensor, grad, mask, like=node)
            node.replace_all_uses_with(new)
            graph.erase_node(node)
            count += 1
        if not count:
            return PassResult(ep, False)
        graph.eliminate_dead_code()
        ep.graph_module.recompile()
        return PassResult(ep, True, f"{count} relu gradient(s) rewritten")
