"""Shape-only copies (``alias_copy``, ``unsqueeze_copy``, ``squeeze_copy``) as ``view_copy``.

In the edge dialect these ops are real copies: a joint graph saves each ReLU output through an
``alias_copy`` (a full activation copy) and ``stack`` lowers to ``unsqueeze_copy`` + ``cat``. On a
contiguous tensor, which every ExecuTorch tensor is, each of them equals a ``view_copy`` to its
output shape, and ``to_executorch`` turns ``view_copy`` into a memory alias (no kernel, no copy),
except where the result is a program output (ExecuTorch keeps those a copy). Same bytes, fewer passes.
"""
from __future__ import annotations

from typing import Any

from executorch.exir.dialects._ops import ops as exir_ops

from pipeline.export.pass_manager import PassResult

_edge = exir_ops.edge.aten
_SHAPE_ONLY = (_edge.alias_copy.default, _edge.unsqueeze_copy.default, _edge.squeeze_copy.dim,
               _edge.squeeze_copy.dims, _edge.squeeze_copy.default)


class CopiesAsViews:
    name = "copies_as_views"
    stage = "et_edge"

    def __call__(self, edge: Any) -> PassResult:
        gm = edge.exported_program().graph_module
        count = 0
        for node in gm.graph.nodes:
            if node.op == "call_function" and node.target in _SHAPE_ONLY:
                node.target = _edge.view_copy.default
                node.args = (node.args[0], list(node.meta["val"].shape))
                node.kwargs = {}
                count += 1
        if count:
            gm.recompile()
        return PassResult(edge, bool(count), f"{count} copy node(s) made views" if count else "")
