"""bench/sparcl.py's figures as result rows, goal verdicts and its RESULTS.md section (no training here).

``runs`` is ``{setting: {run name: [per-seed figures, seeds ascending]}}`` as the bench stores it in
``bench/results/sparcl.json``; SparCL runs are compared with the dense run of the same method and
the SAME seed (paired deltas and FLOPs ratios), then averaged over seeds.
"""
from __future__ import annotations

GOALS = {0.75: (4.0, -1.0), 0.90: (8.0, -3.0)}       # unstructured SparCL: (min FLOPs ratio, min class-IL delta)


def mean_sd(values: list[float]) -> tuple[float, float]:
    mean = sum(values) / len(values)
    sd = (sum((v - mean) ** 2 for v in values) / (len(values) - 1)) ** 0.5 if len(values) > 1 else 0.0
    return mean, sd


def method_of(name: str) -> str:
    return name.split("-")[1]


def sparsity_of(name: str) -> float | None:
    return None if name.startswith("dense") else float(name.split("-")[2])


def goal_of(name: str) -> tuple[float, float] | None:
    return GOALS.get(sparsity_of(name)) if name.startswith("sparcl") and not name.endswith("structured") else None


def paired(named: dict[str, list[dict]], name: str) -> dict[str, tuple[float, float]]:
    """Mean and sd over seeds of the run's figures and, against the dense run of its method and seed, of the
    class-IL / task-IL deltas and the FLOPs ratio."""
    runs = named[name]
    base = {r["seed"]: r for r in named[f"dense-{method_of(name)}"]}
    out = {k: mean_sd([r[k] for r in runs]) for k in ("class_il", "task_il", "flops", "wall_s", "steps")}
    if "step_ratio" in runs[0]:
        out["step_ratio"] = mean_sd([r["step_ratio"] for r in runs])
    if not name.startswith("dense"):
        out["delta"] = mean_sd([r["class_il"] - base[r["seed"]]["class_il"] for r in runs])
        out["task_delta"] = mean_sd([r["task_il"] - base[r["seed"]]["task_il"] for r in runs])
        out["ratio"] = mean_sd([base[r["seed"]]["flops"] / r["flops"] for r in runs])
    return out


def _row(full: str, metric: str, value: float, unit: str, n: int, sd: float | None = None, goal: str | None = None,
         met: bool | None = None) -> dict:
    row = {"name": full, "metric": metric, "value": value, "unit": unit, "goal": goal, "seeds": n}
    if sd is not None and n > 1:
        row["sd"] = round(sd, 2)
    if met is not None:
        row["met"] = met
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
                 f">= {goal[1]:g}" if goal else None, p["delta"][0] >= goal[1] if goal else None),
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
        lines.append(f"- Goal {name} ({setting}): class-IL within {-goal[1]:g} point(s) of dense at >= {goal[0]:g}x fewer "
                     f"training FLOPs -> {_pm(p['delta'], n, '{:+.1f}')} points at {p['ratio'][0]:.2f}x "
                     f"({n} seed{'s' if n > 1 else ''}): **{'met' if met else 'NOT met'}**")
    return lines


def markdown(command: str, env: str, runs: dict[str, dict[str, list[dict]]], settings: dict) -> str:
    lines = ["## SparCL (`bench/sparcl.py`)", "", f"Command: `nice -n 10 {command}`  ", f"Environment: {env}", ""]
    for setting, named in runs.items():
        lines += [f"### {settings[setting]['title']}", "",
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
    lines.append(NOTES)
    return "\n".join(lines)


NOTES = """Notes (read with the tables above):
- Every run is the host trainer = the device engine (docs/semantics.md) on the torch-eager backend: an
  epoch is one pass over EM ∪ SB (every step 32 real rows, the last one wrapping around), DDR-removed rows
  leave the pool at once, DGM masks come from the raw gradient, TDM's drop score from the previous step's
  raw gradient. FLOPs follow `pipeline/sparcl/flops.py`: per row forward = sum d_l F_l, backward = sum d_l F_l
  + sum q_l F_l (d_l = the step's weight-mask density, q_l = its DGM gradient-mask density = d_l x 0.8),
  charged for every step the engine ran (`FlopsObserver.on_step`), so DDR's removals (30% of SB over epochs
  1-4 of 10, 2-8 of 20) and the EM rows are counted as run. Dense ER and DER++ cost the same per row here
  (DER++'s logit term rides on the EM rows of the one pool).
- Deltas and FLOPs ratios are paired by seed (SparCL seed k vs dense seed k, same data split and init),
  then averaged; ± is the sample sd over seeds. 0.95 ran at the first seed only.
- Structured rows are charged like unstructured ones (own output channels only); "sliced step speed-up" is a
  measured SGD step (batch 32) of the physically smaller model `pipeline.export.structured.prune_channels`
  builds from the trained channel masks, vs the dense model, interleaved in one process. Unstructured masks
  save no time on dense kernels; wall times are on a shared, loaded 2-core host (noisy).
"""
