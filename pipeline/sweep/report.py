"""The sweep's combined report: accuracy and energy per configuration, mean ± sd over seeds, per
device model -- ``report.md`` and ``report.csv`` beside ``sweep.json``.

Energy is compared only within one device model and fuel gauge (counters differ in
units, refresh and accuracy between phones): each row is one (configuration, model, gauge), and the
report says so; a run that moved between models counts for accuracy only. Where a configuration ran on
several models, one more row pools its accuracy over all of them (energy is not pooled).
"""
from __future__ import annotations

import csv
import io
import math
import statistics
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

from rich.table import Table

from android_harness.device.fileio import write_text_atomic
from pipeline.sweep.index import DONE, SweepIndex

ALL_MODELS = "all models (accuracy only)"
ENERGY_RULE = ("Energy is compared within one device model and fuel gauge only; rows of different models are "
               "not comparable (different gauges, units and refresh periods).")


@dataclass(frozen=True)
class ReportRow:
    config: str
    model: str
    gauge: str
    runs: int
    seeds: list[int]
    class_il: tuple[float, float | None]          # mean, sd (None below 2 runs)
    task_il: tuple[float, float | None]
    energy_j: tuple[float, float | None] | None   # None: no comparable energy in this row
    energy_runs: int
    idle_w: tuple[float, float | None] | None
    seconds: float


def _mean_sd(values: list[float]) -> tuple[float, float | None]:
    return statistics.fmean(values), statistics.stdev(values) if len(values) > 1 else None


def report_rows(index: SweepIndex) -> list[ReportRow]:
    groups: dict[tuple[str, str, str], list] = defaultdict(list)
    for rec in index.runs:
        if rec.state == DONE and rec.result is not None:
            r = rec.result
            groups[(rec.config, r["model"], r["gauge"] or "mixed")].append((rec, r))
    rows = []
    for (config, model, gauge), members in groups.items():
        energies = [r["energy_j"] for _, r in members if r["energy_j"] is not None]
        idles = [r["idle_w"] for _, r in members if r.get("idle_w") is not None]
        rows.append(ReportRow(config, model, gauge, len(members), sorted(rec.seed for rec, _ in members),
                              _mean_sd([r["class_il"] for _, r in members]), _mean_sd([r["task_il"] for _, r in members]),
                              _mean_sd(energies) if energies else None, len(energies),
                              _mean_sd(idles) if idles else None, statistics.fmean(r["seconds"] for _, r in members)))
    by_config: dict[str, list] = defaultdict(list)
    for (config, _model, _gauge), members in groups.items():
        by_config[config] += members
    for config, members in by_config.items():
        if len({(r["model"], r["gauge"]) for _, r in members}) > 1:   # accuracy does not depend on the gauge
            rows.append(ReportRow(config, ALL_MODELS, "", len(members), sorted(rec.seed for rec, _ in members),
                                  _mean_sd([r["class_il"] for _, r in members]), _mean_sd([r["task_il"] for _, r in members]),
                                  None, 0, None, statistics.fmean(r["seconds"] for _, r in members)))
    order = {rec.config: i for i, rec in enumerate(index.runs)}
    return sorted(rows, key=lambda r: (order[r.config], r.model == ALL_MODELS, r.model, r.gauge))


def _fmt(pair: tuple[float, float | None] | None, digits: int) -> str:
    if pair is None or math.isnan(pair[0]):
        return "-"
    mean, sd = pair
    return f"{mean:.{digits}f}" + (f" ± {sd:.{digits}f}" if sd is not None else "")


COLUMNS = ("configuration", "device model", "runs", "seeds", "class-IL %", "task-IL %", "energy J", "idle W", "seconds")


def _cells(row: ReportRow) -> list[str]:
    energy = _fmt(row.energy_j, 3) + (f" ({row.energy_runs} of {row.runs})" if row.energy_j and row.energy_runs < row.runs else "")
    return [row.config, row.model, str(row.runs), ",".join(map(str, row.seeds)), _fmt(row.class_il, 2), _fmt(row.task_il, 2),
            energy, _fmt(row.idle_w, 3), f"{row.seconds:.1f}"]


def report_table(index: SweepIndex) -> Table:
    sim = any(r.result and r.result.get("simulated") for r in index.runs)
    table = Table(title=f"sweep {index.name}: mean ± sd over seeds" + (" (simulated devices)" if sim else ""),
                  caption=ENERGY_RULE, title_justify="left", caption_justify="left")
    for col in COLUMNS:
        table.add_column(col, justify="left" if col in ("configuration", "device model", "seeds") else "right")
    for row in report_rows(index):
        table.add_row(*_cells(row))
    return table


def write_report(index: SweepIndex) -> tuple[Path, Path]:
    """``report.md`` (the table, the energy rule, failed runs) and ``report.csv`` (one row per group)."""
    rows = report_rows(index)
    c = index.counts()
    sim = any(r.result and r.result.get("simulated") for r in index.runs)
    lines = [f"# Sweep {index.name}", "",
             f"{c['done']} of {len(index.runs)} runs done, {c['failed']} failed, {c['pending'] + c['running']} not finished"
             + (" -- all on simulated devices (virtual phones)" if sim else "") + ".", "",
             f"Spec `{index.spec_path}`; grid {index.grid}. Mean ± sd over seeds.", "", ENERGY_RULE, "",
             "| " + " | ".join(COLUMNS) + " |", "|" + "---|" * len(COLUMNS)]
    lines += ["| " + " | ".join(_cells(r)) + " |" for r in rows]
    failed = [r for r in index.runs if r.state != DONE]
    if failed:
        lines += ["", "## Runs without results", ""]
        lines += [f"- {r.name} ({r.state}): {r.error or (r.attempts[-1].note if r.attempts else 'not started')}" for r in failed]
    md = index.folder / "report.md"
    write_text_atomic(md, "\n".join(lines) + "\n")
    buf = io.StringIO()
    w = csv.writer(buf)
    w.writerow(["configuration", "device_model", "gauge", "runs", "seeds", "class_il_mean", "class_il_sd", "task_il_mean",
                "task_il_sd", "energy_j_mean", "energy_j_sd", "energy_runs", "idle_w_mean", "seconds_mean", "simulated"])
    for r in rows:
        e = r.energy_j or (None, None)
        w.writerow([r.config, r.model, r.gauge, r.runs, " ".join(map(str, r.seeds)), r.class_il[0], r.class_il[1], r.task_il[0],
                    r.task_il[1], e[0], e[1], r.energy_runs, r.idle_w[0] if r.idle_w else None, round(r.seconds, 3), sim])
    path_csv = index.folder / "report.csv"
    write_text_atomic(path_csv, buf.getvalue())
    return md, path_csv
