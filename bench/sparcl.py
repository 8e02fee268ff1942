"""SparCL vs dense replay on the one engine: class-IL / task-IL accuracy, training FLOPs and wall time.

Dense ER / DER++ against SparCL-ER / SparCL-DER++ (TDM + DDR + DGM) at weight sparsity 0.75 / 0.90 /
0.95, every run by the host trainer (``HostTrainer``: the device engine on the torch-eager backend),
FLOPs counted by ``FlopsObserver`` (``pipeline/sparcl/flops.py``) from the masks every step used.
Settings:

* ``fashion_mnist-resnet18_bn-w8-em500`` (the goal setting, the paper's layout): ``resnet18_reduced`` at nf=8 with
  BatchNorm, the 3x3 convs of the residual blocks masked, the stem, 1x1 shortcuts and classifier dense; Split
  Fashion-MNIST, 300 training samples per class (SB keeps 400 rows a task), EM 500, the whole test set (1000 samples
  per class), ``--seeds`` seeds (0.95 at the first seed only);
* ``fashion_mnist-resnet18_bn-w8-em500-e20``: the same at 20 epochs a task (do longer tasks close SparCL's gap?
  The paper trains 50);
* ``fashion_mnist-resnet18_bn-w16-em500`` / ``-w32-em500``: the goal setting at nf=16 / nf=32, 10 epochs a task
  (does SparCL's gap shrink with the width? The paper's ResNet-18 has nf=64);
* ``fashion_mnist-cnn_bn-w32-em500``: ``small_cnn`` width 32 (two 3x3 convs, each followed by BatchNorm, both masked,
  the stem included; classifier dense), the same data, EM and test set (the previous goal setting);
* ``fashion_mnist-cnn_bn-w32``: the same at EM 200 and 200 test samples per class (the earlier goal setting,
  whose seed noise swamped the goals' margins);
* ``fashion_mnist-cnn_bn`` / ``fashion_mnist-cnn_bn-w16-300``: width 16 at 200 / 300 samples per class, EM 200
  (the capacity comparison, and the width / sample-count separation);
* ``digits-mlp`` / ``fashion_mnist-mlp``: the norm-free MLP 2x400 of the earlier runs, one seed, with
  the unit-norm init rescale; unstructured masks, and on Digits also structured (channel) masks.

    python bench/sparcl.py               # everything, 3 seeds on the conv model
    python bench/sparcl.py --quick       # Digits MLP only
    python bench/sparcl.py --settings fashion_mnist-resnet18_bn-w8-em500 --seeds 5 --ablation   # the goal setting alone
    python bench/sparcl.py --render      # rewrite the RESULTS.md section from the json

A run of some settings (``--settings``, ``--runs``) replaces those settings in the json and keeps the others,
each with the command that measured it.

Runs go to ``--jobs`` worker processes (one torch thread each). Writes ``bench/results/sparcl.json``
(rows + every run's raw figures), the SparCL section of ``bench/RESULTS.md`` and its figure
``bench/results/sparcl_goal.png`` (``sparcl_figure.py``).
"""
from __future__ import annotations

import argparse
import copy
import json
import multiprocessing
import os
import platform
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

import torch
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from results_io import BENCH_DIR, write_results_json, write_section
from sparcl_figure import draw
from sparcl_report import markdown, method_of, rows_for

SPARSITIES = (0.75, 0.90, 0.95)
SEEDED_SPARSITIES = (0.75, 0.90)
METHODS = ("er", "derpp")
FASHION = {"kind": "fashion_mnist", "max_train_per_class": 300, "max_test_per_class": 200}


def cnn_setting(width: int, per_class: int, em: int = 200, sb: int = 400, test_per_class: int = 200) -> dict:
    """Split Fashion-MNIST on small_cnn (conv-BN-ReLU x2, both convs masked) at ``width``: one recipe, the width,
    the training subset (``per_class`` samples of each class, of which SB keeps ``sb`` rows a task), the EM size
    and the test subset varied (the researcher's knobs; the training semantics and SparCL defaults are fixed)."""
    return {"title": f"Split Fashion-MNIST, small_cnn w{width} + BatchNorm (conv-BN-ReLU x2, both convs masked), "
                     f"{per_class} train / {test_per_class} test samples/class, 10 epochs/task, EM {em}, SB {sb}, SGD lr 0.1",
            "data": {**FASHION, "max_train_per_class": per_class, "max_test_per_class": test_per_class},
            "model": {"kind": "small_cnn", "width": width, "norm": "batch"}, "epochs": 10, "em_size": em, "sb_size": sb,
            "lr": 0.1, "sparcl": {}, "structured": False, "seeded": True}


