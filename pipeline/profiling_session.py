"""Miro's profiling calls as device sessions: the ``Profiler`` that ``pipeline.miro.tuner.MiroTuner`` uses.

A profiling session (``kind = "profiling"``) trains the task about to run from a checkpoint with one
candidate's whole ``TaskConfig`` (EM, SB, swap, sparsity, DDR fraction) for ``epochs``, on a
``subset_fraction`` of its SB and EM (the session draws the subset, docs/semantics.md 2); the
storage tier is opened read-only and nothing of the real run changes. A sparsity other than the
checkpoint's is reached by the task's TDM expand event, so every candidate runs on the run's one
export. It then evaluates on every task seen so far. Accuracy = mean class-IL over the seen tasks
(%); energy = the session's measured energy (``pipeline.experiment.session_energy``: program load
included, None when power is off or the trace cannot be trusted).

    run = prepare_device_run(spec, device, run_id)          # or the one run_experiment hands over
    profiler = DeviceProfiler(run, results_dir / "sessions")
    tuner = MiroTuner(spec, profiler, ...)                   # run_experiment(..., tuner=lambda run: ...)
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

from pipeline.device_run import DeviceRun
from pipeline.errors import SessionError
from pipeline.miro.tuner import ProfileRun, TaskInfo
from pipeline.task_config import TaskConfig


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
        result, energy = run_session(self.run, ss, self.local / sid, self.progress)
        if result["status"] != "ok":
            raise SessionError("died", f"profiling session ended {result['status']}: {result.get('error')}", sid)
        last = result["evals"][-1]
        accuracy = float(np.mean(list(last["class_il"].values())))
        return ProfileRun(accuracy=accuracy, energy_j=energy["energy_j"], seconds=float(result["t_end"] - result["t_start"]),
                          session_id=sid, simulated=self.run.device.profile.simulated, checkpoint=result["checkpoint"])

    def mini_checkpoint(self, task: TaskInfo, subset_fraction: float, epochs: int) -> ProfileRun:
        """The shared start of every candidate: the previous task's model trained on the subset."""
        return self._session(task, TaskConfig.from_spec(self.run.spec), epochs, subset_fraction,
                             self.run.last_checkpoint, "mini")

    def profile(self, task: TaskInfo, config: TaskConfig, epochs: int, subset_fraction: float,
                checkpoint: str | None) -> ProfileRun:
        """One candidate from ``checkpoint`` (the mini-checkpoint, or the previous task's end)."""
        return self._session(task, config, epochs, subset_fraction, checkpoint or self.run.last_checkpoint, "cand")
