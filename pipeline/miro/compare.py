"""Miro against the configurations it chooses from, for any spec (``edgecl tune --compare``): Miro runs the
experiment, then every candidate of the spec's ``[miro]`` grid, and the static default (``[replay]``, fixed
before any result), runs it statically on the same phone. Each run's energy is ``measure_session`` on its pulled task
sessions (Miro's adds its profiling sessions); CE = final class-IL (%) / energy (J). The oracle is Miro's
own rule in hindsight (``hindsight_choice``: the cutline on every static run's FINAL accuracy, then the
best CE); "best CE" is the unconstrained maximum. Written to ``compare.json`` in Miro's results folder,
which the report shows."""
from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

COMPARE_JSON = "compare.json"


@dataclass
class RunFigures:
    """One run (a static configuration or Miro) as the comparison counts it."""

    accuracy: float
    energy_j: float
    task_energy_j: float
    profiling_energy_j: float = 0.0
    windows: list[float] = field(default_factory=list)        # task sessions' device seconds
    precise: int = 0                                           # task sessions with a precise figure
    sources: set[str] = field(default_factory=set)
    profiling_sessions: int = 0
    profiling_precise: int = 0
    choices: list[str] = field(default_factory=list)

    @property
    def ce(self) -> float:
        return self.accuracy / self.energy_j if self.energy_j > 0 else 0.0

    @property
    def profiling_share(self) -> float:
        return self.profiling_energy_j / self.energy_j if self.energy_j > 0 else 0.0


def task_sessions(folder: Path, summary: dict[str, Any], profile: Any,
                  batch: int) -> tuple[float, list[float], int, set[str]]:
    """(energy J, device windows, precise count, sources) of a run's task sessions, from its summary.json's list."""
    from pipeline.profiling_session import measure_phase

    energy, windows, precise, sources = 0.0, [], 0, set()
    for t in summary["tasks"]:
        sf = folder / "sessions" / t["session_id"]
        fig = measure_phase(sf, profile, "training", batch)
        if fig.session_j is None:
            raise RuntimeError(f"{sf}: no measured energy ({fig.note})")
        r = json.loads((sf / "result.json").read_text())
        energy += fig.session_j
        windows.append(float(r["t_end"]) - float(r["t_start"]))
        precise += int(fig.precise)
        sources.add(fig.source)
    return energy, windows, precise, sources


def run_figures(folder: Path, profile: Any, batch: int, tuner: Any = None) -> RunFigures:
    """A run's figures; ``tuner`` (Miro's) adds its profiling sessions' measured energy."""
    summary = json.loads((folder / "summary.json").read_text())
    energy, windows, precise, sources = task_sessions(folder, summary, profile, batch)
    fig = RunFigures(float(summary["metrics"]["class_il"]), energy, energy, windows=windows, precise=precise, sources=sources)
    if tuner is not None:
        runs = [m for d in tuner.decisions if d.search is not None for m in d.search.runs]
        ckpts = [d.checkpoint for d in tuner.decisions if d.checkpoint is not None]
        if any(m.energy_j is None for m in runs) or any(c.energy_j is None for c in ckpts):
            raise RuntimeError(f"{folder}: a profiling session has no measured energy")
        fig.profiling_energy_j = sum(m.energy_j for m in runs) + sum(c.energy_j for c in ckpts)
        fig.profiling_sessions = len(runs) + len(ckpts)
        fig.profiling_precise = sum(bool(m.extra.get("energy_precise")) for m in runs) + sum(c.precise for c in ckpts)
        fig.energy_j += fig.profiling_energy_j
        fig.choices = [f"t{d.task + 1}:{d.config.replay.em_size}/{d.config.replay.sb_size}" for d in tuner.decisions]
    return fig


@dataclass
class Comparison:
    """Miro's run against the static runs: which static is the oracle, and every ratio."""

    oracle: str
    best_ce: str
    default: str
    vs_oracle: float              # Miro's CE / the oracle's
    acc_vs_oracle: float          # Miro's final class-IL minus the oracle's, points
    vs_best_ce: float
    vs_default: float             # Miro's CE / the static default's (chosen in advance)
    share: float                  # Miro's profiling share of its run's energy


