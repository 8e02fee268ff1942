"""The report's data as CSV files (the same numbers the figures show), each with a ``simulated`` column."""
from __future__ import annotations

import csv
import os
from pathlib import Path
from typing import Any, Iterable

import numpy as np

from pipeline.energy import write_energy_csv
from pipeline.report.results import ResultsData


def _write(path: Path, header: list[str], rows: Iterable[Iterable[Any]]) -> str:
    tmp = path.with_name(f".{path.name}.tmp")
    with open(tmp, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(header)
        for r in rows:
            w.writerow(["" if v is None else v for v in r])
    os.replace(tmp, path)
    return path.name


def final_accuracy(data: ResultsData) -> float | None:
    """Mean class-IL accuracy over all tasks after the last one."""
    m = data.accuracy
    if m is None or m.size == 0 or np.isnan(m[-1]).all():
        return None
    return float(np.nanmean(m[-1]))


def run_energy_j(data: ResultsData) -> float | None:
    """Energy of the training sessions (Miro's profiling sessions are counted separately)."""
    vals = [r.energy_j for s in data.sessions if s.role == "training" for r in s.rows if r.kind == "session"]
    return float(sum(vals)) if vals and all(v is not None for v in vals) else None


def run_points(data: ResultsData) -> list[dict[str, Any]]:
    """Every configuration run: Miro's profiled candidates (miro.json) and the full run."""
    pts: list[dict[str, Any]] = []
    for task in (data.miro or {}).get("tasks", []):
        chosen = (task.get("chosen") or {}).get("key")
        for run in task.get("runs", []):
            key = (run.get("candidate") or {}).get("key", "?")
            pts.append({"kind": "candidate", "label": f"task {int(task.get('task', 0)) + 1} {key}", "task": task.get("task"),
                        "config": key, "energy_j": run.get("energy_j"), "accuracy": run.get("accuracy"),
                        "seconds": run.get("seconds"), "chosen": key == chosen, "simulated": data.simulated})
    acc, energy = final_accuracy(data), run_energy_j(data)
    if acc is not None or energy is not None:
        name = str(data.summary.get("name") or data.folder.name)
        pts.append({"kind": "run", "label": name, "task": None, "config": name, "energy_j": energy, "accuracy": acc,
                    "seconds": None, "chosen": False, "simulated": data.simulated})
    return pts


def write_tables(data: ResultsData, out_dir: Path, points: list[dict[str, Any]]) -> list[str]:
    sim = data.simulated
    files = [write_energy_csv(data.energy_rows, out_dir / "energy.csv").name]
    if data.accuracy is not None:
        m = data.accuracy
        files.append(_write(out_dir / "accuracy_matrix.csv", ["after_task"] + [f"task{j}" for j in range(m.shape[1])]
                            + ["simulated"], ([i] + [None if np.isnan(v) else round(float(v), 4) for v in row] + [sim]
                                              for i, row in enumerate(m))))
    files.append(_write(out_dir / "accuracy_over_time.csv", ["t", "after_task", "task", "class_il", "task_il", "simulated"],
                        ([e["t"], e.get("after_task"), e.get("task"), e.get("class_il"), e.get("task_il"), sim]
                         for e in data.evals())))
    files.append(_write(out_dir / "power.csv", ["session_id", "t", "power_w", "discharge_a", "voltage_v", "charging",
                                                "status", "simulated"],
                        ([s.session_id, f"{t:.6f}", round(float(p), 6), round(float(a), 6), round(float(v), 5), int(c),
                          st, sim] for s in data.sessions if s.trace is not None
                         for t, p, a, v, c, st in zip(s.trace.t, s.trace.power_w, s.trace.discharge_a, s.trace.voltage_v,
                                                      s.trace.charging, s.trace.status))))
    files.append(_write(out_dir / "runs.csv", ["kind", "label", "task", "config", "energy_j", "accuracy", "seconds",
                                               "chosen", "simulated"],
                        ([p[k] for k in ("kind", "label", "task", "config", "energy_j", "accuracy", "seconds", "chosen",
                                         "simulated")] for p in points)))
    files.append(_write(out_dir / "sessions.csv", ["session_id", "role", "samples", "duration_s", "achieved_rate_hz",
                                                   "charging_samples", "gauge_update_s", "cross_check", "warnings",
                                                   "simulated"],
                        ([s.session_id, s.role, len(s.trace) if s.trace else 0,
                          round(s.trace.duration_s, 3) if s.trace else None,
                          round(s.trace.achieved_rate_hz, 3) if s.trace else None,
                          s.trace.charging_samples if s.trace else None,
                          s.trace.gauge.update_s if s.trace and s.trace.gauge else None,
                          s.trace.cross_check().verdict if s.trace else None,
                          " | ".join(s.trace.warnings if s.trace else [s.trace_error or ""]), sim]
                         for s in data.sessions)))
    return files
