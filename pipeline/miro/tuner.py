"""``MiroTuner``: before each task, profile candidate task configurations on the device and pick one.

Per task from ``miro.start_task`` on (earlier tasks run the spec's ``[replay]``):
1. read the device's state (battery, charger, heat, RAM, storage) -> the battery-aware mode;
2. build the candidate space, clip it to the data seen so far, the task size and what the device
   can hold, and shrink it when the mode asks;
3. train a shared mini-checkpoint from the previous task's model on a ``subset_fraction`` subset;
4. search (grid / random / weighted-random / halving): each profiling run trains one candidate AT
   ITS OWN settings (EM, SB, swap, sparsity, DDR fraction) on a subset of its SB and EM (the
   session takes the subset, docs/semantics.md 2), from the mini-checkpoint, then evaluates on the
   classes seen so far. With ``miro.profile_batches`` every candidate's subset is sized to the
   same steps (profile_plan.py), else it is the paper's one ``subset_fraction`` for all;
5. energy per candidate = what the WHOLE task would cost at its settings: its measured profiling
   energy per step x the task's steps when that figure is precise, else the previous task
   session's precise J/step x the task's steps, else the task's steps alone (then every candidate
   of the comparison is ranked in steps: an imprecise window is never taken as a figure);
6. score (cutline / weighted / lowest energy / highest accuracy) and return the winner's whole
   ``TaskConfig``, which the task session then runs exactly.
A task is profiled when it is at or after ``miro.start_task``; the runs start from the previous
task's model, or for task 1 (``start_task = 1``) from the export's initial state, the model every
later task descends from (the warm start: no paper default is spent on task 1).
Everything (state, mode, candidates, runs, choice, profiling energy and time) goes to ``miro.json``.
The tuner never touches the model: profiling runs train copies on the device.
"""
from __future__ import annotations

import json
import os
import time
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any, Callable, Protocol

import numpy as np

from android_harness.device.methods import method
from pipeline.config import ExperimentSpec
from pipeline.miro.candidates import Candidate, DataLimits, DeviceLimits, build_candidates, clip_candidates
from pipeline.miro.profile_plan import (SubsetShape, common_batches, em_slots, equal_steps_shape, extrapolate, sb_rows,
                                        subset_shape, task_steps)
from pipeline.miro.resources import DeviceState, PolicyDecision, ResourcePolicySpec, decide, shrink
from pipeline.miro.scorers import Measurement, ScoringSpec, energy_basis
from pipeline.miro.search import SearchResult, WeightedRandomSampler, run_search
from pipeline.task_config import TaskConfig

MIRO_JSON = "miro.json"


@dataclass
class ProfileRun:
    """What one profiling session on the device returned."""

    accuracy: float
    energy_j: float | None
    seconds: float
    session_id: str | None = None
    simulated: bool = False
    checkpoint: str | None = None
    train_energy_j: float | None = None   # its training phase alone (what extrapolates to the task)
    precise: bool = False                 # the training-phase figure is long enough for the counter
    source: str = ""                      # the counter it comes from (pipeline.energy counters)
    steps: int | None = None              # steps it trained (from its events)
    note: str = ""


@dataclass(frozen=True)
class StepEnergy:
    """A precise measured J per training step (a finished task session's training phase)."""

    j_per_step: float
    source: str
    session_id: str


@dataclass
class TaskInfo:
    """What the tuner must know about the task it configures."""

    task_index: int                  # 0-based
    task_samples: int                # training samples in this task
    seen_samples: int                # training samples of all earlier tasks (in the storage tier)
    bytes_per_sample: int = 4 * 784
    test_samples: int | None = None  # test samples of every task seen so far (what profiling evaluates on)


class Profiler(Protocol):
    """The experiment driver's profiling calls (sessions on the device)."""

    def mini_checkpoint(self, task: TaskInfo, subset_fraction: float, epochs: int) -> ProfileRun:
        """Train the previous task's model on the subset for ``epochs``; ``checkpoint`` names the result."""

    def profile(self, task: TaskInfo, config: TaskConfig, epochs: int, subset_fraction: float,
                checkpoint: str | None) -> ProfileRun:
        """Train one candidate's configuration from ``checkpoint`` on the subset; evaluate on the seen classes."""

    def step_energy(self, task: TaskInfo) -> StepEnergy | None:
        """The last finished task session's precise J per step, if there is one."""


