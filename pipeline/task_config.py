"""``TaskConfig``: what one task session runs beyond the spec's fixed recipe.

Miro chooses it per task (``TaskTuner.choose``): the replay hierarchy (EM, SB, swap) and, when they
are tuned jointly, SparCL's sparsity and DDR fraction. The session runs exactly that
(``experiment_prep.session_spec``); a sparsity other than the checkpoint's is reached by the
task's TDM expand event (docs/semantics.md 5.4), so no other export is needed.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from pipeline.config import ExperimentSpec, ReplaySpec


@dataclass(frozen=True)
class TaskConfig:
    replay: ReplaySpec
    sparsity: float
    ddr_fraction: float

    @classmethod
    def from_spec(cls, spec: ExperimentSpec) -> "TaskConfig":
        return cls(spec.replay, spec.sparcl.sparsity, spec.sparcl.ddr_fraction)

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self.replay), "sparsity": self.sparsity, "ddr_fraction": self.ddr_fraction}
