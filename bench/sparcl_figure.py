"""bench/sparcl.py's goal figure: every SparCL run's paired class-IL delta against its FLOPs ratio.

One panel per resnet18_reduced setting (the goal setting, its 20-epoch and wider twins): a run is a
point at its means over seeds (both paired by seed against dense of its method, ``sparcl_report.paired``),
its bar the 95% t interval of the mean delta, each seed a faint dot; the goal regions (>= 4x within 1
point, >= 8x within 3 points) shaded. Drawn from ``bench/results/sparcl.json`` at the end of every run
and by ``--render``: a reader sees at a glance which runs clear which goal, and by how much noise.
"""
from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg", force=False)
import matplotlib.pyplot as plt  # noqa: E402

from sparcl_report import GOALS, half_width, method_of, paired, per_seed, sparsity_of  # noqa: E402

COLORS = {"er": "#4C72B0", "derpp": "#DD8452"}
MARKERS = {0.75: "o", 0.90: "s", 0.95: "^"}
FILE = "sparcl_goal.png"


def panels(runs: dict[str, dict[str, list[dict]]], settings: dict) -> list[str]:
    """The stored settings drawn: the resnet18_reduced ones, in the bench's order."""
    return [s for s in runs if settings[s]["model"]["kind"] == "resnet18_reduced"]


def label(name: str) -> str:
    """A run's short name on the plot: ``0.75`` for full SparCL, the part's name for an ablation run."""
    parts = name.split("-")
    return "-".join(parts[3:]) if name.startswith("ablation") else parts[2]


class Run:
    """One drawn run: its pairings per seed, their means, and the 95% t half-width of the mean delta."""

    def __init__(self, named: dict[str, list[dict]], name: str) -> None:
        self.name, self.seeds = name, len(named[name])
        self.points = per_seed(named, name)
        p = paired(named, name)
        self.ratio, self.delta = p["ratio"][0], p["delta"][0]
        self.err = half_width(p["delta"][1], self.seeds) if self.seeds > 1 else 0.0
        self.colour, self.marker = COLORS[method_of(name)], MARKERS.get(sparsity_of(name), "o")
        self.ablation = name.startswith("ablation")


def _runs(named: dict[str, list[dict]]) -> list[Run]:
    return [Run(named, n) for n in named if not n.startswith("dense") and not n.endswith("structured")]


def _scatter(ax, named: dict[str, list[dict]], title: str) -> None:
    """Delta against FLOPs ratio, log x, the goal regions shaded."""
    for (sparsity, (ratio, delta)), colour in zip(GOALS.items(), ("#55A868", "#8FCB9B")):
        ax.fill_between([ratio, 40], delta, 3, color=colour, alpha=0.18, lw=0)
        ax.text(ratio * 1.04, 1.55 - 0.45 * (sparsity > 0.8), f"goal {sparsity:.2f}", fontsize=7, color="#2D6A3E")
    ax.axhline(0, color="grey", lw=0.6)
    for r in _runs(named):
        ax.scatter(r.points["ratio"], r.points["delta"], s=8, color=r.colour, alpha=0.3, lw=0)
        ax.errorbar(r.ratio, r.delta, yerr=r.err, fmt=r.marker, color=r.colour, ms=4 if r.ablation else 6,
                    mfc="white" if r.ablation else r.colour, capsize=2, lw=0.8)
        if not r.ablation:
            ax.annotate(f"{label(r.name)} ({r.seeds})", (r.ratio, r.delta), xytext=(5, 2), textcoords="offset points",
                        fontsize=6, color=r.colour)
    ax.set_xscale("log", base=2)
    ax.set_xticks([1, 2, 4, 8, 16], labels=["1x", "2x", "4x", "8x", "16x"])
    ax.set_xlim(0.9, 24)
    ax.set_ylim(-6, 2)
    ax.set_title(title, fontsize=9)
    ax.set_xlabel("training FLOPs ratio vs dense (paired)", fontsize=8)
    ax.set_ylabel("class-IL delta, points (paired)", fontsize=8)
    ax.tick_params(labelsize=7)


def _forest(ax, named: dict[str, list[dict]], title: str) -> None:
    """One row per run, by FLOPs ratio: its delta's mean, 95% t interval and seeds, the goals' delta lines."""
    runs = sorted(_runs(named), key=lambda r: r.ratio)
    for y, r in enumerate(runs):
        ax.scatter(r.points["delta"], [y] * r.seeds, s=9, color=r.colour, alpha=0.35, lw=0)
        ax.errorbar(r.delta, y, xerr=r.err, fmt=r.marker, color=r.colour, ms=5, mfc="white" if r.ablation else r.colour,
                    capsize=2, lw=0.9)
    for sparsity, (ratio, delta) in GOALS.items():
        ax.axvline(delta, color="#2D6A3E", lw=0.8, ls="--")
        ax.text(delta, len(runs) - 0.4, f" goal {sparsity:.2f} (>= {ratio:g}x)", fontsize=7, color="#2D6A3E")
    ax.axvline(0, color="grey", lw=0.6)
    ax.set_yticks(range(len(runs)), labels=[f"{r.name} ({r.seeds}, {r.ratio:.2f}x)" for r in runs], fontsize=7)
    ax.set_ylim(-0.6, len(runs) + 0.2)
    ax.set_title(title, fontsize=9)
    ax.set_xlabel("class-IL delta vs dense, points (paired by seed)", fontsize=8)
    ax.tick_params(axis="x", labelsize=7)


def _title(settings: dict, setting: str) -> str:
    m = settings[setting]["model"]
    return f"{m['kind']} nf={m['width']} + BatchNorm, {settings[setting]['epochs']} epochs/task"


def draw(runs: dict[str, dict[str, list[dict]]], settings: dict, out_dir: Path) -> Path | None:
    """Write the figure to ``out_dir / FILE``: the settings' scatter panels, and the widest setting's runs
    row by row (the labels a scatter cannot fit). None, and no file, without a resnet18_reduced setting."""
    shown = panels(runs, settings)
    if not shown:
        return None
    widest = max(shown, key=lambda s: (settings[s]["model"]["width"], -settings[s]["epochs"]))
    rows = (len(shown) + 1) // 2
    fig = plt.figure(figsize=(17, 4.0 * max(rows, 2)))
    grid = fig.add_gridspec(max(rows, 2), 3, width_ratios=(1, 1, 1.25))
    for i, setting in enumerate(shown):
        _scatter(fig.add_subplot(grid[i // 2, i % 2]), runs[setting], _title(settings, setting))
    _forest(fig.add_subplot(grid[:, 2]), runs[widest], _title(settings, widest) + ": every run")
    handles = [plt.Line2D([], [], ls="", marker="o", color=c, label=m) for m, c in COLORS.items()]
    handles += [plt.Line2D([], [], ls="", marker=mk, color="black", label=f"SparCL {s:.2f}") for s, mk in MARKERS.items()]
    handles.append(plt.Line2D([], [], ls="", marker="o", mfc="white", color="black", label="ablation / control at 0.75"))
    fig.legend(handles=handles, loc="lower center", ncol=len(handles), fontsize=8, frameon=False)
    fig.suptitle("SparCL vs dense on Split Fashion-MNIST (bench/sparcl.py): mean over seeds (count in brackets), "
                 "bar = 95% t interval of the mean, faint dots = seeds", fontsize=10)
    fig.tight_layout(rect=(0, 0.03, 1, 0.97))
    out = out_dir / FILE
    tmp = out.with_name(out.name + ".tmp.png")
    fig.savefig(tmp, dpi=100)
    plt.close(fig)
    tmp.replace(out)
    return out
