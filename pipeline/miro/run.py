"""An experiment with Miro on: ``run_experiment`` with a ``MiroTuner`` over device profiling sessions.

``miro_tuner_factory`` is what ``run_experiment(..., tuner=...)`` takes: it builds the tuner once the
device run is prepared (profiling sessions need its deployed model, data and checkpoints).
``run_with_miro`` runs the experiment that way and then records the whole run's measured energy
and time in ``miro.json``, so profiling overhead is a share of the run. The device's charger state
as the tuner sees it follows the spec: with ``power.unplug`` the run is measured on battery, so the
battery-aware policy treats it as discharging (the phone may still be on USB).
"""
from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any, Callable

from rich.console import Console

from pipeline.config import ExperimentSpec, load_spec
from pipeline.miro.device_state import read_device_state
from pipeline.miro.resources import DeviceState
from pipeline.miro.tuner import MiroTuner


def state_reader_for(run: Any) -> Callable[[], DeviceState]:
    """Read the run's device state before each task (charger as the spec measures: see module doc)."""
    on_battery = run.spec.power.enabled and run.spec.power.unplug

    def read() -> DeviceState:
        state = read_device_state(run.device)
        return replace(state, charging=False) if on_battery else state

    return read


def miro_tuner_factory(spec: ExperimentSpec, out_dir: Path, progress: bool = False,
                       keep: list[MiroTuner] | None = None,
                       on_event: Callable[[str], None] | None = None) -> Callable[[Any], MiroTuner]:
    """A ``run_experiment`` tuner factory; ``keep`` (a list) receives the tuner it builds."""
    from pipeline.profiling_session import DeviceProfiler

    def build(run: Any) -> MiroTuner:
        folder = Path(out_dir) / run.run_id
        tuner = MiroTuner(spec, DeviceProfiler(run, folder / "sessions", progress=progress),
                          state_reader=state_reader_for(run), results_dir=folder, on_event=on_event)
        if keep is not None:
            keep.append(tuner)
        return tuner

    return build


def record_run_totals(tuner: MiroTuner, results_dir: Path) -> None:
    """Training energy/time from summary.json + the tuner's profiling = the whole run."""
    summary = json.loads((Path(results_dir) / "summary.json").read_text())
    train_e = summary.get("energy_j")
    train_s = sum(float(t.get("seconds") or 0.0) for t in summary.get("tasks", []))
    tuner.set_run_totals(None if train_e is None else train_e + tuner.profiling_energy_j, train_s + tuner.profiling_seconds)


def run_spec_with_miro(spec: ExperimentSpec, device: Any, out: Path | None = None, *, runtime: str | None = None,
                       progress: bool = True, journal: Any = None) -> tuple[Path, MiroTuner]:
    """Run ``spec`` on ``device`` with Miro choosing each task's replay; returns the results folder and tuner.
    ``journal``: passed to ``run_experiment`` (a pool run names its folder and follows its tasks)."""
    from pipeline.experiment import run_experiment

    out = Path(out) if out is not None else Path("results")
    keep: list[MiroTuner] = []
    console = Console(quiet=not progress)
    tell = (lambda msg: console.print(f"[cyan]miro[/] {msg}", highlight=False))
    folder = run_experiment(spec, device, out, tuner=miro_tuner_factory(spec, out, progress=False, keep=keep, on_event=tell),
                            runtime=runtime, progress=progress, journal=journal)
    tuner = keep[0]
    record_run_totals(tuner, folder)
    return folder, tuner


def run_with_miro(spec_path: str | Path, out: Path | None = None, *, device: Any = None,
                  overrides: dict[str, Any] | None = None, vphone: bool = False, compare: bool = False) -> Path:
    """Load ``spec_path`` (with dotted ``overrides``) and run it with Miro on ``device`` (or the spec's;
    ``vphone``: a virtual phone started for this run); ``compare``: the static runs of Miro's grid first
    (``pipeline.miro.compare``). Miro's results folder."""
    from pipeline.miro.compare import run_comparison
    from pipeline.recipe import run_spec

    spec = load_spec(spec_path, overrides)
    spec = replace(spec, miro=replace(spec.miro, enabled=True))
    out = Path(out) if out is not None else Path("results")

    def go(dev: Any) -> Path:
        return run_comparison(spec, dev, out) if compare else run_spec(spec, dev, out)

    if device is not None:
        return go(device)
    from android_harness.device_choice import device_for

    with device_for(None if vphone else spec.device.serial or None, vphone or spec.device.vphone,
                    spec.device.vphone_preset) as dev:
        return go(dev)
