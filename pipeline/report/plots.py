"""The report's figures, as PNG files (matplotlib, Agg backend: no display needed).

Each function draws one figure from ResultsData and returns the file name, or None when the data
for it is absent (the HTML then says so). Figures from a virtual phone say "simulated" in the title.
"""
from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg", force=False)
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from pipeline.report.results import ResultsData  # noqa: E402

PHASE_COLORS = {"training": "#4C72B0", "evaluation": "#55A868", "swapping": "#C44E52",
                "profiling": "#8172B2", "idle": "#CCB974"}
DPI = 100


def _title(ax, text: str, data: ResultsData) -> None:
    ax.set_title(text + (" — SIMULATED (virtual phone)" if data.simulated else ""), fontsize=10)


def _save(fig, out_dir: Path, name: str) -> str:
    fig.tight_layout()
    fig.savefig(out_dir / name, dpi=DPI)
    plt.close(fig)
    return name


def accuracy_heatmap(data: ResultsData, out_dir: Path) -> str | None:
    m = data.accuracy
    if m is None or m.size == 0:
        return None
    scale = data.acc_scale
    fig, ax = plt.subplots(figsize=(max(5.0, 1.6 + 0.8 * m.shape[1]), 1.0 + 0.7 * max(m.shape[0], 3)))
    im = ax.imshow(np.ma.masked_invalid(m), vmin=0, vmax=scale, cmap="viridis")
    for i in range(m.shape[0]):
        for j in range(m.shape[1]):
            if not np.isnan(m[i, j]):
                ax.text(j, i, f"{m[i, j]:.1f}" if scale > 1 else f"{m[i, j]:.2f}", ha="center", va="center",
                        color="white" if m[i, j] < 0.6 * scale else "black", fontsize=8)
    ax.set_xticks(range(m.shape[1]), [f"task {j + 1}" for j in range(m.shape[1])])
    ax.set_yticks(range(m.shape[0]), [f"after {i + 1}" for i in range(m.shape[0])])
    ax.set_xlabel("evaluated on")
    fig.colorbar(im, ax=ax, fraction=0.046, label="class-IL accuracy" + (" (%)" if scale > 1 else ""))
    _title(ax, "Accuracy matrix", data)
    return _save(fig, out_dir, "accuracy_matrix.png")


def accuracy_over_time(data: ResultsData, out_dir: Path) -> str | None:
    evals = data.evals()
    if not evals:
        return None
    t0 = min(float(s.events[0]["t"]) for s in data.sessions if s.events)
    fig, ax = plt.subplots(figsize=(7, 3.2))
    for task in sorted({int(e["task"]) for e in evals}):
        pts = [(float(e["t"]) - t0, float(e["class_il"])) for e in evals if int(e["task"]) == task]
        ax.plot(*zip(*pts), marker="o", label=f"task {task + 1}")
    ax.set_xlabel("time since first session start (s)")
    ax.set_ylabel("class-IL accuracy" + (" (%)" if data.acc_scale > 1 else ""))
    ax.set_ylim(0, data.acc_scale)
    ax.legend(fontsize=7, ncol=4)
    _title(ax, "Accuracy per task over time", data)
    return _save(fig, out_dir, "accuracy_over_time.png")


def power_over_time(data: ResultsData, out_dir: Path) -> str | None:
    traced = [s for s in data.sessions if s.trace is not None]
    if not traced:
        return None
    t0 = min(float(s.trace.t[0]) for s in traced)
    fig, ax = plt.subplots(figsize=(9, 3.4))
    seen: set[str] = set()
    for s in traced:
        for r in s.rows:
            if r.kind == "session":
                ax.axvspan(r.t0 - t0, r.t1 - t0, color="#999999", alpha=0.08, lw=0,
                           label="session" if "session" not in seen else None)
                seen.add("session")
            elif r.kind == "phase":
                label = r.phase if r.phase not in seen else None
                seen.add(r.phase or "")
                ax.axvspan(r.t0 - t0, r.t1 - t0, color=PHASE_COLORS.get(r.phase or "", "#999999"), alpha=0.18,
                           lw=0, label=label)
        tr = s.trace
        ax.plot(tr.t - t0, tr.power_w, color="black", lw=0.8)
    ok = np.concatenate([s.trace.power_w[~s.trace.charging] for s in traced])
    if len(ok):                             # scale to the measured samples; charging ones are clipped
        lo, hi = float(ok.min()), float(ok.max())
        pad = 0.1 * (hi - lo) + 0.05
        ax.set_ylim(min(lo - pad, 0.0), hi + pad)
    for s in traced:
        tr = s.trace
        if tr.charging.any():
            y = np.clip(tr.power_w[tr.charging], *ax.get_ylim())
            ax.scatter((tr.t - t0)[tr.charging], y, s=8, color="red", zorder=3,
                       label="charging (clipped)" if "charging" not in seen else None)
            seen.add("charging")
    if data.idle_w is not None:
        ax.axhline(data.idle_w, color="gray", ls="--", lw=0.8, label=f"idle {data.idle_w:.2f} W")
    ax.set_xlabel("device time since first sample (s)")
    ax.set_ylabel("battery power (W)")
    if seen or data.idle_w is not None:
        ax.legend(fontsize=7, ncol=6, loc="upper right")
    _title(ax, "Power over time, phases shaded", data)
    return _save(fig, out_dir, "power_over_time.png")