def resnet_setting(width: int, per_class: int, em: int = 500, sb: int = 400, test_per_class: int = 1000,
                   epochs: int = 10) -> dict:
    """Split Fashion-MNIST on resnet18_reduced with BatchNorm at ``width`` (nf): the paper's layout, the 3x3 convs of
    the residual blocks masked, the stem, 1x1 shortcuts, norms and classifier dense; otherwise ``cnn_setting``'s recipe."""
    return {**cnn_setting(width, per_class, em, sb, test_per_class), "epochs": epochs,
            "title": f"Split Fashion-MNIST, resnet18_reduced nf={width} + BatchNorm (block 3x3 convs masked; stem, shortcuts, "
                     f"classifier dense), {per_class} train / {test_per_class} test samples/class, {epochs} epochs/task, EM {em}, "
                     f"SB {sb}, SGD lr 0.1",
            "model": {"kind": "resnet18_reduced", "width": width, "norm": "batch"}}


SETTINGS = {
    "fashion_mnist-resnet18_bn-w8-em500": resnet_setting(8, 300),
    "fashion_mnist-resnet18_bn-w8-em500-e20": resnet_setting(8, 300, epochs=20),
    "fashion_mnist-resnet18_bn-w16-em500": resnet_setting(16, 300),
    "fashion_mnist-resnet18_bn-w32-em500": resnet_setting(32, 300),
    "fashion_mnist-cnn_bn-w32-em500": cnn_setting(32, 300, em=500, test_per_class=1000),
    "fashion_mnist-cnn_bn-w32": cnn_setting(32, 300),
    "fashion_mnist-cnn_bn": cnn_setting(16, 200),
    "fashion_mnist-cnn_bn-w16-300": cnn_setting(16, 300),
    "digits-mlp": {
        "title": "Split Digits, MLP 2x400 (no norm), 20 epochs/task, EM 200, SB 400, SGD lr 0.03, init rescale",
        "data": {"kind": "digits"}, "model": {"kind": "mlp", "hidden": [400, 400]}, "epochs": 20, "em_size": 200, "sb_size": 400,
        "lr": 0.03, "sparcl": {"tdm_init_rescale": True}, "structured": True, "seeded": False},
    "fashion_mnist-mlp": {
        "title": "Split Fashion-MNIST, MLP 2x400 (no norm), 10 epochs/task, EM 200, SB 600, SGD lr 0.03, init rescale",
        "data": FASHION, "model": {"kind": "mlp", "hidden": [400, 400]}, "epochs": 10, "em_size": 200, "sb_size": 600,
        "lr": 0.03, "sparcl": {"tdm_init_rescale": True}, "structured": False, "seeded": False},
}
ABLATIONS = {   # which SparCL part, or pair of parts, costs accuracy: DER++ (--ablation-methods) at 0.75, the others off
    "tdm-only": {"ddr": False, "dgm": False},
    "ddr-only": {"tdm": False, "dgm": False},
    "dgm-only": {"tdm": False, "ddr": False},
    "tdm-ddr": {"dgm": False},
    "tdm-dgm": {"ddr": False},
    "ddr-dgm": {"tdm": False},
    "tdm-static": {"ddr": False, "dgm": False, "tdm_swap": 0.0},   # control: TDM's initial masks, never swapped
    "all-ddr0.15": {"ddr_fraction": 0.15},   # all three parts, DDR removing half the reference's 30%
    "all-ddrstore": {"ddr_store_removed": True},   # all three parts, DDR's removed rows still stored for later EMs
    "all-ddrrandom": {"ddr_select": "random"},   # control: all three parts, DDR's counts, rows drawn at random
    "all-ddr2w": {"ddr_steps": [0.2, 0.4]},   # all three parts, DDR's 30% in two removals: two-epoch windows
}


def run_name(method: str, sparsity: float | None, structured: bool, part: str | None = None) -> str:
    if part:
        return f"ablation-{method}-{sparsity:.2f}-{part}"
    if sparsity is None:
        return f"dense-{method}"
    return f"sparcl-{method}-{sparsity:.2f}" + ("-structured" if structured else "")


