"""``MiroTuner``: before each task, profile candidate task configurations on the device and pick one.

Per task from ``miro.start_task`` on (earlier tasks run the spec's ``[replay]``):
1. read the device's state (battery, charger, heat, RAM, storage) -> the battery-aware mode;
2. build the candidate space, clip it to the data seen so far, the task size and what the device
   can hold, and shrink it when the mode asks;
3. train a shared mini-checkpoint from the previous task's model on a ``subset_fraction`` subset;
4. search (grid / random / weighted-random / halving): each profiling run trains one candidate AT
   ITS OWN settings (EM, SB, swap, sparsity, DDR fraction) on the same ``subset_fraction`` of its
   SB and EM (the session takes the subset, docs/semantics.md 2), from the mini-checkpoint, then
   evaluates on the classes seen so far — energy MEASURED on the device for that run;
5. score (cutline / weighted / lowest energy / highest accuracy) and return the winner's whole
   ``TaskConfig``, which the task session then runs exactly.
Everything (state, mode, candidates, runs, choice, profiling energy and time) goes to ``miro.json``.
The tuner never touches the model: profiling runs train copies on the device.
"""
from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Protocol

import numpy as np

from pipeline.config import ExperimentSpec
from pipeline.miro.candidates import Candidate, DataLimits, DeviceLimits, build_candidates, clip_candidates
from pipeline.miro.resources import DeviceState, PolicyDecision, ResourcePolicySpec, decide, shrink
from pipeline.miro.scorers import Measurement, ScoringSpec
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


@dataclass
class TaskInfo:
    """What the tuner must know about the task it configures."""

    task_index: int                  # 0-based
    task_samples: int                # training samples in this task
    seen_samples: int                # training samples of all earlier tasks (in the storage tier)
    bytes_per_sample: int = 4 * 784


class Profiler(Protocol):
    """The experiment driver's profiling calls (sessions on the device)."""

    def mini_checkpoint(self, task: TaskInfo, subset_fraction: float, epochs: int) -> ProfileRun:
        """Train the previous task's model on the subset for ``epochs``; ``checkpoint`` names the result."""

    def profile(self, task: TaskInfo, config: TaskConfig, epochs: int, subset_fraction: float,
                checkpoint: str | None) -> ProfileRun:
        """Train one candidate's configuration from ``checkpoint`` on the subset; evaluate on the seen classes."""


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

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"task": self.task, "profiled": self.profiled,
                             "chosen": self.candidate.to_dict(),
                             "config": self.config.to_dict(),
                             "profiling_energy_j": self.energy_j, "profiling_seconds": self.seconds,
                             "energy_complete": self.energy_complete}
        if self.state is not None:
            d["device_state"] = self.state.to_dict()
        if self.policy is not None:
            d["policy"] = self.policy.to_dict()
        if self.candidates:
            d["candidates"] = [c.key for c in self.candidates]
        if self.checkpoint is not None:
            d["mini_checkpoint"] = {"energy_j": self.checkpoint.energy_j, "seconds": self.checkpoint.seconds,
                                    "accuracy": self.checkpoint.accuracy, "session_id": self.checkpoint.session_id}
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
                                   self.miro.energy_weight, self.miro.energy)
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
        policy = decide(state, self.scoring, self.policy_spec)
        limits = DeviceLimits(
            mem_available_bytes=state.mem_available_bytes if state else None,
            storage_free_bytes=state.storage_free_bytes if state else None,
            bytes_per_sample=task.bytes_per_sample, ram_share=miro.ram_share * policy.ram_share_factor)
        space = clip_candidates(build_candidates(miro, task.task_samples),
                                DataLimits(task.seen_samples, task.task_samples), limits)
        space = shrink(space, policy.keep_share)
        t0 = time.monotonic()
        ckpt = None
        if miro.checkpoint_epochs > 0:
            ckpt = self.profiler.mini_checkpoint(task, miro.subset_fraction, miro.checkpoint_epochs)
        runs_energy_ok = [ckpt is None or ckpt.energy_j is not None]

        def evaluate(c: Candidate, epochs: int) -> Measurement:
            run = self.profiler.profile(task, c.to_task(self.default), epochs, miro.subset_fraction,
                                        ckpt.checkpoint if ckpt else None)
            runs_energy_ok.append(run.energy_j is not None)
            self._tell(f"task {task.task_index + 1}: profiled {c.key} for {epochs} epoch(s): accuracy {run.accuracy:.1f}, "
                       + ("energy -" if run.energy_j is None else f"{run.energy_j:.2f} J") + (" (simulated)" if run.simulated else ""))
            return Measurement(c, run.accuracy, run.energy_j, run.seconds, epochs, run.session_id, run.simulated)

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
        self._tell(f"task {task.task_index + 1}: mode {policy.mode}, {len(space)} candidates, {miro.search}: "
                   f"chose {result.chosen.candidate.key} ({energy:.2f} J, {decision.seconds:.0f} s of profiling)")
        return decision

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
                "profile_epochs": miro.profile_epochs, "overhead": overhead,
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