def energy_per_task(data: ResultsData, out_dir: Path) -> str | None:
    rows = [r for r in data.energy_rows if r.kind in ("phase", "estimate") and r.task is not None
            and r.energy_j is not None]
    if not rows:
        return None
    tasks = sorted({r.task for r in rows})
    phases = [p for p in PHASE_COLORS if any(r.phase == p for r in rows)]

    def joules(task: int, phase: str) -> float:
        """Swap estimates sit inside training/profiling: moved out of it, not counted twice."""
        e = sum(r.energy_j for r in rows if r.task == task and r.phase == phase)
        if phase in ("training", "profiling"):
            e -= sum(r.energy_j for r in rows if r.task == task and r.kind == "estimate"
                     and any(h.kind == "phase" and h.phase == phase and h.t0 <= r.t1 <= h.t1 + 1e-6 for h in rows))
        return e

    fig, ax = plt.subplots(figsize=(max(4, 0.9 * len(tasks) + 2), 3.2))
    bottom = np.zeros(len(tasks))
    for p in phases:
        vals = np.array([joules(t, p) for t in tasks])
        ax.bar([str(t + 1) for t in tasks], vals, bottom=bottom, color=PHASE_COLORS[p], label=p)
        bottom += vals
    ax.set_xlabel("task")
    ax.set_ylabel("energy (J)")
    ax.legend(fontsize=7)
    _title(ax, "Energy per task, by phase", data)
    return _save(fig, out_dir, "energy_per_task.png")


def accuracy_vs_energy(data: ResultsData, out_dir: Path, points: list[dict]) -> str | None:
    """``points``: {"label", "energy_j", "accuracy", "chosen", "kind"} from tables.run_points. Drawn only
    when Miro profiled candidates: the full run alone is one point, with nothing to compare it to."""
    pts = [p for p in points if p.get("energy_j") is not None and p.get("accuracy") is not None]
    if not any(p["kind"] == "candidate" for p in pts):
        return None
    fig, ax = plt.subplots(figsize=(6, 3.6))
    for kind, marker, color in (("candidate", "o", "#8172B2"), ("run", "*", "#C44E52")):
        sel = [p for p in pts if p["kind"] == kind]
        if sel:
            ax.scatter([p["energy_j"] for p in sel], [p["accuracy"] for p in sel], marker=marker, color=color,
                       s=40 if kind == "candidate" else 140, label="Miro candidate (profiling run)" if kind == "candidate"
                       else "full run", alpha=0.8)
    for p in pts:
        if p.get("chosen"):
            ax.scatter([p["energy_j"]], [p["accuracy"]], s=160, facecolors="none", edgecolors="black")
        if p.get("chosen") or p["kind"] == "run" or len(pts) <= 8:   # label the chosen ones; all when few
            ax.annotate(p["label"], (p["energy_j"], p["accuracy"]), fontsize=6, xytext=(3, 3), textcoords="offset points")
    ax.set_xlabel("energy (J), runner start to end")
    ax.set_ylabel("accuracy" + (" (%)" if data.acc_scale > 1 else ""))
    chosen = any(p.get("chosen") for p in pts)
    ax.legend(fontsize=7, title="circled: chosen by Miro" if chosen else None, title_fontsize=7)
    _title(ax, "Accuracy vs energy per configuration", data)
    return _save(fig, out_dir, "accuracy_vs_energy.png")