def spec_table(setting: str, method: str, sparsity: float | None, structured: bool, seed: int,
               parts: dict | None = None) -> dict:
    cfg = SETTINGS[setting]
    return {
        "name": f"bench-sparcl-{setting}", "seed": seed, "data": cfg["data"], "model": cfg["model"],
        "train": {"method": method, "epochs": cfg["epochs"], "batch_size": 32, "lr": cfg["lr"]},
        "replay": {"em_size": cfg["em_size"], "sb_size": cfg["sb_size"]},
        "sparcl": {"enabled": sparsity is not None, "sparsity": sparsity or 0.75, "structured": structured,
                   **cfg["sparcl"], **(parts or {})},
    }


def run_one(job: dict) -> dict:
    """One host-trainer run; returns its figures (and, structured, the sliced model's measured step speed-up)."""
    from models import ModelArgs, build_model
    from pipeline.cl.trainer import HostTrainer
    from pipeline.config import parse_spec
    from pipeline.export.structured import prune_channels

    torch.set_num_threads(1)          # tiny models: one thread each is faster and fairer on a shared box
    spec = parse_spec(spec_table(**job["spec"]), source="bench/sparcl.py")
    trainer = HostTrainer(spec, progress=False)
    t0 = time.perf_counter()
    result = trainer.run()
    wall = time.perf_counter() - t0
    s, flops = result.summary, result.extra["training_flops"]
    out = {"class_il": s["class_il"], "task_il": s["task_il"], "flops": flops["total"], "wall_s": wall,
           "steps": flops["steps"], "removed": sum(c.removed for c in result.costs),
           "forgotten": sum(c.forgotten for c in result.costs)}
    if job["spec"]["structured"] and job["spec"]["sparsity"] is not None:
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


def grid(settings: list[str], seeds: int, ablation: int, only: set[str] | None = None, first_seed: int = 0,
         ablation_methods: tuple[str, ...] = ("derpp",)) -> list[dict]:
    """Every run: {"setting", "name", "seed", "spec": run_one's spec arguments}; ``only``: these run names alone;
    seeded settings from ``first_seed`` on; the ablation for ``ablation_methods``."""
    jobs = []
    for setting in settings:
        cfg = SETTINGS[setting]
        for seed in range(first_seed, seeds) if cfg["seeded"] else range(1):
            runs = [(m, None, False, None) for m in METHODS]
            runs += [(m, s, st, None) for m in METHODS for st in ((False, True) if cfg["structured"] else (False,))
                     for s in SPARSITIES if seed == 0 or s in SEEDED_SPARSITIES]
            if cfg["seeded"] and seed < ablation:
                runs += [(m, 0.75, False, part) for m in ablation_methods for part in ABLATIONS]
            for method, sp, st, part in runs:
                if only is not None and run_name(method, sp, st, part) not in only:
                    continue
                jobs.append({"setting": setting, "name": run_name(method, sp, st, part), "seed": seed,
                             "spec": {"setting": setting, "method": method, "sparsity": sp, "structured": st, "seed": seed,
                                      "parts": ABLATIONS.get(part)}})
    return jobs


def prepare_data(jobs: list[dict]) -> None:
    """Write every (setting, seed)'s task shards once, before the workers start (they only read them)."""
    from android_harness.cache_dir import edgecl_home
    from pipeline.config import parse_spec
    from pipeline.experiment_prep import write_shards

    for setting, seed in sorted({(j["setting"], j["seed"]) for j in jobs}):
        write_shards(parse_spec(spec_table(setting, "er", None, False, seed), source="bench/sparcl.py"), edgecl_home() / "cache")


def load_saved(path: Path) -> dict:
    """The stored runs and, per setting, the commands and environments that measured them, in order, as lists
    (a file written before settings could be merged holds one string of each) ({} if none yet)."""
    if not path.exists():
        return {"runs": {}, "measured": {}}
    saved = json.loads(path.read_text())
    measured = saved.get("measured") or {s: {"command": saved["command"], "environment": saved["environment"]}
                                         for s in saved["runs"]}
    as_list = lambda v: v if isinstance(v, list) else [v]  # noqa: E731
    measured = {s: {k: as_list(m[k]) for k in ("command", "environment")} for s, m in measured.items()}
    return {"runs": saved["runs"], "measured": measured}


