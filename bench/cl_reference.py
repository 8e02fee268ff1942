"""Reference continual-learning numbers on the host: Split Digits and Split Fashion-MNIST (5 tasks x 2).

Fine-tune, ER and DER++ (buffers 200 and 500) and joint, class-IL / task-IL / forgetting / wall time,
side by side in one run. ER and DER++ run with both current-task CE variants: SparCL's (CE over
the current task's logits only, edgecl's default) and mammoth's (CE over every logit).
Writes bench/results/cl_reference.json and the "CL reference" section of bench/RESULTS.md.

    python bench/cl_reference.py [--seeds 3] [--fmnist-seeds 1] [--quick]
"""
from __future__ import annotations

import argparse
import os
import platform
import shlex
import sys
import time
from pathlib import Path

import numpy as np
import torch
from rich.progress import Progress

from pipeline.cl.trainer import train_host
from pipeline.config import load_spec
from pipeline.datasets.images import FASHION_MNIST_ROOT
from results_io import write_results_json, write_section

ROOT = Path(__file__).resolve().parents[1]
SECTION = "## CL reference (host, PyTorch eager)"


def variants() -> list[tuple[str, dict]]:
    out = [("finetune", {"train.method": "finetune"})]
    for method in ("er", "derpp"):
        for buf in (200, 500):
            for ce, masked in (("task-ce", True), ("full-ce", False)):
                out.append((f"{method}-b{buf}-{ce}", {"train.method": method, "replay.em_size": buf,
                                                       "train.current_task_logits_only": masked}))
    out.append(("joint", {"train.method": "joint"}))
    return out


def benchmarks(args) -> list[tuple[str, Path, dict, int]]:
    quick = {"train.epochs": 1} if args.quick else {}
    out = [("split-digits", ROOT / "experiments/split-digits.toml", {"model.kind": "mlp", **quick}, args.seeds)]
    if FASHION_MNIST_ROOT.is_dir() and args.fmnist_seeds > 0:
        out.append(("split-fmnist", ROOT / "experiments/split-fmnist.toml",
                    {"model.kind": "mlp", "data.max_train_per_class": 1000, "data.max_test_per_class": 500,
                     "train.epochs": 1 if args.quick else 3}, args.fmnist_seeds))
    else:
        print(f"skipping Split Fashion-MNIST: {FASHION_MNIST_ROOT} missing (apt-get install dataset-fashion-mnist)")
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=3, help="seeds for Split Digits")
    ap.add_argument("--fmnist-seeds", type=int, default=1, help="seeds for Split Fashion-MNIST (0 = skip)")
    ap.add_argument("--quick", action="store_true", help="1 epoch per task (smoke run)")
    args = ap.parse_args()
    command = " ".join(["python bench/cl_reference.py", shlex.join(sys.argv[1:])]).strip()
    print(command)
    torch.set_num_threads(min(2, os.cpu_count() or 1))
    rows, table = [], {}
    plan = [(b, p, o, s, v, ov) for b, p, o, s in benchmarks(args) for v, ov in variants()]
    with Progress() as progress:
        bar = progress.add_task("runs", total=sum(s for *_, s, _, _ in plan))
        for bench, path, base, seeds, name, over in plan:
            stats = []
            for seed in range(seeds):
                spec = load_spec(path, {**base, **over, "seed": seed})
                t0 = time.perf_counter()
                res = train_host(spec, progress=False)
                stats.append({**res.summary, "wall_s": time.perf_counter() - t0,
                              "samples": sum(c.samples for c in res.costs)})
                progress.console.log(f"{bench} {name} seed {seed}: class-IL {res.summary['class_il']:.1f}% "
                                     f"task-IL {res.summary['task_il']:.1f}% in {stats[-1]['wall_s']:.1f} s")
                progress.advance(bar)
            mean = {k: float(np.mean([s[k] for s in stats])) for k in stats[0]}
            std = {k: float(np.std([s[k] for s in stats])) for k in stats[0]}
            table[(bench, name)] = (mean, std, seeds)
            for metric, unit, goal in (("class_il", "%", "higher"), ("task_il", "%", "higher"),
                                       ("forgetting_class_il", "%", "lower"), ("wall_s", "s", "lower"),
                                       ("samples", "samples", "lower")):
                rows.append({"name": f"{bench}/{name}", "metric": metric, "value": round(mean[metric], 3),
                             "unit": unit, "goal": goal, "std": round(std[metric], 3), "seeds": seeds})
    for bench in {b for b, _ in table}:
        base = table[(bench, "finetune")][0]["wall_s"]
        for (b, name), (mean, _, _) in table.items():
            if b == bench and name != "finetune":
                rows.append({"name": f"{bench}/{name}", "metric": "wall_ratio_vs_finetune",
                             "value": round(mean["wall_s"] / base, 3), "unit": "x", "goal": "lower"})
    env = {"python": platform.python_version(), "torch": torch.__version__, "cpu_count": os.cpu_count(),
           "threads": torch.get_num_threads(), "machine": platform.machine()}
    results = write_results_json("cl_reference", command, rows, env=env)
    write_section("cl_reference", markdown(command, env, table))
    print(f"wrote {results} and the section of {results.parents[1] / 'RESULTS.md'}")


def markdown(command: str, env: dict, table: dict) -> str:
    """This script's RESULTS.md section (between its markers), with the notes file appended."""
    lines = [SECTION, "", f"Command: `{command}`  ", f"Env: {env}", ""]
    for bench in dict.fromkeys(b for b, _ in table):
        seeds = next(s for (b, _), (_, _, s) in table.items() if b == bench)
        lines += [f"### {bench} (5 tasks x 2 classes, MLP 2x100, mean +- std over {seeds} seed(s))", "",
                  "| method | class-IL % | task-IL % | forgetting (class-IL) | wall s | fwd samples |",
                  "|---|---|---|---|---|---|"]
        for (b, name), (m, s, _) in table.items():
            if b == bench:
                lines.append(f"| {name} | {m['class_il']:.1f} +- {s['class_il']:.1f} | {m['task_il']:.1f} | "
                             f"{m['forgetting_class_il']:.1f} | {m['wall_s']:.1f} | {int(m['samples'])} |")
        lines.append("")
    notes_path = Path(__file__).with_name("cl_reference_notes.md")
    notes = "\n\n" + notes_path.read_text().strip() if notes_path.exists() else ""
    return "\n".join(lines).rstrip() + notes


if __name__ == "__main__":
    main()
