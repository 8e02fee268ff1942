"""Fewer ``permute_copy`` kernels around matrix multiplies.

In ExecuTorch every ``permute`` is a real copy (~5-7 ns per element on the portable kernel), and
a joint graph is full of them: ``linear``'s forward transposes the weight, its backward
transposes that transpose back, and each gradient is computed transposed and then transposed
again. Two exact rewrites, repeated until neither applies:

- ``permute(permute(x, p), q)`` whose composition is the identity -> ``x``;
- ``mm(a, b.T)`` -> ``mm(b, a.T).T`` (and ``mm(a.T, b)`` -> ``mm(b.T, a).T``) when that moves the
  transpose onto a smaller tensor (counting the result's transpose), e.g. a large weight.
"""
from __future__ import annotations

import torch

from pipeline.export.pass_manager import PassResult
from pipeline.export.passes.fx_rewrite import call

aten = torch.ops.aten
_T = [1, 0]


def _is_permute(node, dims=None) -> bool:
    return (isinstance(node, torch.fx.Node) and node.op == "call_function"
            and node.target in (aten.permute.default, aten.permute_copy.default)
            and (dims is None or list(node.args[1]) == dims))


def _numel(node: torch.fx.Node) -> int:
    return node.meta["val"].numel()


def _cancel_double_permutes(graph: torch.fx.Graph) -> int:
    count = 0
    for node in list(graph.nodes):
        if _is_permute(node) and _is_permute(node.args[0]):
            inner = node.args[0]
            p, q = list(inner.args[1]), list(node.args[1])
            if [p[i] for i in q] == list(range(len(p))):
                node.replace_all_uses_with(inner.args[0])
                graph.erase_node(node)
                count += 1
    return count


def _swap_transposed_mm(graph: torch.fx.Graph) -> int:
    """mm(a, b.T) = mm(b, a.T).T when a and the result are smaller than b (mirror for mm(a.T, b))."""
    count = 0
    for node in list(graph.nodes):
        if node.op != "call_function" or node.target is not aten.mm.default:
            continue
        a, b = node.args
        if _is_permute(b, _T) and _numel(a) + _numel(node) < _numel(b):
            big, small, big_first = b.args[0], a, True
        elif _is_permute(a, _T) and _numel(b) + _numel(node) < _numel(a):
            big, small, big_first = a.args[0], b, False
        else:
            continue
        with graph.inserting_before(node):
            small_t = call(graph, aten.permute.default, small, _T, like=node)
            prod = call(graph, aten.mm.default, *((big, small_t) if big_first else (small_t, big)), like=node)
            # a copy, contiguous like the mm it replaces, so a later view of it stays valid (ExecuTorch
            # runs every permute as this same copy)
            new = call(graph, aten.permute_copy.default, prod, _T, like=node)
        node.replace_all_uses_with(new)
        graph.erase_node(node)
        count += 1
    return count


class TransposeCancel:
    name = "transpose_cancel"
    stage = "et_joint"

    def __call__(self, ep: torch.export.ExportedProgram) -> PassResult:
        graph = ep.graph_module.graph
        swapped = cancelled = 0
        while True:
            s = _swap_transposed_mm(graph)
            c = _cancel_double_permutes(graph)
            graph.eliminate_dead_code()
            swapped, cancelled = swapped + s, cancelled + c
            if not (s or c):
                break
        if not (swapped or cancelled):
            return PassResult(ep, False)
        ep.graph_module.recompile()
        return PassResult(ep, True, f"{cancelled} permute pair(s) cancelled, {swapped} mm(s) transposed")
