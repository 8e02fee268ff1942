"""Common-subexpression elimination on the joint graph.

The convolution rewrite recomputes each input's im2col columns for the weight gradient (a
decomposition sees one op at a time); the columns are identical to the forward's, so computing
them once saves a third of the im2col copies. Only pure ATen ops are merged (no random or
in-place ops), with their arguments compared structurally.
"""
from __future__ import annotations

from typing import Any

import torch
from torch.fx.passes.dialect.common.cse_pass import get_CSE_banned_ops

from pipeline.export.pass_manager import PassResult


def _key(value: Any) -> Any:
    if isinstance(value, (list, tuple)):
        return (type(value).__name__, tuple(_key(v) for v in value))
    if isinstance(value, dict):
        return tuple(sorted((k, _key(v)) for k, v in value.items()))
    if isinstance(value, (torch.dtype, torch.device, torch.layout, torch.memory_format)):
        return str(value)
    return value


class DedupeSubexpressions:
    name = "dedupe_subexpressions"
    stage = "et_joint"

    def __call__(self, ep: torch.export.ExportedProgram) -> PassResult:
        graph = ep.graph_module.graph
        banned = get_CSE_banned_ops()
        seen: dict[Any, torch.fx.Node] = {}
        merged = 0
        for node in list(graph.nodes):
            if node.op != "call_function" or not isinstance(node.target, torch._ops.OpOverload):
                continue
            if node.target.overloadpacket in banned or node.target._schema.is_mutable:
                continue
            key = (node.target, _key(node.args), _key(node.kwargs))
            try:
                hash(key)
            except TypeError:
                continue
            first = seen.setdefault(key, node)
            if first is not node:
                node.replace_all_uses_with(first)
                graph.erase_node(node)
                merged += 1
        if not merged:
            return PassResult(ep, False)
        ep.graph_module.recompile()
        return PassResult(ep, True, f"{merged} duplicate node(s) merged")
