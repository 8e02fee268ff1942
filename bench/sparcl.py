"""SparCL vs dense replay: class-IL / task-IL accuracy, training FLOPs and wall time, side by side.

Dense ER / DER++ against SparCL-ER / SparCL-DER++ (TDM + DDR + DGM) at weight sparsity 0.75 / 0.90 /
0.95, unstructured (the paper) and structured (channel masks), on Split Digits (quick) and, unless
``--quick``, Split Fashion-MNIST (a per-class subset so the bench stays ~10 minutes on 2 cores).
Every run uses the host reference trainer (``train_host``); FLOPs are counted by ``FlopsObserver``
under the convention of ``pipeline/sparcl/flops.py``.

The main grid uses ``tdm_init_rescale`` (the pruned init gets each unit's dense weight norm back,
standing in for the BatchNorm that follows every masked conv in the paper's ResNet-18). Labelled
variant rows: ``literal-init`` (the paper's plain magnitude-pruned init, the method of the first
run), ``first-dense`` (input layer left dense, only hidden->hidden masked, like the paper's dense
stem) and ``no-ddr`` (TDM + DGM only: what DDR's data removal costs).

    /work/venv/bin/python bench/sparcl.py --ablation  # digits + fashion_mnist, + which part costs accuracy
    /work/venv/bin/python bench/sparcl.py --seeds 3   # digits + fashion_mnist, main grid + labelled variants,
                                                      # goal rows over 3 seeds (~6 min idle, ~12 min loaded)
    /work/venv/bin/python bench/sparcl.py --quick     # digits only

Writes ``bench/results/sparcl.json`` and the SparCL section of ``bench/RESULTS.md``.
"""
from __future__ import annotations

import argparse
import copy
import os
import platform
import sys
import time
from pathlib import Path

import torch
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from models import ModelArgs, build_model
from pipeline.cl.trainer import HostTrainer
from pipeline.config import parse_spec
from pipeline.export.structured import prune_channels
from results_io import write_results_json, write_section

ROOT = Path(__file__).resolve().parent
SPARSITIES = (0.75, 0.90, 0.95)
METHODS = ("er", "derpp")
GOALS = {0.75: (4.0, -1.0), 0.90: (8.0, -3.0)}       # SparCL-DER++ unstructured: (min FLOPs ratio, min class-IL delta)

DATASETS = {
    "digits": {"data": {"kind": "digits"}, "epochs": 20, "sb_size": 400},
    "fashion_mnist": {"data": {"kind": "fashion_mnist", "max_train_per_class": 300, "max_test_per_class": 200},
                      "epochs": 10, "sb_size": 600},
}


VARIANTS = {    # labelled SparCL-DER++ rows beside the main grid: name -> (sparsities, spec overrides)
    "literal-init": (SPARSITIES, {"tdm_init_rescale": False}),
    "first-dense": ((0.75, 0.90), {"layers": r"^features\.4$"}),
    "no-ddr": ((0.75, 0.90), {"ddr": False}),
}
MAIN = {"tdm_init_rescale": True}
BN_DATASETS = ("fashion_mnist",)   # BatchNorm MLP rows; not on Digits, where DDR leaves 1-sample last batches
BN_RUNS = {"bn-dense-derpp": None, "bn-sparcl-derpp-0.75": 0.75, "bn-sparcl-derpp-0.90": 0.90}


def base_name(name: str) -> str:
    """The dense run a row is compared with (BatchNorm rows: the dense BatchNorm MLP)."""
    return "bn-dense-derpp" if name.startswith("bn-") else f"dense-{name.split('-')[1]}"


ABLATIONS = {   # which SparCL part costs accuracy: DER++ at 0.75 with one part on (or the mask held static)
    "tdm-only": {"ddr": False, "dgm": False},
    "tdm-static-only": {"ddr": False, "dgm": False, "tdm_swap": 0.0},
    "ddr-only": {"tdm": False, "dgm": False},
    "dgm-only": {"tdm": False, "ddr": False},
}