def merge_seeds(stored: list[dict], new: list[dict]) -> list[dict]:
    """One run's results by seed, ascending: ``new`` replaces the stored results of its seeds."""
    return sorted({**{r["seed"]: r for r in stored}, **{r["seed"]: r for r in new}}.values(), key=lambda r: r["seed"])


def write(path: Path, command: str, env: str, runs: dict[str, dict[str, list[dict]]],
          merge: bool) -> dict[str, dict[str, list[dict]]]:
    """Store this invocation's settings over the same settings of the saved file (the others kept, with the
    command that measured them), then the rows and the RESULTS.md section of every stored setting. ``merge``
    (a ``--runs`` invocation): its runs replace the same-named runs of the same seeds of a stored setting, the
    setting's other runs and seeds are kept, and the setting lists both commands. Returns every stored setting's runs."""
    saved = load_saved(path)
    all_runs, measured = dict(saved["runs"]), dict(saved["measured"])
    for s, named in runs.items():
        if merge and s in saved["runs"]:
            old = saved["measured"][s]
            all_runs[s] = {**saved["runs"][s],
                           **{n: merge_seeds(saved["runs"][s].get(n, []), rs) for n, rs in named.items()}}
            measured[s] = {"command": old["command"] + [command], "environment": old["environment"] + [env]}
        else:
            all_runs[s], measured[s] = named, {"command": [command], "environment": [env]}
    order = [s for s in SETTINGS if s in all_runs]
    all_runs, measured = {s: all_runs[s] for s in order}, {s: measured[s] for s in order}
    rows = [row for setting, named in all_runs.items() for row in rows_for(setting, named)]
    write_results_json("sparcl", command, rows, environment=env, measured=measured, runs=all_runs)
    write_section("sparcl", markdown(measured, all_runs, SETTINGS, figure(all_runs)))
    return all_runs


def figure(runs: dict[str, dict[str, list[dict]]]) -> str | None:
    """Draw the goal figure beside the json; its path relative to RESULTS.md, or None when nothing was drawn."""
    out = draw(runs, SETTINGS, BENCH_DIR / "results")
    return None if out is None else out.relative_to(BENCH_DIR).as_posix()


