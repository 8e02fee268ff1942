"""The training tables a session runs: ``train``, ``replay`` and ``sparcl`` (docs/semantics.md 10).

These dataclasses are THE definition: ``session.json`` carries them and ``pipeline.config`` builds
the experiment spec's tables from them (adding only host/export fields), so both validate the same
fields with the same defaults and ranges (``spec_field`` metadata, checked by ``spec_schema.build``).
The closed lists of session kinds and DDR selections live here too; methods and SparCL's parts are
registries of their own (``methods``, ``sparcl_parts``).
"""
from __future__ import annotations

from dataclasses import dataclass

from android_harness.device.methods import METHOD_NAMES
from android_harness.device.sparcl_parts import DDR, DGM, TDM
from android_harness.device.spec_schema import spec_field

METHODS = METHOD_NAMES                             # android_harness/device/methods: one file each
KINDS = ("task", "profiling")
DDR_SELECTS = ("forgetting", "random")             # random: the control for DDR's choice of rows


@dataclass
class TrainConfig:
    """The CL recipe: one step trains ``batch_size`` rows of the epoch's EM ∪ SB permutation."""

    method: str = spec_field("derpp", choices=METHODS)
    epochs: int = spec_field(5, ge=1, le=1000)
    batch_size: int = spec_field(32, ge=1, le=4096, doc="rows per step = the exported program's batch")
    lr: float = spec_field(0.03, gt=0.0, le=10.0)
    alpha: float = spec_field(0.1, ge=0.0, doc="DER++: weight of the MSE to an EM row's stored logits")
    beta: float = spec_field(0.5, ge=0.0, doc="DER++: weight of an EM row's cross-entropy")
    current_task_logits_only: bool = spec_field(False, doc="er/derpp: SB rows' CE over the task's classes only (off: with EM ∪ SB batches, masked SB rows never let new classes compete with old ones, so the newest task scores 0% class-IL)")


@dataclass
class ReplayConfig:
    """Miro's hierarchy: EM (references into the storage tier, in RAM) and SB in RAM, the rest on flash."""

    em_size: int = spec_field(200, ge=0, doc="episodic memory slots (the one key sizing the replay buffer)")
    sb_size: int = spec_field(400, ge=1, doc="stream buffer rows of the current task")
    swap_ratio: float = spec_field(0.0, ge=0.0, le=1.0)
    swap_period: int = spec_field(1, ge=1, doc="swap at every N-th step of a task")
    storage_budget_mb: float = spec_field(256.0, gt=0.0)


@dataclass
class SparclConfig:
    """SparCL: TDM (weight masks), DDR (data removal), DGM (gradient masks); each part runs when
    ``enabled`` and its own flag are true."""

    enabled: bool = spec_field(False)
    sparsity: float = spec_field(0.75, ge=0.0, lt=1.0)
    structured: bool = spec_field(False, doc="TDM units are output channels (the export can slice them away)")
    tdm: bool = spec_field(True)
    tdm_lambda: float = spec_field(0.5, ge=0.0)
    tdm_update_every: float = spec_field(0.1, gt=0.0, le=1.0, doc="mask update period, fraction of a task's epochs")
    tdm_swap: float = spec_field(0.01, ge=0.0, lt=1.0, doc="density swapped at each update")
    tdm_freeze_after: float = spec_field(0.9, gt=0.0, le=1.0, doc="fraction of a task after which masks freeze")
    ddr: bool = spec_field(True)
    ddr_fraction: float = spec_field(0.3, ge=0.0, lt=1.0, doc="share of a task's SB removed in total")
    ddr_steps: list[float] = spec_field(default_factory=lambda: [0.1, 0.2, 0.3, 0.4])
    ddr_select: str = spec_field(
        "forgetting", choices=DDR_SELECTS,
        doc="which rows a removal takes: the least-forgotten (the paper), or a seeded uniform draw of "
            "the same count (a control that keeps DDR's step count and drops its choice of rows)")
    ddr_store_removed: bool = spec_field(
        False, doc="removed rows still go to the storage tier at the task end, so later EMs can hold them "
                   "(docs/semantics.md 7); off = the reference's reading: they are never offered to replay")
    dgm: bool = spec_field(True)
    dgm_ratio: float = spec_field(
        0.2, ge=0.0, lt=1.0,
        doc="share of SURVIVING weights whose gradient is masked; 0.2 = the reference's 80th percentile "
            "over all weights at sparsity 0.75 (android_harness/device/sparcl/dgm.py)")
    dgm_period: int = spec_field(30, ge=1)

    @property
    def tdm_on(self) -> bool:
        return TDM.runs(self)

    @property
    def ddr_on(self) -> bool:
        return DDR.runs(self)

    @property
    def dgm_on(self) -> bool:
        return DGM.runs(self)


def table_problems(sparcl: SparclConfig) -> list[str]:
    """Cross-field problems of the tables (ranges are the fields' own metadata)."""
    problems = []
    if any(not 0.0 < s < 1.0 for s in sparcl.ddr_steps):
        problems.append("sparcl.ddr_steps: expected fractions of a task's epochs in (0, 1)")
    return problems


def dgm_optimizer_problem(sparcl: SparclConfig, optimizer: str, momentum: float, weight_decay: float) -> str | None:
    """DGM is defined for plain SGD only (docs/semantics.md 4.7): a gradient-masked weight must not move."""
    if sparcl.dgm_on and (optimizer != "sgd" or momentum or weight_decay):
        return (f"sparcl.dgm: gradient masking is defined for plain SGD only (a masked weight must not move in "
                f"that step); got optimizer {optimizer!r}, momentum {momentum:g}, weight_decay {weight_decay:g} "
                "(set sparcl.dgm = false or use sgd without momentum and weight decay)")
    return None
