"""The figures of bench/miro.py from finished runs: per run and per seed (``pipeline.miro.compare``, the
comparison ``edgecl tune --compare`` writes, with the proxy-energy variant beside Miro), and the rows.

Every energy is ``pipeline.energy.measure_session`` on the pulled session folder, on the phone's ODPM
rails (the vphone's are simulated from its CPU-time power model).
"""
from __future__ import annotations

from dataclasses import dataclass
from statistics import mean
from typing import Any

from pipeline.miro.compare import RunFigures, compare_to_statics


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
    m, p = compare_to_statics(statics, default_key, miro, scoring), compare_to_statics(statics, default_key, proxy, scoring)
    return SeedComparison(seed, m.oracle, m.best_ce, m.vs_oracle, m.acc_vs_oracle, m.vs_best_ce, m.vs_default,
                          p.vs_oracle, p.vs_default, m.share, p.share)


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
