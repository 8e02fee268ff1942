"""The figures of bench/miro.py from finished runs: energies per session, per run, and the comparison.

Every energy is ``pipeline.energy.measure_session`` on the pulled session folder, on the phone's ODPM
rails (the vphone's are simulated from its CPU-time power model): a task run's energy is the sum of
its task sessions, Miro's adds its profiling sessions. CE = final class-IL (%) / energy (J).
The oracle is Miro's own rule in hindsight (``hindsight_choice``: the cutline on the FINAL accuracy
of every static configuration, then the best CE); "best CE" is the unconstrained maximum, shown too.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from statistics import mean
from typing import Any


@dataclass
class RunFigures:
    """One run (a static configuration or Miro) of one data set and seed."""

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


def task_sessions(folder: Path, profile: Any, batch: int) -> tuple[float, list[float], int, set[str]]:
    """(energy J, device windows, precise count, sources) of a run's task sessions, from summary.json's list."""
    from pipeline.profiling_session import measure_phase

    summary = json.loads((folder / "summary.json").read_text())
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
    energy, windows, precise, sources = task_sessions(folder, profile, batch)
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


def proxy_choices(tuner: Any) -> list[str]:
    """The candidate keys the proxy-energy variant would choose from the SAME profiling runs (one
    rung of grid search: the same measurements, only the energy the scorer divides by differs)."""
    from dataclasses import replace

    from pipeline.miro.scorers import best_index

    out = []
    for d in tuner.decisions:
        if d.search is None:
            out.append(d.candidate.key)
            continue
        if d.search.kind != "grid":
            raise RuntimeError("proxy replay needs grid search (halving's rungs depend on the energy)")
        scoring = replace(d.policy.scoring, energy="proxy")
        out.append(d.search.final[best_index(d.search.final, scoring)].candidate.key)
    return out


@dataclass
class SeedComparison:
    """One data set and seed: every ratio the goals are about."""

    seed: int
    oracle: str
    best_ce: str
    vs_oracle: float
    acc_vs_oracle: float                 # Miro's final class-IL minus the oracle's, points
    vs_best_ce: float
    vs_default: float
    proxy_vs_oracle: float
    proxy_vs_default: float
    share: float
    proxy_share: float


def compare(seed: int, statics: dict[str, RunFigures], default_key: str, miro: RunFigures, proxy: RunFigures,
            scoring: Any) -> SeedComparison:
    from pipeline.miro.scorers import hindsight_choice

    keys = list(statics)
    oracle = keys[hindsight_choice([statics[k].accuracy for k in keys], [statics[k].energy_j for k in keys], scoring)]
    best = max(keys, key=lambda k: statics[k].ce)
    o, b, d = statics[oracle].ce, statics[best].ce, statics[default_key].ce
    return SeedComparison(seed, oracle, best, miro.ce / o, miro.accuracy - statics[oracle].accuracy, miro.ce / b, miro.ce / d, proxy.ce / o, proxy.ce / d,
                          miro.profiling_share, proxy.profiling_share)


def dataset_rows(name: str, statics: dict[int, dict[str, RunFigures]], default_key: str, miro: dict[int, RunFigures],
                 proxy: dict[int, RunFigures], comps: list[SeedComparison]) -> list[dict[str, Any]]:
    """Rows of one data set: means over seeds (per-seed values in the notes)."""
    def row(n, metric, value, unit, goal=""):
        return {"name": f"{name}: {n}", "metric": metric, "value": value, "unit": unit, "goal": goal}

    seeds = sorted(miro)
    rows = []
    for key in statics[seeds[0]]:
        tag = " (chosen in advance: the paper-style default)" if key == default_key else ""
        runs = [statics[s][key] for s in seeds]
        rows += [row(f"static {key}{tag}", "final_class_il", round(mean(r.accuracy for r in runs), 2), "%"),
                 row(f"static {key}{tag}", "energy_simulated", round(mean(r.energy_j for r in runs), 2), "J"),
                 row(f"static {key}{tag}", "cost_effectiveness_simulated", round(mean(r.ce for r in runs), 3), "%/J")]
    for label, runs in (("miro (measured energy, extrapolated)", miro), ("miro proxy-energy variant (EM+SB)", proxy)):
        rs = [runs[s] for s in seeds]
        rows += [row(label, "final_class_il", round(mean(r.accuracy for r in rs), 2), "%"),
                 row(label, "energy_total_simulated", round(mean(r.energy_j for r in rs), 2), "J"),
                 row(label, "energy_profiling_simulated", round(mean(r.profiling_energy_j for r in rs), 3), "J"),
                 row(label, "cost_effectiveness_simulated", round(mean(r.ce for r in rs), 3), "%/J")]
    m = lambda f: round(mean(f(c) for c in comps), 3)  # noqa: E731
    rows += [row("miro CE vs oracle (Miro's rule in hindsight)", "ratio, mean of 3 seeds", m(lambda c: c.vs_oracle), "x", ">= 0.9"),
             row("miro CE vs best static chosen in advance", "ratio, mean of 3 seeds", m(lambda c: c.vs_default), "x", ">= 1.3"),
             row("miro profiling share of energy", "share, mean of 3 seeds", m(lambda c: c.share), "of total", "<= 0.10"),
             row("miro final class-IL minus the oracle's", "points, mean of 3 seeds", m(lambda c: c.acc_vs_oracle), "points"),
             row("miro CE vs best CE in hindsight (no cutline)", "ratio, mean of 3 seeds", m(lambda c: c.vs_best_ce), "x"),
             row("proxy variant CE vs oracle", "ratio, mean of 3 seeds", m(lambda c: c.proxy_vs_oracle), "x", ">= 0.9"),
             row("proxy variant CE vs best static chosen in advance", "ratio, mean of 3 seeds", m(lambda c: c.proxy_vs_default), "x", ">= 1.3"),
             row("proxy variant profiling share of energy", "share, mean of 3 seeds", m(lambda c: c.proxy_share), "of total", "<= 0.10")]
    return rows


def goal_met(row: dict[str, Any]) -> str:
    """'yes'/'no' for rows with a '>= x' or '<= x' goal, '' otherwise."""
    goal, value = row["goal"], row["value"]
    if not goal or not isinstance(value, (int, float)):
        return ""
    op, bound = goal.split()
    return "yes" if (value >= float(bound) if op == ">=" else value <= float(bound)) else "no"


def markdown(command: str, env: str, rows: list[dict[str, Any]], notes: list[str]) -> str:
    lines = ["## Miro: online tuning vs static configurations vs the oracle (bench/miro.py)", "", f"`{command}`", "", env, "",
             "| figure | value | goal | met |", "|---|---|---|---|"]
    for r in rows:
        v = "-" if r["value"] is None else r["value"]
        lines.append(f"| {r['name']} {r['metric']} | {v} {r['unit']} | {r['goal']} | {goal_met(r)} |")
    lines += ["", *(f"- {n}" for n in notes), "",
              "Why an earlier run fell short of the oracle, and what changed (dated, not regenerated): bench/NOTES-2026-12.md"]
    return "\n".join(lines)
