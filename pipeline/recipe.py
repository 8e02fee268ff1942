"""The experiment recipe ``edgecl run``, ``tune``, ``demo`` and ``sweep`` share: a spec run on one phone task
by task (``pipeline.experiment``), Miro choosing each task's replay from measured energy when the spec
enables it (``pipeline.miro.run``, which also records its profiling in the run's totals). The commands
parse their arguments and pick the phone; what a run does is decided here, once."""
from __future__ import annotations

from pathlib import Path

from android_harness.android_device import AndroidDevice
from pipeline.config import ExperimentSpec
from pipeline.experiment import run_experiment
from pipeline.run_journal import RunJournal


def run_spec(spec: ExperimentSpec, device: AndroidDevice, out: str | Path, *, runtime: str | None = None,
             progress: bool = True, journal: RunJournal | None = None) -> Path:
    """Run ``spec`` on ``device`` into a new folder under ``out`` (or the one ``journal`` follows: a resumed
    run, a sweep's run); returns the results folder."""
    if spec.miro.enabled:
        from pipeline.miro.run import run_spec_with_miro

        folder, _ = run_spec_with_miro(spec, device, Path(out), runtime=runtime, progress=progress, journal=journal)
        return folder
    return run_experiment(spec, device, out, runtime=runtime, progress=progress, journal=journal)
