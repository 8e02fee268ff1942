"""bench/sparcl.py's figures as result rows, goal verdicts and its RESULTS.md section (no training here).

``runs`` is ``{setting: {run name: [per-seed figures, seeds ascending]}}`` as the bench stores it in
``bench/results/sparcl.json``; SparCL runs are compared with the dense run of the same method and
the SAME seed (paired deltas and FLOPs ratios), then averaged over seeds.
"""
from __future__ import annotations

NOTES_FILE = "bench/NOTES-2026-12.md"
GOALS = {0.75: (4.0, -1.0), 0.90: (8.0, -3.0)}       # unstructured SparCL: (min FLOPs ratio, min class-IL delta)


def mean_sd(values: list[float]) -> tuple[float, float]:
    mean = sum(values) / len(values)
    sd = (sum((v - mean) ** 2 for v in values) / (len(values) - 1)) ** 0.5 if len(values) > 1 else 0.0
    return mean, sd


def half_width(sd: float, n: int) -> float:
    """Half the two-sided 95% t interval of a mean over ``n`` >= 2 seeds: ``t_{0.975, n-1}`` x SE."""
    from scipy.stats import t           # scikit-learn's dependency

    return float(t.ppf(0.975, n - 1)) * sd / n ** 0.5


def conclusive(mean: float, sd: float, n: int, goal: float) -> tuple[float, bool] | None:
    """Standard error of a mean over ``n`` seeds and whether the goal is decided by it: the two-sided 95% t
    interval of the mean lies wholly on one side of ``goal``. None at one seed."""
    if n < 2:
        return None
    return sd / n ** 0.5, bool(abs(mean - goal) > half_width(sd, n))


def method_of(name: str) -> str:
    return name.split("-")[1]


def sparsity_of(name: str) -> float | None:
    return None if name.startswith("dense") else float(name.split("-")[2])


def goal_of(name: str) -> tuple[float, float] | None:
    return GOALS.get(sparsity_of(name)) if name.startswith("sparcl") and not name.endswith("structured") else None


def per_seed(named: dict[str, list[dict]], name: str) -> dict[str, list[float]]:
    """Each seed's class-IL / task-IL delta and FLOPs ratio against the dense run of its method and seed."""
    base = {r["seed"]: r for r in named[f"dense-{method_of(name)}"]}
    runs = named[name]
    return {"delta": [r["class_il"] - base[r["seed"]]["class_il"] for r in runs],
            "task_delta": [r["task_il"] - base[r["seed"]]["task_il"] for r in runs],
            "ratio": [base[r["seed"]]["flops"] / r["flops"] for r in runs]}


def paired(named: dict[str, list[dict]], name: str) -> dict[str, tuple[float, float]]:
    """Mean and sd over seeds of the run's figures and, for a non-dense run, of its ``per_seed`` pairings."""
    runs = named[name]
    out = {k: mean_sd([r[k] for r in runs]) for k in ("class_il", "task_il", "flops", "wall_s", "steps")}
    if "step_ratio" in runs[0]:
        out["step_ratio"] = mean_sd([r["step_ratio"] for r in runs])
    if not name.startswith("dense"):
        out.update({k: mean_sd(v) for k, v in per_seed(named, name).items()})
    return out


def _row(full: str, metric: str, value: float, unit: str, n: int, sd: float | None = None, goal: str | None = None,
         met: bool | None = None, decided: tuple[float, bool] | None = None) -> dict:
    row = {"name": full, "metric": metric, "value": value, "unit": unit, "goal": goal, "seeds": n}
    if sd is not None and n > 1:
        row["sd"] = round(sd, 2)
    if met is not None:
        row["met"] = met
    if decided is not None:
        row["se"], row["conclusive"] = round(decided[0], 2), decided[1]
    return row