def run_one(dataset: str, method: str, sparsity: float | None, structured: bool, seed: int,
            parts: dict | None = None, norm: str = "none") -> dict:
    cfg = DATASETS[dataset]
    table = {
        "name": f"bench-sparcl-{dataset}", "seed": seed, "data": cfg["data"],
        "model": {"kind": "mlp", "hidden": [400, 400], "norm": norm},
        "train": {"method": method, "epochs": cfg["epochs"], "batch_size": 32, "lr": 0.03},
        "replay": {"em_size": 200, "sb_size": cfg["sb_size"]},
        "sparcl": {"enabled": sparsity is not None, "sparsity": sparsity or 0.75, "structured": structured,
                   **MAIN, **(parts or {})},
    }
    spec = parse_spec(table, source="bench/sparcl.py")
    trainer = HostTrainer(spec, progress=False)
    t0 = time.perf_counter()
    result = trainer.run()
    wall = time.perf_counter() - t0
    s, flops = result.summary, result.extra["training_flops"]
    out = {"class_il": s["class_il"], "task_il": s["task_il"], "flops": flops["total"], "wall_s": wall,
           "samples": flops["samples"]}
    if structured and sparsity is not None:
        shape, m = trainer.data.input_shape, spec.model
        model = build_model(m.kind, ModelArgs(shape, trainer.data.num_classes, m.norm, m.width, tuple(m.hidden)))
        model.load_state_dict({k: torch.from_numpy(v) for k, v in trainer.backend.params().items()}, strict=False)
        channels = {n.rsplit(".", 1)[0]: mk.reshape(mk.shape[0], -1)[:, 0] > 0 for n, mk in trainer.backend.masks.items()}
        sliced, _, _ = prune_channels(copy.deepcopy(model), channels, {}, shape)
        dense_s, sliced_s = step_seconds([model, sliced], shape, trainer.data.num_classes)
        out["step_ratio"] = dense_s / sliced_s
    return out


