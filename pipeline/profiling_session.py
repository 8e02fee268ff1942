"""Miro's profiling calls as device sessions: the ``Profiler`` that ``pipeline.miro.tuner.MiroTuner`` uses.

A profiling session (``kind = "profiling"``) trains the task about to run on a ``subset_fraction``
of its data, from a checkpoint, with a given ``ReplaySpec`` (EM/SB already scaled by the tuner),
for ``epochs``; the replay store is opened read-only and nothing of the real run changes. It then
evaluates on every task seen so far. Accuracy = mean class-IL over the seen tasks (%); energy =
the session window of its own power.csv (None when power is off or the trace cannot be trusted).

    run = prepare_device_run(spec, device, run_id)          # or the one run_experiment hands over
    profiler = DeviceProfiler(run, results_dir / "sessions")
    tuner = MiroTuner(spec, profiler, ...)                   # run_experiment(..., tuner=lambda run: ...)
"""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np

from pipeline.config import ReplaySpec
from pipeline.device_run import DeviceRun
from pipeline.errors import SessionError
from pipeline.miro.tuner import ProfileRun, TaskInfo


class DeviceProfiler:
    """Profiling sessions on the device of ``run``; each session folder is pulled into ``local``."""

    def __init__(self, run: DeviceRun, local: Path, progress: bool = False) -> None:
        self.run, self.local, self.progress = run, Path(local), progress
        self.count = 0
        self._models: dict[float, str] = {}

    def _session(self, task: TaskInfo, replay: ReplaySpec, epochs: int, subset_fraction: float, checkpoint: str,
                 label: str, model_rel: str | None = None, ddr_fraction: float | None = None) -> ProfileRun:
        from pipeline.experiment import run_session

        self.count += 1
        t = self.run.data.tasks[task.task_index]
        sid = f"{self.run.run_id}-task{t}-{label}{self.count}"
        ss = self.run.session_spec(sid, [t], replay=replay, resume_from=checkpoint or "", kind="profiling",
                                   subset_fraction=subset_fraction, epochs=epochs, model_rel=model_rel, ddr_fraction=ddr_fraction)
        result, energy, _note = run_session(self.run, ss, self.local / sid, self.progress)
        if result["status"] != "ok":
            raise SessionError("died", f"profiling session ended {result['status']}: {result.get('error')}", sid)
        last = result["evals"][-1]
        accuracy = float(np.mean(list(last["class_il"].values())))
        return ProfileRun(accuracy=accuracy, energy_j=energy, seconds=float(result["t_end"] - result["t_start"]),
                          session_id=sid, simulated=self.run.device.profile.simulated, checkpoint=result["checkpoint"])

    def mini_checkpoint(self, task: TaskInfo, subset_fraction: float, epochs: int) -> ProfileRun:
        """The shared start of every candidate: the previous task's model trained on the subset."""
        base = self.run.spec.replay
        scaled = replace(base, em_size=int(round(base.em_size * subset_fraction)),
                         sb_size=max(1, int(round(base.sb_size * subset_fraction))))
        return self._session(task, scaled, epochs, subset_fraction, self.run.last_checkpoint, "mini")

    def profile(self, task: TaskInfo, replay: ReplaySpec, epochs: int, subset_fraction: float,
                checkpoint: str | None, sparsity: float | None, ddr_fraction: float | None) -> ProfileRun:
        """One candidate from ``checkpoint`` (the mini-checkpoint, or the previous task's end)."""
        model_rel = None
        if sparsity is not None and sparsity != self.run.spec.sparcl.sparsity:
            model_rel = self._model_for(sparsity)
        return self._session(task, replay, epochs, subset_fraction, checkpoint or self.run.last_checkpoint, "cand",
                             model_rel=model_rel, ddr_fraction=ddr_fraction)

    def _model_for(self, sparsity: float) -> str:
        """An export at another SparCL sparsity (cached like every export), deployed next to the run's."""
        if sparsity not in self._models:
            from android_harness.cache_dir import edgecl_home

            variant = replace(self.run.spec, sparcl=replace(self.run.spec.sparcl, enabled=True, sparsity=sparsity))
            self._models[sparsity] = self.run.deploy_model(variant, edgecl_home() / "cache")
        return self._models[sparsity]