@dataclass
class TaskDecision:
    """One task's decision and everything measured to make it."""

    task: int
    candidate: Candidate
    config: TaskConfig
    profiled: bool
    state: DeviceState | None = None
    policy: PolicyDecision | None = None
    candidates: list[Candidate] = field(default_factory=list)
    checkpoint: ProfileRun | None = None
    search: SearchResult | None = None
    energy_j: float = 0.0
    seconds: float = 0.0
    energy_complete: bool = True
    reference: StepEnergy | None = None
    profiled_steps: int = 0

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"task": self.task, "profiled": self.profiled,
                             "chosen": self.candidate.to_dict(),
                             "config": self.config.to_dict(),
                             "profiling_energy_j": self.energy_j, "profiling_seconds": self.seconds,
                             "energy_complete": self.energy_complete, "profiling_steps": self.profiled_steps}
        if self.reference is not None:
            d["step_energy_reference"] = asdict(self.reference)
        if self.state is not None:
            d["device_state"] = self.state.to_dict()
        if self.policy is not None:
            d["policy"] = self.policy.to_dict()
        if self.candidates:
            d["candidates"] = [c.key for c in self.candidates]
        if self.checkpoint is not None:
            d["mini_checkpoint"] = {"energy_j": self.checkpoint.energy_j, "seconds": self.checkpoint.seconds,
                                    "accuracy": self.checkpoint.accuracy, "session_id": self.checkpoint.session_id,
                                    "steps": self.checkpoint.steps, "precise": self.checkpoint.precise}
        if self.search is not None:
            d["search"] = self.search.to_dict()
            d["runs"] = [m.to_dict() for m in self.search.runs]
        return d