def rows_for(setting: str, named: dict[str, list[dict]]) -> list[dict]:
    rows = []
    for name, runs in named.items():
        p, n, full = paired(named, name), len(runs), f"{setting}/{name}"
        rows += [_row(full, "class_il", round(p["class_il"][0], 2), "%", n, p["class_il"][1]),
                 _row(full, "task_il", round(p["task_il"][0], 2), "%", n, p["task_il"][1]),
                 _row(full, "train_flops", p["flops"][0], "FLOP", n),
                 _row(full, "wall_s", round(p["wall_s"][0], 2), "s", n, p["wall_s"][1])]
        if "step_ratio" in p:
            rows.append(_row(full, "sliced_step_speed_ratio_vs_dense_model", round(p["step_ratio"][0], 2), "x", n))
        if name.startswith("dense"):
            continue
        goal, base = goal_of(name), f"dense_{method_of(name)}"
        rows += [
            _row(full, f"train_flops_ratio_vs_{base}", round(p["ratio"][0], 2), "x", n, p["ratio"][1],
                 f">= {goal[0]:g}" if goal else None, p["ratio"][0] >= goal[0] if goal else None),
            _row(full, f"class_il_delta_vs_{base}", round(p["delta"][0], 2), "points", n, p["delta"][1],
                 f">= {goal[1]:g}" if goal else None, p["delta"][0] >= goal[1] if goal else None,
                 conclusive(*p["delta"], n, goal[1]) if goal else None),
            _row(full, f"task_il_delta_vs_{base}", round(p["task_delta"][0], 2), "points", n, p["task_delta"][1]),
        ]
    return rows


def _pm(v: tuple[float, float], n: int, fmt: str = "{:.1f}", sd_fmt: str = "{:.1f}") -> str:
    return fmt.format(v[0]) + (f" ± {sd_fmt.format(v[1])}" if n > 1 else "")


def verdicts(setting: str, named: dict[str, list[dict]]) -> list[str]:
    lines = []
    for name in named:
        goal = goal_of(name)
        if goal is None:
            continue
        p, n = paired(named, name), len(named[name])
        met = p["ratio"][0] >= goal[0] and p["delta"][0] >= goal[1]
        decided = conclusive(*p["delta"], n, goal[1])
        se = f", SE {decided[0]:.1f}" if decided else ""
        how = "" if decided is None else " (conclusive: the 95% t interval of the mean is clear of the goal)" if decided[1] \
            else " (not conclusive: the 95% t interval of the mean spans the goal)"
        lines.append(f"- Goal {name} ({setting}): class-IL within {-goal[1]:g} point(s) of dense at >= {goal[0]:g}x fewer "
                     f"training FLOPs -> {_pm(p['delta'], n, '{:+.1f}')}{se} points at {p['ratio'][0]:.2f}x "
                     f"({n} seed{'s' if n > 1 else ''}): **{'met' if met else 'NOT met'}**{how}")
    return lines


def markdown(measured: dict[str, dict[str, list[str]]], runs: dict[str, dict[str, list[dict]]], settings: dict,
             figure: str | None = None) -> str:
    """The section; ``measured[setting]`` = the commands and environments of the invocations that ran it, in order;
    ``figure`` = the goal figure's path relative to RESULTS.md, if one was drawn."""
    lines = ["## SparCL (`bench/sparcl.py`)", ""]
    if figure:
        lines += [f"![SparCL runs: paired class-IL delta against training-FLOPs ratio, and every run of the widest "
                  f"setting]({figure})", ""]
    for setting, named in runs.items():
        cmds, envs = measured[setting]["command"], measured[setting]["environment"]
        lines += [f"### {settings[setting]['title']}", ""]
        for i, (cmd, env) in enumerate(zip(cmds, envs)):
            lines += [f"{'Then' if i else 'Command'}: `{cmd}`  ", f"Environment: {env}" + ("  " if i + 1 < len(cmds) else "")]
        lines += ["",
                  "| run | seeds | class-IL % | task-IL % | train GFLOP | FLOPs ratio vs dense | class-IL delta (paired) | "
                  "task-IL delta | steps | wall s | sliced step speed-up |",
                  "|---|---|---|---|---|---|---|---|---|---|---|"]
        for name in named:
            p, n = paired(named, name), len(named[name])
            dense = name.startswith("dense")
            lines.append(" | ".join([
                f"| {name}", str(n), _pm(p["class_il"], n), _pm(p["task_il"], n), f"{p['flops'][0] / 1e9:.2f}",
                "1.00x" if dense else f"{p['ratio'][0]:.2f}x", "" if dense else _pm(p["delta"], n, "{:+.1f}", "{:.1f}"),
                "" if dense else _pm(p["task_delta"], n, "{:+.1f}", "{:.1f}"), f"{p['steps'][0]:.0f}", f"{p['wall_s'][0]:.1f}",
                f"{p['step_ratio'][0]:.2f}x |" if "step_ratio" in p else "|"]))
        lines += [""] + verdicts(setting, named) + [""]
    lines += [f"How these runs were made, and the reading behind the verdicts above (dated, not regenerated): {NOTES_FILE}", ""]
    return "\n".join(lines)
