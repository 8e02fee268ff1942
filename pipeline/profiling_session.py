"""Miro's profiling calls as device sessions: the ``Profiler`` that ``pipeline.miro.tuner.MiroTuner`` uses.

A profiling session (``kind = "profiling"``) trains the task about to run from a checkpoint with one
candidate's whole ``TaskConfig`` (EM, SB, swap, sparsity, DDR fraction) for ``epochs``, on a
``subset_fraction`` of its SB and EM (the session draws the subset, docs/semantics.md 2); the
storage tier is opened read-only and nothing of the real run changes. A sparsity other than the
checkpoint's is reached by the task's TDM expand event, so every candidate runs on the run's one
export. It then evaluates on every task seen so far. Accuracy = mean class-IL over the seen tasks
(%). Energy comes from ``pipeline.energy.measure_session`` on the pulled folder, from the phone's
ODPM rails when it has them (every candidate on the same counter), else its best battery counter:
the session's energy (profiling overhead) and its training phase's, with the figure's ``precise``
flag and source, so the tuner never takes a window too short for the counter as a precise figure.

    run = prepare_device_run(spec, device, run_id)          # or the one run_experiment hands over
    profiler = DeviceProfiler(run, results_dir / "sessions")
    tuner = MiroTuner(spec, profiler, ...)                   # run_experiment(..., tuner=lambda run: ...)
"""
from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from pipeline.device_run import DeviceRun
from pipeline.errors import SessionError
from pipeline.miro.tuner import ProfileRun, StepEnergy, TaskInfo
from pipeline.task_config import TaskConfig

RAILS = "odpm_rails"


@dataclass(frozen=True)
class PhaseFigure:
    """One session's measured energy: the whole session, one phase of it, and how good the phase figure is."""

    session_j: float | None
    phase_j: float | None
    precise: bool
    source: str
    steps: int
    note: str


def trained_steps(folder: Path, batch: int) -> int:
    """Steps the session trained: ceil(n_samples / B) per epoch event (docs/semantics.md 3.5)."""
    path = folder / "events.jsonl"
    if not path.exists():
        return 0
    steps = 0
    for line in path.read_text().splitlines():
        if line.strip():
            e = json.loads(line)
            if e.get("type") == "epoch":
                steps += math.ceil(int(e["n_samples"]) / batch)
    return steps


def measure_phase(folder: Path, profile, phase: str, batch: int) -> PhaseFigure:
    """``phase``'s energy in a pulled session folder, on the ODPM rails when sampled, else the best counter."""
    from pipeline.energy import measure_session

    m = None
    if (folder / "rails.txt").exists():
        m = measure_session(folder, profile, source=RAILS)
        if m.session is None or m.session.energy_j is None:
            m = None
    m = m or measure_session(folder, profile)
    s = m.session
    rows = [r for r in m.rows if r.kind == "phase" and r.name == phase]
    row = rows[0] if len(rows) == 1 else None
    note = m.error or (row.note if row is not None else f"{len(rows)} '{phase}' phase rows")
    return PhaseFigure(None if s is None else s.energy_j, None if row is None else row.energy_j,
                       bool(row is not None and row.precise), (row.source if row is not None else "") or "",
                       trained_steps(folder, batch), note)


class DeviceProfiler:
    """Profiling sessions on the device of ``run``; each session folder is pulled into ``local``."""

    def __init__(self, run: DeviceRun, local: Path, progress: bool = False) -> None:
        self.run, self.local, self.progress = run, Path(local), progress
        self.count = 0

    def _session(self, task: TaskInfo, config: TaskConfig, epochs: int, subset_fraction: float, checkpoint: str,
                 label: str) -> ProfileRun:
        from pipeline.experiment import run_session

        self.count += 1
        t = self.run.data.tasks[task.task_index]
        sid = f"{self.run.run_id}-task{t}-{label}{self.count}"
        ss = self.run.session_spec(sid, [t], task=config, resume_from=checkpoint or "", kind="profiling",
                                   subset_fraction=subset_fraction, epochs=epochs)
        ss.checkpoint_at_task_end = label == "mini"       # candidates start from it; nothing resumes from a candidate
        result, _record = run_session(self.run, ss, self.local / sid, self.progress)
        if result["status"] != "ok":
            raise SessionError("died", f"profiling session ended {result['status']}: {result.get('error')}", sid)
        last = result["evals"][-1]
        accuracy = float(np.mean(list(last["class_il"].values())))
        fig = measure_phase(self.local / sid, self.run.device.profile, "profiling", self.run.spec.train.batch_size)
        return ProfileRun(accuracy=accuracy, energy_j=fig.session_j, seconds=float(result["t_end"] - result["t_start"]),
                          session_id=sid, simulated=self.run.device.profile.simulated, checkpoint=result["checkpoint"],
                          train_energy_j=fig.phase_j, precise=fig.precise, source=fig.source, steps=fig.steps,
                          note=fig.note)

    def mini_checkpoint(self, task: TaskInfo, subset_fraction: float, epochs: int) -> ProfileRun:
        """The shared start of every candidate: the previous task's model (the export's initial state
        before task 1) trained on the subset."""
        return self._session(task, TaskConfig.from_spec(self.run.spec), epochs, subset_fraction,
                             self.run.last_checkpoint, "mini")

    def profile(self, task: TaskInfo, config: TaskConfig, epochs: int, subset_fraction: float,
                checkpoint: str | None) -> ProfileRun:
        """One candidate from ``checkpoint`` (the mini-checkpoint, or the previous task's end)."""
        return self._session(task, config, epochs, subset_fraction, checkpoint or self.run.last_checkpoint, "cand")

    def step_energy(self, task: TaskInfo) -> StepEnergy | None:
        """Measured J per training step of the previous task's session, when that figure is precise
        (None before the first task, or when it is not)."""
        if task.task_index == 0:
            return None
        prev = self.run.data.tasks[task.task_index - 1]
        folder = self.local / f"{self.run.run_id}-task{prev}"
        if not folder.exists():
            return None
        fig = measure_phase(folder, self.run.device.profile, "training", self.run.spec.train.batch_size)
        if not fig.precise or fig.phase_j is None or fig.steps < 1:
            return None
        return StepEnergy(fig.phase_j / fig.steps, fig.source, folder.name)