class MiroTuner:
    """The ``TaskTuner`` Miro plugs into ``run_experiment``: ``choose(task) -> TaskConfig``."""

    def __init__(self, spec: ExperimentSpec, profiler: Profiler,
                 state_reader: Callable[[], DeviceState | None] | None = None,
                 results_dir: Path | None = None, on_event: Callable[[str], None] | None = None) -> None:
        self.spec = spec
        self.on_event = on_event
        self.miro = spec.miro
        self.profiler = profiler
        self.state_reader = state_reader
        self.results_dir = results_dir
        self.decisions: list[TaskDecision] = []
        self.sampler = WeightedRandomSampler()
        self.policy_spec = ResourcePolicySpec(battery_low=self.miro.battery_low, battery_critical=self.miro.battery_critical,
                                              thermal_temp_c=self.miro.thermal_temp_c, mem_pressure=self.miro.mem_pressure)
        self.scoring = ScoringSpec(self.miro.scorer, self.miro.cutline, self.miro.acc_weight,
                                   self.miro.energy_weight, self.miro.energy, self.miro.cutline_se)
        self.totals: dict[str, float] = {}
        self.default = TaskConfig.from_spec(spec)

    def choose(self, task: TaskInfo) -> TaskConfig:
        """The whole configuration ``task`` runs with; profiles on the device from ``miro.start_task`` on."""
        if not self.miro.enabled or task.task_index + 1 < self.miro.start_task:
            r = self.default.replay
            decision = TaskDecision(task.task_index, Candidate(r.em_size, r.sb_size, r.swap_ratio, r.swap_period),
                                    self.default, profiled=False)
        else:
            decision = self._profile_task(task)
        self.decisions.append(decision)
        self._save()
        return decision.config

    def _profile_task(self, task: TaskInfo) -> TaskDecision:
        miro = self.miro
        state = self.state_reader() if self.state_reader else None
        policy = decide(state, replace(self.scoring, eval_samples=task.test_samples), self.policy_spec)
        limits = DeviceLimits(
            mem_available_bytes=state.mem_available_bytes if state else None,
            storage_free_bytes=state.storage_free_bytes if state else None,
            bytes_per_sample=task.bytes_per_sample, ram_share=miro.ram_share * policy.ram_share_factor)
        space = clip_candidates(build_candidates(miro, task.task_samples),
                                DataLimits(task.seen_samples, task.task_samples), limits)
        space = shrink(space, policy.keep_share)
        shapes, default_shape = self._subset_shapes(task, space)
        reference = self.profiler.step_energy(task)
        t0 = time.monotonic()
        ckpt = None
        if miro.checkpoint_epochs > 0:
            ckpt = self.profiler.mini_checkpoint(task, default_shape.subset_fraction, miro.checkpoint_epochs)
        runs_energy_ok = [ckpt is None or ckpt.energy_j is not None]

        def evaluate(c: Candidate, epochs: int) -> Measurement:
            shape = shapes[c]
            run = self.profiler.profile(task, c.to_task(self.default), epochs, shape.subset_fraction,
                                        ckpt.checkpoint if ckpt else None)
            runs_energy_ok.append(run.energy_j is not None)
            m = self._measurement(task, c, shape, epochs, run, reference)
            self._tell(f"task {task.task_index + 1}: profiled {c.key} for {m.steps} steps: accuracy {run.accuracy:.1f}, "
                       + ("energy -" if run.energy_j is None else f"{run.energy_j:.3f} J") + (" (simulated)" if run.simulated else "")
                       + f"; task energy {m.extra['task_energy_basis']}")
            return m

        rng = np.random.default_rng(self.spec.seed * 1000 + task.task_index)
        result = run_search(miro.search, space, evaluate, policy.scoring, epochs=miro.profile_epochs,
                            fraction=miro.sample_fraction, budget_epochs=miro.budget_epochs, eta=miro.halving_eta,
                            rng=rng, sampler=self.sampler)
        energy = sum(m.energy_j or 0.0 for m in result.runs) + ((ckpt.energy_j or 0.0) if ckpt else 0.0)
        seconds = sum(m.seconds for m in result.runs) + (ckpt.seconds if ckpt else 0.0)
        decision = TaskDecision(task.task_index, result.chosen.candidate, result.chosen.candidate.to_task(self.default),
                                True, state, policy,
                                space, ckpt, result, energy, seconds, all(runs_energy_ok))
        decision.seconds = max(seconds, 0.0) or (time.monotonic() - t0)
        decision.reference = reference
        result.notes.append(f"energy basis: {energy_basis(result.final, policy.scoring.energy)}")
        decision.profiled_steps = sum(m.steps or 0 for m in result.runs) + ((ckpt.steps or 0) if ckpt else 0)
        self._tell(f"task {task.task_index + 1}: mode {policy.mode}, {len(space)} candidates, {miro.search}: "
                   f"chose {result.chosen.candidate.key} ({energy:.2f} J, {decision.seconds:.0f} s of profiling)")
        return decision

    def _subset_shapes(self, task: TaskInfo, space: list[Candidate]) -> tuple[dict[Candidate, SubsetShape], SubsetShape]:
        """Each candidate's profiling subset (and the mini-checkpoint's, at the spec's default):
        equal steps with ``miro.profile_batches``, else the paper's one fraction."""
        batch, replay = self.spec.train.batch_size, method(self.spec.train.method).replays
        r = self.default.replay
        sizes = {c: (sb_rows(c.sb_size, task.task_samples), em_slots(c.em_size, task.seen_samples, replay)) for c in space}
        base = (sb_rows(r.sb_size, task.task_samples), em_slots(r.em_size, task.seen_samples, replay))
        if self.miro.profile_batches > 0:
            k = common_batches([*sizes.values(), base], self.miro.profile_batches, batch)
            shape = lambda sb_em: equal_steps_shape(*sb_em, k, batch)  # noqa: E731
        else:
            shape = lambda sb_em: subset_shape(*sb_em, self.miro.subset_fraction, batch)  # noqa: E731
        return {c: shape(v) for c, v in sizes.items()}, shape(base)

    def _measurement(self, task: TaskInfo, c: Candidate, shape: SubsetShape, epochs: int, run: ProfileRun,
                     reference: StepEnergy | None) -> Measurement:
        """One profiling run as the scorers see it, with the task energy it predicts and from what."""
        batch, replay = self.spec.train.batch_size, method(self.spec.train.method).replays
        planned = epochs * shape.steps_per_epoch
        steps = run.steps if run.steps else planned
        full = task_steps(sb_rows(c.sb_size, task.task_samples), em_slots(c.em_size, task.seen_samples, replay),
                          self.spec.train.epochs, batch)
        if run.precise and run.train_energy_j is not None and steps > 0:
            task_j, basis = extrapolate(run.train_energy_j, steps, full), f"profiling run ({run.source}, precise)"
        elif reference is not None:
            task_j, basis = reference.j_per_step * full, f"J/step of {reference.session_id} ({reference.source}): profiling window imprecise"
        else:
            task_j, basis = None, "steps: no precise energy yet"
        extra = {"subset_fraction": shape.subset_fraction, "subset_pool": shape.pool, "planned_steps": planned,
                 "energy_precise": run.precise, "energy_source": run.source, "train_energy_j": run.train_energy_j,
                 "task_energy_basis": basis}
        if run.note:
            extra["energy_note"] = run.note
        return Measurement(c, run.accuracy, run.energy_j, run.seconds, epochs, run.session_id, run.simulated, extra,
                           steps=steps, task_steps=full, task_energy_j=task_j)

    def _tell(self, message: str) -> None:
        if self.on_event is not None:
            self.on_event(message)

    @property
    def profiling_energy_j(self) -> float:
        return sum(d.energy_j for d in self.decisions)

    @property
    def profiling_seconds(self) -> float:
        return sum(d.seconds for d in self.decisions)

    def set_run_totals(self, energy_j: float | None, seconds: float | None) -> None:
        """The whole run's measured energy and time (training + profiling), for the overhead share."""
        self.totals = {k: v for k, v in (("energy_j", energy_j), ("seconds", seconds)) if v is not None}
        self._save()

    def to_dict(self) -> dict[str, Any]:
        miro = self.miro
        overhead: dict[str, Any] = {"profiling_energy_j": self.profiling_energy_j, "profiling_seconds": self.profiling_seconds}
        if self.totals.get("energy_j"):
            overhead["run_energy_j"] = self.totals["energy_j"]
            overhead["energy_share"] = self.profiling_energy_j / self.totals["energy_j"]
        if self.totals.get("seconds"):
            overhead["run_seconds"] = self.totals["seconds"]
            overhead["time_share"] = self.profiling_seconds / self.totals["seconds"]
        simulated = any(m.simulated for d in self.decisions if d.search for m in d.search.runs)
        return {"simulated": simulated, "search": miro.search, "scorer": miro.scorer, "cutline": miro.cutline,
                "energy": miro.energy, "start_task": miro.start_task, "subset_fraction": miro.subset_fraction,
                "profile_epochs": miro.profile_epochs, "profile_batches": miro.profile_batches, "overhead": overhead,
                "tasks": [d.to_dict() for d in self.decisions]}

    def _save(self) -> None:
        if self.results_dir is not None:
            write_miro_json(self.results_dir, self.to_dict())


def write_miro_json(results_dir: Path, data: dict[str, Any]) -> Path:
    """Write ``miro.json`` atomically (temp then rename) into ``results_dir``."""
    results_dir = Path(results_dir)
    results_dir.mkdir(parents=True, exist_ok=True)
    path = results_dir / MIRO_JSON
    tmp = path.with_suffix(f".json.{os.getpid()}.tmp")
    tmp.write_text(json.dumps(data, indent=2, default=_json_default))
    os.replace(tmp, path)
    return path


def _json_default(o: Any) -> Any:
    if isinstance(o, Path):
        return str(o)
    if isinstance(o, (np.floating, np.integer)):
        return o.item()
    if isinstance(o, float) and o != o:
        return None
    raise TypeError(f"not JSON-serialisable: {type(o).__name__}")
