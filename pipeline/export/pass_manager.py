"""A tiny pass manager in ExecuTorch ``exir`` style: named passes, run in order, each reporting
honestly whether it modified the graph; a failing pass is named in the ``ExportError``.

A pass is any object with ``name``, ``stage`` and ``__call__(graph) -> PassResult``. Stages and the
object a pass of that stage receives and returns:

- ``et_joint``: ``torch.export.ExportedProgram`` of the joint forward+backward program
- ``et_eval``: ``torch.export.ExportedProgram`` of the forward-only eval program, decomposed as the joint one is
- ``et_edge``: ``executorch.exir.EdgeProgramManager`` (after ``to_edge``, before ``to_executorch``)
- ``onnx_model``: ``onnx.ModelProto`` exported from the training wrapper (before ORT artifacts)
- ``ort_eval``: ``onnx.ModelProto`` of the generated ORT eval model
- ``ort_optimizer``: ``onnx.ModelProto`` of the generated ORT optimizer model

``default_passes(spec)`` is the one place passes are registered: correctness passes always run;
speed passes (``ExportSpec.fast_passes``) are listed in ``FAST_PASSES``.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Callable, Protocol

from pipeline.errors import EdgeclError, ExportError

STAGES = ("et_joint", "et_eval", "et_edge", "onnx_model", "ort_eval", "ort_optimizer")


@dataclass
class PassResult:
    graph: Any
    modified: bool
    detail: str = ""


class GraphPass(Protocol):
    name: str
    stage: str

    def __call__(self, graph: Any) -> PassResult: ...


@dataclass
class PassRecord:
    name: str
    stage: str
    modified: bool
    seconds: float
    detail: str = ""


@dataclass
class PassManager:
    passes: list[GraphPass]
    records: list[PassRecord] = field(default_factory=list)

    def run(self, stage: str, graph: Any) -> Any:
        """Run this stage's passes in order; an exception becomes an ExportError naming the pass."""
        assert stage in STAGES, stage
        for p in (p for p in self.passes if p.stage == stage):
            t0 = time.perf_counter()
            try:
                result = p(graph)
            except ExportError as exc:
                if exc.pass_name is None:
                    raise ExportError(str(exc), pass_name=p.name, node=exc.node) from exc
                raise
            except EdgeclError:
                raise
            except Exception as exc:  # a pass bug or a graph it cannot handle: name it
                raise ExportError(f"{type(exc).__name__}: {exc}", pass_name=p.name) from exc
            self.records.append(PassRecord(p.name, stage, bool(result.modified), time.perf_counter() - t0, result.detail))
            graph = result.graph
        return graph

    def summary(self) -> list[dict[str, Any]]:
        return [vars(r) for r in self.records]


def _correctness_passes(decompose_maxpool_backward: bool) -> list[GraphPass]:
    from pipeline.export.passes import DecomposeMaxPoolBackward, FixBatchNormEval, RejectUnsupportedLayers, TorchAdamWMode

    out: list[GraphPass] = [RejectUnsupportedLayers(), FixBatchNormEval(), TorchAdamWMode()]
    if decompose_maxpool_backward:
        out.insert(0, DecomposeMaxPoolBackward())
    return out


def _fast(class_name: str) -> Callable[[], GraphPass]:
    """A constructor for a pass in ``pipeline.export.passes``, imported when first used (no cycle)."""

    def make() -> GraphPass:
        import pipeline.export.passes as passes

        return getattr(passes, class_name)()

    make.__name__ = class_name
    return make


# Speed passes (bench/RESULTS.md has the per-op profile behind each), constructed per export.
FAST_PASSES: list[Callable[[], GraphPass]] = [_fast(name) for name in (
    "MaxPoolAsSelect", "ConvToMatmul", "EvalConvToMatmul", "ReluBackwardAsMul", "AddmmAsMmAdd", "EvalAddmmAsMmAdd", "TransposeCancel", "DedupeSubexpressions", "CopiesAsViews")]


def default_passes(spec: Any = None, *, decompose_maxpool_backward: bool = True) -> list[GraphPass]:
    """The passes an export runs: correctness passes, then the fast passes when ``spec.fast_passes``."""
    passes = _correctness_passes(decompose_maxpool_backward)
    if spec is None or getattr(spec, "fast_passes", True):
        fast = [make() for make in FAST_PASSES]
        # a pass that must see the graph before the correctness passes rewrite it says so
        early = [p for p in fast if getattr(p, "before_correctness", False)]
        passes = early + passes + [p for p in fast if p not in early]
    return passes
