"""The one helper the FX-level speed passes share: insert an ATen call with its fake-tensor ``val``.

Passes that edit an ``ExportedProgram``'s graph in place (rather than re-tracing it through
``run_decompositions``) must give each new node the ``meta["val"]`` that ``to_edge`` and memory
planning read; it is computed by running the op on the inputs' fake tensors.
"""
from __future__ import annotations

from typing import Any

import torch
from torch._guards import detect_fake_mode


def call(graph: torch.fx.Graph, target: Any, *args: Any, like: torch.fx.Node | None = None) -> torch.fx.Node:
    """Insert ``target(*args)`` at the graph's current insertion point, with its fake value."""
    node = graph.call_function(target, args)
    vals = [a.meta["val"] if isinstance(a, torch.fx.Node) else a for a in args]
    fake_mode = detect_fake_mode([v for v in vals if isinstance(v, torch.Tensor)])
    with fake_mode:
        node.meta["val"] = target(*vals)
    if like is not None and "stack_trace" in like.meta:
        node.meta["stack_trace"] = like.meta["stack_trace"]
    return node