def compare_to_statics(statics: dict[str, RunFigures], default_key: str, miro: RunFigures, scoring: Any) -> Comparison:
    """``scoring``: Miro's ``ScoringSpec`` (its cutline; ``eval_samples`` of the final evaluation)."""
    from pipeline.miro.scorers import hindsight_choice

    keys = list(statics)
    oracle = keys[hindsight_choice([statics[k].accuracy for k in keys], [statics[k].energy_j for k in keys], scoring)]
    best = max(keys, key=lambda k: statics[k].ce)
    o, b, d = statics[oracle].ce, statics[best].ce, statics[default_key].ce
    return Comparison(oracle, best, default_key, miro.ce / o, miro.accuracy - statics[oracle].accuracy, miro.ce / b,
                      miro.ce / d, miro.profiling_share)


def static_grid(spec: Any) -> tuple[list[Any], Any]:
    """(every configuration the comparison runs statically, the ``[replay]`` default among them): the spec's
    Miro grid, with the default added when the grid lacks it."""
    from pipeline.miro.candidates import Candidate, build_candidates

    grid = build_candidates(spec.miro)
    r = spec.replay
    default = Candidate(r.em_size, r.sb_size, r.swap_ratio, r.swap_period)
    if default not in grid:
        grid.append(default)
    return grid, default


def static_spec(spec: Any, candidate: Any, name: str) -> Any:
    """``spec`` run statically at ``candidate`` (the same replay every task, Miro off), named ``name``."""
    from pipeline.task_config import TaskConfig

    return replace(spec, name=name, replay=candidate.to_task(TaskConfig.from_spec(spec)).replay,
                   miro=replace(spec.miro, enabled=False))


def roles(comparison: dict[str, Any]) -> dict[str, list[str]]:
    """Each static run's roles in a comparison (``asdict(Comparison)``): oracle, best CE, the default."""
    out: dict[str, list[str]] = {}
    for key, role in ((comparison["oracle"], "oracle"), (comparison["best_ce"], "best CE"),
                      (comparison["default"], "[replay] default")):
        out.setdefault(key, []).append(role)
    return out


def _figures_json(fig: RunFigures, folder: Path) -> dict[str, Any]:
    return {"folder": str(folder), "class_il": fig.accuracy, "energy_j": fig.energy_j, "ce": fig.ce,
            "profiling_energy_j": fig.profiling_energy_j, "precise_sessions": fig.precise, "sessions": len(fig.windows),
            "choices": fig.choices}


def run_comparison(spec: Any, device: Any, out: Path, progress: bool = True) -> Path:
    """Miro's run of ``spec``, then every static configuration of its Miro grid (and its ``[replay]``
    default); ``compare.json`` written into Miro's results folder, which is returned."""
    from rich.console import Console

    from android_harness.session import SessionDriver
    from pipeline.device_run import prepare_device_run
    from pipeline.errors import ConfigError
    from pipeline.miro.run import run_spec_with_miro
    from pipeline.recipe import run_spec

    if spec.miro.start_task > spec.data.tasks:
        raise ConfigError(f"miro.start_task = {spec.miro.start_task}: after the last of the {spec.data.tasks} tasks, "
                          "so Miro would choose nothing to compare; lower it")
    console = Console(quiet=not progress)
    grid, default = static_grid(spec)
    batch, statics, folders = spec.train.batch_size, {}, {}
    # the phone's persistent runner started first, so no run is billed its start; Miro runs first, so what a
    # first session still pays once (the runner's first load of this program) is Miro's, not a static's
    run = prepare_device_run(spec, device, f"{spec.name}-compare", progress=progress)
    SessionDriver(device, served=True, runner=run.runner).start_server()
    console.print("[cyan]compare[/] Miro")
    folder, tuner = run_spec_with_miro(replace(spec, miro=replace(spec.miro, enabled=True)), device, out, progress=progress)
    miro = run_figures(folder, device.profile, batch, tuner)
    for i, c in enumerate(grid, 1):
        console.print(f"[cyan]compare[/] static {i} of {len(grid)}: {c.key}" + (" (the \\[replay] default)" if c == default else ""))
        folders[c.key] = run_spec(static_spec(spec, c, f"{spec.name}-static-{c.key}"), device, out, progress=progress)
        statics[c.key] = run_figures(folders[c.key], device.profile, batch)
    scoring = replace(tuner.scoring, eval_samples=tuner.decisions[-1].policy.scoring.eval_samples)
    comp = compare_to_statics(statics, default.key, miro, scoring)
    (folder / COMPARE_JSON).write_text(json.dumps(
        {"comparison": asdict(comp), "miro": _figures_json(miro, folder),
         "statics": {k: _figures_json(statics[k], folders[k]) for k in statics}, "simulated": device.profile.simulated},
        indent=1))
    return folder
