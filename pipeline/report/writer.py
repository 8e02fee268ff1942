"""``write_report(results_dir)``: figures, CSV tables, trace.json and report/index.html of one run."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from android_harness.device.fileio import write_text_atomic
from pipeline.energy import write_energy_csv
from pipeline.report import plots
from pipeline.report.header import run_header
from pipeline.report.html import render_html
from pipeline.report.results import ResultsData, load_results
from pipeline.report.tables import (
    final_accuracy,
    run_energy_j,
    run_points,
    write_tables,
)
from pipeline.report.trace_json import write_trace_json


@dataclass(frozen=True)
class ReportFiles:
    html: Path
    trace_json: Path | None   # None when the timeline would not load in a trace viewer (the page says why)
    folder: Path
    figures: dict[str, str | None]
    tables: list[str]
    simulated: bool


def _headline(data: ResultsData) -> dict[str, Any]:
    sim = " (simulated)" if data.simulated else ""
    acc, energy = final_accuracy(data), run_energy_j(data)
    rows = data.energy_rows
    samples = sum(r.train_samples for r in rows if r.kind == "session")
    tasks = len({r.task for s in data.sessions if s.role == "training" for r in s.rows if r.kind == "task"})
    out: dict[str, Any] = {
        "sessions": len(data.sessions),
        "final mean class-IL accuracy": "–" if acc is None else
            (f"{acc:.2f} %" if data.acc_scale > 1 else f"{acc:.4f}") + f"  (from {data.accuracy_source})",
        f"energy of the training sessions{sim}": "–" if energy is None else f"{energy:.3f} J",
        f"energy per training task{sim}": "–" if not (energy and tasks) else f"{energy / tasks:.3f} J",
        f"energy per training sample{sim}": "–" if not (energy and samples) else f"{energy / samples * 1000:.3f} mJ",
        f"idle baseline{sim}": "–" if data.idle_w is None else f"{data.idle_w:.3f} W ({data.idle_note})",
        "energy sources": ", ".join(sorted({r.source for r in rows if r.kind == "session" and r.source})) or "–",
        f"program load (loading phases){sim}": f"{sum(r.energy_j or 0.0 for r in rows if r.phase == 'loading'):.3f} J",
        "charging samples": sum(s.trace.charging_samples for s in data.sessions if s.trace is not None),
    }
    overhead = (data.miro or {}).get("overhead") or {}
    if overhead:
        out[f"Miro profiling{sim}"] = f"{overhead.get('profiling_energy_j', 0.0):.3f} J, " \
                                      f"{overhead.get('profiling_seconds', 0.0):.1f} s"
    return out


def not_drawn(data: ResultsData) -> dict[str, str]:
    """Figures of parts that did not run in this results folder, and why (said once, not as missing data)."""
    out: dict[str, str] = {}
    if not any(t.get("runs") for t in (data.miro or {}).get("tasks", [])):
        out["accuracy_vs_energy"] = "Miro was off (miro.enabled = false): no candidate configurations to compare" \
            if not (data.spec.get("miro") or {}).get("enabled") else "Miro profiled no candidates"
    if (data.spec.get("power") or {}).get("enabled") is False:
        for key in ("power_over_time", "energy_per_task"):
            out[key] = "power was not sampled (power.enabled = false)"
    return out


def write_report(results_dir: str | Path, allow_charging: bool | None = None) -> ReportFiles:
    """Write ``report/`` (index.html, PNG figures, CSV tables) and ``trace.json`` into ``results_dir``.
    Charging samples make their intervals' energy blank unless ``allow_charging`` (None: the run's own
    ``power.allow_charging``, so the page shows the energy of the run's table and summary.json)."""
    data = load_results(results_dir, allow_charging=allow_charging)
    out = data.folder / "report"
    out.mkdir(exist_ok=True)
    points = run_points(data)
    figures = {
        "accuracy_matrix": plots.accuracy_heatmap(data, out),
        "accuracy_over_time": plots.accuracy_over_time(data, out),
        "power_over_time": plots.power_over_time(data, out),
        "energy_per_task": plots.energy_per_task(data, out),
        "accuracy_vs_energy": plots.accuracy_vs_energy(data, out, points),
    }
    tables = write_tables(data, out, points)
    write_energy_csv(data.energy_rows, data.folder / "energy.csv")     # the results folder's own (contracts.md)
    try:
        trace = write_trace_json(data, data.folder / "trace.json")
    except ValueError as exc:   # a timeline the trace viewers would refuse: the page says so instead of failing
        trace = None
        data.problems.append(f"trace.json not written: {exc}")
    page = render_html(data, figures, tables, _headline(data), "../trace.json" if trace else "", run_header(data),
                       {k: why for k, why in not_drawn(data).items() if figures.get(k) is None})
    html_path = out / "index.html"
    write_text_atomic(html_path, page)
    return ReportFiles(html_path, trace, out, figures, tables, data.simulated)