def render(path: Path) -> None:
    saved = load_saved(path)
    write_section("sparcl", markdown(saved["measured"], saved["runs"], SETTINGS, figure(saved["runs"])))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="the Digits MLP setting only")
    ap.add_argument("--seeds", type=int, default=3, help="seeds of the conv setting (mean +- sd)")
    ap.add_argument("--ablation", action="store_true", help="also SparCL 0.75 (DER++, or --ablation-methods) with each part and pair of parts alone, "
                                                            "and TDM with its initial masks never swapped (seeded settings, first seed)")
    ap.add_argument("--ablation-seeds", type=int, default=None, help="run the ablation at this many seeds (implies --ablation)")
    ap.add_argument("--ablation-methods", default="derpp", help=f"comma-separated CL methods of the ablation, of {', '.join(METHODS)}")
    ap.add_argument("--settings", help=f"comma-separated settings to run (default all): {', '.join(SETTINGS)}")
    ap.add_argument("--runs", help="comma-separated run names to run alone, e.g. dense-er,sparcl-er-0.90 "
                                   "(each SparCL run needs the dense run of its method)")
    ap.add_argument("--first-seed", type=int, default=0, help="with --runs: only seeds from this one on (added to the "
                                                               "stored seeds of those runs)")
    ap.add_argument("--jobs", type=int, default=2, help="worker processes")
    ap.add_argument("--render", action="store_true", help="only rewrite the RESULTS.md section from bench/results/sparcl.json")
    args = ap.parse_args()
    if args.render:
        return render(BENCH_DIR / "results" / "sparcl.json")
    settings = ["digits-mlp"] if args.quick else args.settings.split(",") if args.settings else list(SETTINGS)
    if unknown := [s for s in settings if s not in SETTINGS]:
        ap.error(f"--settings: unknown {', '.join(unknown)}; expected some of {', '.join(SETTINGS)}")
    only = set(args.runs.split(",")) if args.runs else None
    ablation = args.ablation_seeds if args.ablation_seeds is not None else int(args.ablation)
    if args.first_seed and only is None:
        ap.error("--first-seed: only with --runs (the other runs keep their stored seeds)")
    ablation_methods = tuple(args.ablation_methods.split(","))
    if unknown := [m for m in ablation_methods if m not in METHODS]:
        ap.error(f"--ablation-methods: unknown {', '.join(unknown)}; expected some of {', '.join(METHODS)}")
    jobs = grid(settings, args.seeds, ablation, only, args.first_seed, ablation_methods)
    names = {j["name"] for j in jobs}
    if only is not None and (unknown := sorted(only - names)):
        ap.error(f"--runs: {', '.join(unknown)} not in the grid of {', '.join(settings)}")
    stored = load_saved(BENCH_DIR / "results" / "sparcl.json")["runs"] if only is not None else {}
    have = {(j["setting"], j["name"], j["seed"]) for j in jobs} | {
        (s, n, r["seed"]) for s, named in stored.items() for n, rs in named.items() for r in rs}
    if missing := sorted({f"{j['setting']}/dense-{method_of(j['name'])} seed {j['seed']}" for j in jobs
                          if (j["setting"], f"dense-{method_of(j['name'])}", j["seed"]) not in have}):
        ap.error(f"--runs: {', '.join(missing)} needed, in this run or stored (SparCL runs are compared with the "
                 "dense run of their method and seed)")
    niceness = os.nice(0)
    command = ((f"nice -n {niceness} " if niceness else "") + "python bench/sparcl.py" + (" --quick" if args.quick else "") + (" --ablation" if args.ablation and args.ablation_seeds is None else "")
               + (f" --ablation-seeds {args.ablation_seeds}" if args.ablation_seeds is not None else "")
               + (f" --ablation-methods {args.ablation_methods}" if args.ablation_methods != "derpp" else "")
               + (f" --settings {args.settings}" if args.settings and not args.quick else "")
               + (f" --runs {args.runs}" if args.runs else "")
               + (f" --seeds {args.seeds}" if args.seeds != 3 else "")
               + (f" --first-seed {args.first_seed}" if args.first_seed else "") + (f" --jobs {args.jobs}" if args.jobs != 2 else ""))
    env = (f"python {platform.python_version()}, torch {torch.__version__}, {os.cpu_count()} CPUs shared, {args.jobs} worker "
           f"processes x 1 torch thread, {platform.machine()}, load average at start {os.getloadavg()[0]:.1f}")
    print(f"$ {command}\n{env}", flush=True)
    prepare_data(jobs)
    runs: dict[str, dict[str, list[dict]]] = {s: {} for s in settings}
    t0 = time.perf_counter()
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn()) as bar, \
            ProcessPoolExecutor(args.jobs, mp_context=multiprocessing.get_context("spawn")) as pool:
        task = bar.add_task("sparcl bench", total=len(jobs))
        futures = {pool.submit(run_one, j): j for j in jobs}
        for fut in as_completed(futures):
            j, r = futures[fut], fut.result()
            r["seed"] = j["seed"]
            runs[j["setting"]].setdefault(j["name"], []).append(r)
            bar.advance(task)
            bar.console.print(f"{j['setting']:22s} {j['name']:30s} seed {j['seed']} class-IL {r['class_il']:5.1f}  "
                              f"task-IL {r['task_il']:5.1f}  {r['flops'] / 1e9:8.2f} GFLOP  {r['wall_s']:6.1f} s")
    for setting in runs:   # runs in grid order, seeds ascending
        order = list(dict.fromkeys(j["name"] for j in jobs if j["setting"] == setting))
        runs[setting] = {n: sorted(runs[setting][n], key=lambda r: r["seed"]) for n in order}
    env += f", bench wall time {time.perf_counter() - t0:.0f} s"
    stored = write(BENCH_DIR / "results" / "sparcl.json", command, env, {s: named for s, named in runs.items() if named},
                   merge=only is not None)
    for row in (row for setting in runs if runs[setting] for row in rows_for(setting, stored[setting])):
        if "met" in row:
            print(f"goal {row['name']} {row['metric']} = {row['value']} {row['unit']} (goal {row['goal']}): "
                  f"{'met' if row['met'] else 'NOT met'}")


if __name__ == "__main__":
    sys.exit(main())