def step_seconds(models: list[torch.nn.Module], input_shape: tuple[int, ...], classes: int,
                 repeats: int = 40, batch: int = 32) -> list[float]:
    """Median seconds of one SGD training step (forward, backward, update) per model, interleaved."""
    x, y = torch.randn(batch, *input_shape), torch.randint(0, classes, (batch,))
    models = [copy.deepcopy(m).train() for m in models]
    opts = [torch.optim.SGD(m.parameters(), lr=0.01) for m in models]
    times: list[list[float]] = [[] for _ in models]
    for r in range(repeats + 5):
        for i, (m, opt) in enumerate(zip(models, opts)):
            t0 = time.perf_counter()
            opt.zero_grad()
            torch.nn.functional.cross_entropy(m(x), y).backward()
            opt.step()
            if r >= 5:
                times[i].append(time.perf_counter() - t0)
    return [sorted(t)[len(t) // 2] for t in times]


def label(method: str, sparsity: float | None, structured: bool) -> str:
    if sparsity is None:
        return f"dense-{method}"
    return f"sparcl-{method}-{sparsity:.2f}" + ("-structured" if structured else "")


def make_rows(dataset: str, runs: dict[str, dict]) -> list[dict]:
    rows = []
    for name, r in runs.items():
        method = "derpp" if name.startswith("bn-") else name.split("-")[1]
        base = runs[base_name(name)]
        full = f"{dataset}/{name}"
        if name.startswith(("ablation", "variant", "bn-")):
            rows += [{"name": full, "metric": m, "value": round(r[k], 2), "unit": u, "goal": None}
                     for m, k, u in (("class_il", "class_il", "%"), ("task_il", "task_il", "%"), ("train_flops", "flops", "FLOP"))]
            goal = GOALS.get(float(name.rsplit("-", 1)[1])) if name.startswith("bn-sparcl") else None
            delta, ratio = r["class_il"] - base["class_il"], base["flops"] / r["flops"]
            rows.append({"name": full, "metric": f"class_il_delta_vs_{base_name(name).replace('-', '_')}",
                         "value": round(delta, 2), "unit": "points", "goal": f">= {goal[1]:g}" if goal else None,
                         **({"met": delta >= goal[1]} if goal else {})})
            rows.append({"name": full, "metric": f"train_flops_ratio_vs_{base_name(name).replace('-', '_')}",
                         "value": round(ratio, 2), "unit": "x", "goal": f">= {goal[0]:g}" if goal else None,
                         **({"met": ratio >= goal[0]} if goal else {})})
            continue
        rows += [
            {"name": full, "metric": "class_il", "value": round(r["class_il"], 2), "unit": "%", "goal": None},
            {"name": full, "metric": "task_il", "value": round(r["task_il"], 2), "unit": "%", "goal": None},
            {"name": full, "metric": "train_flops", "value": r["flops"], "unit": "FLOP", "goal": None},
            {"name": full, "metric": "wall_s", "value": round(r["wall_s"], 2), "unit": "s", "goal": None},
        ]
        if name.startswith("dense"):
            continue
        ratio = base["flops"] / r["flops"]
        delta = r["class_il"] - base["class_il"]
        sp = float(name.split("-")[2])
        goal = GOALS.get(sp) if method == "derpp" and not name.endswith("structured") else None
        rows += [
            {"name": full, "metric": f"train_flops_ratio_vs_dense_{method}", "value": round(ratio, 2), "unit": "x",
             "goal": f">= {goal[0]:g}" if goal else None, **({"met": ratio >= goal[0]} if goal else {})},
            {"name": full, "metric": f"class_il_delta_vs_dense_{method}", "value": round(delta, 2), "unit": "points",
             "goal": f">= {goal[1]:g}" if goal else None, **({"met": delta >= goal[1]} if goal else {})},
            {"name": full, "metric": f"task_il_delta_vs_dense_{method}", "value": round(r["task_il"] - base["task_il"], 2),
             "unit": "points", "goal": None},
            {"name": full, "metric": f"wall_ratio_vs_dense_{method}", "value": round(base["wall_s"] / r["wall_s"], 2),
             "unit": "x", "goal": None},
        ]
        if "step_ratio" in r:
            rows.append({"name": full, "metric": "sliced_step_speed_ratio_vs_dense_model", "value": round(r["step_ratio"], 2),
                         "unit": "x", "goal": None})
    return rows


SEEDED = {   # the goal rows repeated over seeds (--seeds): name -> (sparsity, spec overrides, model norm)
    "dense-derpp": (None, None, "none"),
    "sparcl-derpp-0.75": (0.75, None, "none"),
    "sparcl-derpp-0.90": (0.90, None, "none"),
    "variant-derpp-0.75-no-ddr": (0.75, VARIANTS["no-ddr"][1], "none"),
    **{name: (sp, None, "batch") for name, sp in BN_RUNS.items()},
}


def seed_stats(values: list[float]) -> tuple[float, float]:
    mean = sum(values) / len(values)
    sd = (sum((v - mean) ** 2 for v in values) / (len(values) - 1)) ** 0.5 if len(values) > 1 else 0.0
    return mean, sd


def seed_rows(dataset: str, runs: dict[str, list[float]]) -> list[dict]:
    """Per name: mean / sd of class-IL over seeds, and the mean paired delta vs dense DER++ (same seeds)."""
    rows = []
    for name, vals in runs.items():
        base = runs[base_name(name)]
        mean, sd = seed_stats(vals)
        delta, dsd = seed_stats([v - b for v, b in zip(vals, base)])
        rows += [{"name": f"{dataset}/{name}", "metric": "class_il_mean_over_seeds", "value": round(mean, 2), "unit": "%",
                  "goal": None, "seeds": len(vals)},
                 {"name": f"{dataset}/{name}", "metric": "class_il_sd_over_seeds", "value": round(sd, 2), "unit": "points",
                  "goal": None, "seeds": len(vals)}]
        if base_name(name) != name and "dense" not in name:
            rows.append({"name": f"{dataset}/{name}", "metric": f"class_il_delta_vs_{base_name(name).replace('-', '_')}_mean_over_seeds",
                         "value": round(delta, 2), "unit": "points", "goal": None, "seeds": len(vals), "sd": round(dsd, 2)})
    return rows


def markdown(command: str, env: str, tables: dict[str, dict[str, dict]],
             seeded: dict[str, dict[str, list[float]]] | None = None) -> str:
    lines = ["## SparCL (`bench/sparcl.py`)", "", f"Command: `{command}`  ", f"Environment: {env}", ""]
    for dataset, runs in tables.items():
        cfg = DATASETS[dataset]
        lines += [f"### Split {dataset} (MLP 2x400, {cfg['epochs']} epochs/task, buffer 200, SGD lr 0.03, seed 0)", "",
                  "| run | class-IL % | task-IL % | train GFLOP | FLOPs ratio vs dense | class-IL delta | wall s | wall ratio | sliced step speed-up |",
                  "|---|---|---|---|---|---|---|---|---|"]
        for name, r in runs.items():
            base = runs[base_name(name)]
            if name.startswith("ablation"):
                continue
            lines.append(f"| {name} | {r['class_il']:.1f} | {r['task_il']:.1f} | {r['flops'] / 1e9:.2f} | "
                         f"{base['flops'] / r['flops']:.2f}x | {r['class_il'] - base['class_il']:+.1f} | "
                         f"{r['wall_s']:.1f} | {base['wall_s'] / r['wall_s']:.2f}x | "
                         + (f"{r['step_ratio']:.2f}x |" if "step_ratio" in r else "|"))
        lines.append("")
        ablation = {k: v for k, v in runs.items() if k.startswith("ablation")}
        if ablation:
            lines += ["Ablation, SparCL-DER++ 0.75 with one part on (class-IL delta vs dense DER++, FLOPs ratio): "
                      + "; ".join(f"{k.split('-', 3)[3]} {v['class_il'] - runs['dense-derpp']['class_il']:+.1f} points, "
                                  f"{runs['dense-derpp']['flops'] / v['flops']:.2f}x" for k, v in ablation.items()), ""]
        for sp, (min_ratio, min_delta) in GOALS.items():
            for name, what in ((label("derpp", sp, False), "rescaled init"), (f"variant-derpp-{sp:.2f}-literal-init", "literal init"),
                               (f"bn-sparcl-derpp-{sp:.2f}", "BatchNorm MLP vs dense BatchNorm MLP")):
                if name not in runs:
                    continue
                r, base = runs[name], runs[base_name(name)]
                ratio, delta = base["flops"] / r["flops"], r["class_il"] - base["class_il"]
                verdict = "met" if ratio >= min_ratio and delta >= min_delta else "NOT met"
                lines.append(f"- Goal SparCL-DER++ {sp:.2f} ({what}): class-IL within {-min_delta:g} point(s) of dense DER++ "
                             f"at >= {min_ratio:g}x fewer training FLOPs -> {delta:+.1f} points at {ratio:.2f}x: **{verdict}**")
        if seeded and dataset in seeded:
            runs_s = seeded[dataset]
            parts = []
            for name, vals in runs_s.items():
                mean, sd = seed_stats(vals)
                text = f"{name} {mean:.1f} +- {sd:.1f}"
                if "dense" not in name:
                    d, dsd = seed_stats([v - b for v, b in zip(vals, runs_s[base_name(name)])])
                    text += f" (delta {d:+.1f} +- {dsd:.1f})"
                parts.append(text)
            lines += [f"- Over {len(runs_s['dense-derpp'])} seeds (class-IL mean +- sd, delta paired by seed): " + "; ".join(parts)]
        lines.append("")
    lines.append(NOTES)
    return "\n".join(lines)


NOTES = """Notes (read with the tables above):
- FLOPs follow `pipeline/sparcl/flops.py`: per sample forward = sum d_l F_l, backward = sum d_l F_l +
  sum q_l F_l (q_l = DGM gradient density, ratio 0.2 of the surviving weights), every forward/backward the
  trainer ran (current samples after DDR + both DER++ buffer draws). DDR's 30% removal cuts ~22% of the
  steps (and so of the buffer draws too); the dense classifier is ~2% of this MLP's FLOPs, so the ratios
  sit close to the masked-layer bound (5.5x at 0.75, ~13.8x at 0.90).
- Structured rows are charged like unstructured ones (own output channels only); the sliced model also
  drops the consumers' input channels, so its real cost is lower. "sliced step speed-up" is a measured
  SGD step (batch 32) of the physically smaller model that `pipeline.export.structured.prune_channels`
  builds from the trained channel masks, vs the dense model, interleaved in one process. Unstructured
  masks save no time on dense kernels; the wall ratio of those rows only reflects DDR's fewer steps,
  minus the mask bookkeeping, on a shared 2-core host (noisy).
- Init: the main grid sets `sparcl.tdm_init_rescale = true`: after the magnitude-pruned init each masked
  unit's weights are scaled back to the unit's dense L2 norm (once, at the first task). The paper's masked
  3x3 convs are each followed by BatchNorm, which makes them blind to that scale; a norm-free MLP is not
  (a pruned init at 0.90 shrinks every masked layer's outputs ~2x, compounding over layers); the
  `literal-init` rows lose most where that shrinkage is largest (0.90 / 0.95). `literal-init` rows are the
  paper's plain magnitude-pruned init (the previous method of this bench). `first-dense` keeps the input
  layer dense (charged at full cost) like the paper's dense stem; `no-ddr` is TDM + DGM without DDR.
  `bn-*` rows (Fashion-MNIST only) put BatchNorm1d after each hidden Linear, like the BN after every
  masked conv of the paper's ResNet-18, and compare with the dense BatchNorm MLP; not run on Digits,
  where DDR's removals leave a 1-sample last batch that BatchNorm cannot train on (the reference
  skips incomplete batches; the host trainer keeps them). BatchNorm models do not export to ORT.
- Accuracy: these are short runs (20 / 10 epochs per task) of a 2x400 MLP, not the paper's 50-epoch
  ResNet-18 on CIFAR-10; one seed; test sets are ~90 samples per task (Digits) / 400 (Fashion), so
  +-1-2 points is noise. The ablation rows show which part costs accuracy.
"""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="Split Digits only")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--ablation", action="store_true", help="also run DER++ 0.75 with each SparCL part alone")
    ap.add_argument("--no-variants", action="store_true", help="skip the labelled literal-init / first-dense / no-ddr rows")
    ap.add_argument("--seeds", type=int, default=1,
                    help="repeat the goal rows (dense / SparCL-DER++ 0.75, 0.90, no-ddr 0.75) over this many seeds")
    args = ap.parse_args()
    torch.set_num_threads(1)          # tiny models: one thread is faster and fairer on a shared 2-core box
    command = ("python bench/sparcl.py" + (" --quick" if args.quick else "") + (" --ablation" if args.ablation else "")
               + (" --no-variants" if args.no_variants else "") + (f" --seeds {args.seeds}" if args.seeds > 1 else "")
               + (f" --seed {args.seed}" if args.seed else ""))
    env = (f"python {platform.python_version()}, torch {torch.__version__}, {os.cpu_count()} CPUs shared "
           f"(torch threads {torch.get_num_threads()}), {platform.machine()}, load average at start "
           f"{os.getloadavg()[0]:.1f}")
    print(f"$ {command}\n{env}", flush=True)
    datasets = ["digits"] if args.quick else ["digits", "fashion_mnist"]
    grid = [(m, None, False, None) for m in METHODS] + [
        (m, s, st, None) for m in METHODS for st in (False, True) for s in SPARSITIES]
    if not args.no_variants:
        grid += [("derpp", sp, False, f"variant:{v}") for v, (sps, _) in VARIANTS.items() for sp in sps]
        grid += [("derpp", sp, False, f"bn:{name}") for name, sp in BN_RUNS.items()]
    if args.ablation:
        grid += [("derpp", 0.75, False, part) for part in ABLATIONS]
    extra_seeds = [args.seed + k for k in range(1, args.seeds)]
    tables: dict[str, dict[str, dict]] = {}
    seeded: dict[str, dict[str, list[float]]] = {}
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn()) as bar:
        job = bar.add_task("sparcl bench", total=len(grid) * len(datasets) + len(SEEDED) * len(extra_seeds) * len(datasets))
        for dataset in datasets:
            runs: dict[str, dict] = {}
            for method, sp, st, part in grid:
                name, parts, norm = label(method, sp, st), None, "none"
                if part and part.startswith("bn:"):
                    if dataset not in BN_DATASETS:
                        bar.advance(job)
                        continue
                    name, norm = part[3:], "batch"
                elif part and part.startswith("variant:"):
                    name, parts = f"variant-derpp-{sp:.2f}-{part[8:]}", VARIANTS[part[8:]][1]
                elif part:
                    name, parts = f"ablation-derpp-0.75-{part}", ABLATIONS[part]
                bar.update(job, description=f"{dataset} {name}")
                runs[name] = run_one(dataset, method, sp, st, args.seed, parts, norm)
                bar.advance(job)
                bar.console.print(f"{dataset:14s} {name:32s} class-IL {runs[name]['class_il']:5.1f}  "
                                  f"task-IL {runs[name]['task_il']:5.1f}  {runs[name]['flops'] / 1e9:8.2f} GFLOP  "
                                  f"{runs[name]['wall_s']:6.1f} s")
            tables[dataset] = runs
            seeded[dataset] = {name: [runs[name]["class_il"]] for name in SEEDED if name in runs}
            for seed in extra_seeds:
                for name in seeded[dataset]:
                    bar.update(job, description=f"{dataset} {name} seed {seed}")
                    sp, parts, norm = SEEDED[name]
                    r = run_one(dataset, "derpp", sp, False, seed, parts, norm)
                    seeded[dataset][name].append(r["class_il"])
                    bar.advance(job)
                    bar.console.print(f"{dataset:14s} {name:32s} seed {seed} class-IL {r['class_il']:5.1f}")
    rows = [row for dataset, runs in tables.items() for row in make_rows(dataset, runs)]
    if extra_seeds:
        rows += [row for dataset, runs in seeded.items() for row in seed_rows(dataset, runs)]
    write_results_json("sparcl", command, rows, environment=env)
    write_section("sparcl", markdown(command, env, tables, seeded if extra_seeds else {}))
    for row in rows:
        if "met" in row:
            print(f"goal {row['name']} {row['metric']} = {row['value']} {row['unit']} (goal {row['goal']}): "
                  f"{'met' if row['met'] else 'NOT met'}")


if __name__ == "__main__":
    sys.exit(main())
