"""Training-step time of the exported programs vs PyTorch eager, per model, at batch 32.

For each registry model: export the ExecuTorch program and the ORT artifacts (same weights, 50%
weight masks on the maskable layers, DER++-shaped batch), then time ``train_step`` through the
device backends and the same step in eager PyTorch, each runtime in its OWN subprocess (ORT's
thread pool spins after work; ExecuTorch runs single-threaded), median of repeats after a warm-up.
Ratios to eager are the figures; eager is timed before AND after the runtimes (the machine is
shared; the lower median is the baseline). ``--passes both`` also exports without the ExecuTorch speed passes
(``ExportSpec.fast_passes``) so before/after rows sit side by side.

Run: ``python bench/export_step.py [--models mlp,small_cnn] [--repeats 5] [--budget 20] [--passes both|fast|none]``
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from results_io import command_line, write_results_json, write_section

ROOT = Path(__file__).resolve().parents[1]
BATCH = 32
WORKER_TIMEOUT_S = 600
# model -> (input shape, width); sized like the datasets they serve (digits/MNIST, CIFAR, MFCC frames)
CONFIGS = {
    "mlp": ((1, 28, 28), 0),
    "small_cnn": ((1, 28, 28), 16),
    "cnn1d": ((13, 64), 32),
    "mobilenet": ((3, 32, 32), 16),
    "resnet18_reduced": ((3, 32, 32), 20),
    "resnet18": ((3, 16, 16), 64),  # 16x16 keeps the ExecuTorch step (portable convs) to about a minute
}


def request(model: str, runtime: str, fast: bool):
    import numpy as np

    from pipeline.export import ExportRequest, prepare_model

    shape, width = CONFIGS[model]
    req = ExportRequest(model, shape, 10, BATCH, runtime=runtime, width=width, lr=0.01, fast_passes=fast)
    rng = np.random.default_rng(0)
    req.masks = {n: (rng.random(m.shape) < 0.5).astype(np.float32) for n, m in prepare_model(req).masks.items()}
    return req


def worker(args: argparse.Namespace) -> None:
    """Time one runtime in this process; print one JSON line."""
    from pipeline.export.reference import replay_batch

    req = request(args.model, "ort" if args.worker == "ort" else "executorch", args.fast)
    batch = replay_batch(req, seed=0)
    if args.worker == "eager":
        import torch

        from pipeline.export.reference import EagerReference

        torch.set_num_threads(1)  # like the ExecuTorch program; 2 threads on a shared 2-core host oversubscribe

        ref = EagerReference(req)
        step = lambda: ref.step(batch)  # noqa: E731
    else:
        from android_harness.device.backends import load_backend

        backend = load_backend(args.folder)
        step = lambda: backend.train_step(batch, req.lr)  # noqa: E731
    t0 = time.perf_counter()
    step()  # warm-up
    times = [time.perf_counter() - t0]
    deadline = time.perf_counter() + args.budget
    # a warm-up longer than the budget (ExecuTorch ResNet-18) is the one sample: ET has no JIT to warm
    timed: list[float] = [times[0]] if times[0] > args.budget else []
    while len(timed) < args.repeats and (not timed or time.perf_counter() < deadline):
        t0 = time.perf_counter()
        step()
        timed.append(time.perf_counter() - t0)
    print(json.dumps({"median_s": statistics.median(timed), "n": len(timed), "warmup_s": times[0]}))


def run_worker(model: str, runtime: str, folder: Path | None, fast: bool, repeats: int, budget: float) -> dict:
    cmd = [sys.executable, __file__, "--worker", runtime, "--model", model, "--repeats", str(repeats),
           "--budget", str(budget), "--folder", str(folder or "")] + ([] if fast else ["--no-fast"])
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, timeout=WORKER_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        return {"median_s": float("nan"), "n": 0, "timeout": WORKER_TIMEOUT_S}
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("{")]
    if proc.returncode or not lines:
        raise SystemExit(f"worker {runtime}/{model} failed:\n{proc.stderr[-2000:]}")
    return json.loads(lines[-1])


def markdown(command: str, rows: list[dict], env: str) -> str:
    """This script's RESULTS.md section (between its markers)."""
    by = {(r["name"], r["metric"]): r["value"] for r in rows}
    models = list(dict.fromkeys(r["name"] for r in rows))
    cols = sorted({m for _, m in by if m.endswith("_ratio_vs_eager")})
    lines = ["## Exported training step vs eager (bench/export_step.py)", "",
             f"`{command}`", "", env, "",
             "| model | input | eager step (ms) | " + " | ".join(c.replace("_ratio_vs_eager", " / eager") for c in cols) + " |",
             "|---|---|---|" + "---|" * len(cols)]
    for m in models:
        cells = [f"{by.get((m, c), float('nan')):.3g} x" for c in cols]
        shape, width = CONFIGS[m]
        lines.append(f"| {m} | {'x'.join(map(str, shape))}, width {width or 'default'} | {by[(m, 'eager_step_ms')]:.2f} | "
                     + " | ".join(cells) + " |")
    lines += ["", "`executorch` runs the export's speed passes (convolution as im2col + bmm, etc.; per-kernel profile in "
              "the graph-passes section); `executorch_nofast` is the same program on the portable convolution kernels. ORT "
              "and eager use their default thread pools on this host. Host CPU measurements (no device), each runtime "
              "in its own process."]
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--models", default=",".join(CONFIGS))
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--budget", type=float, default=20.0, help="seconds of timed steps per runtime (at least one)")
    ap.add_argument("--passes", choices=("both", "fast", "none"), default="both")
    ap.add_argument("--worker", choices=("eager", "executorch", "ort"), help=argparse.SUPPRESS)
    ap.add_argument("--model", help=argparse.SUPPRESS)
    ap.add_argument("--folder", help=argparse.SUPPRESS)
    ap.add_argument("--no-fast", dest="fast", action="store_false", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        return worker(args)
    from rich.progress import Progress

    from pipeline.export import FAST_PASSES, export_program

    command = command_line("export_step")
    print(command, flush=True)
    models = [m for m in args.models.split(",") if m]
    et_variants = {"both": [True, False], "fast": [True], "none": [False]}[args.passes]
    if not FAST_PASSES and len(et_variants) == 2:
        et_variants = [True]  # no speed passes registered: both variants are the same program
    rows: list[dict] = []
    workdir = Path(tempfile.mkdtemp(prefix="export_step-"))
    with Progress() as bar:
        task = bar.add_task("models", total=len(models) * (3 + len(et_variants)))  # eager x2, ort, et variants
        for model in models:
            bar.update(task, description=f"{model}: eager")
            eager = run_worker(model, "eager", None, True, args.repeats, args.budget)
            bar.advance(task)
            results: dict[str, dict] = {}
            plan = [("ort", True)] + [("executorch", f) for f in et_variants]
            for runtime, fast in plan:
                label = runtime if fast or runtime == "ort" else "executorch_nofast"
                if runtime == "executorch" and not FAST_PASSES:
                    label = "executorch"
                bar.update(task, description=f"{model}: export + {label}")
                folder = export_program(request(model, runtime, fast), workdir / f"{model}-{runtime}-{fast}").folder
                res = run_worker(model, runtime, folder, fast, args.repeats, args.budget)
                results[label] = res
                bar.advance(task)
            # eager again after the runtimes: on a shared machine, load drifts; the baseline is the lower median
            after = run_worker(model, "eager", None, True, args.repeats, args.budget)
            bar.advance(task)
            base = min(eager["median_s"], after["median_s"])
            rows.append({"name": model, "metric": "eager_step_ms", "value": base * 1e3, "unit": "ms", "goal": None,
                         "before_after_ms": [eager["median_s"] * 1e3, after["median_s"] * 1e3]})
            for label, res in results.items():
                rows.append({"name": model, "metric": f"{label}_ratio_vs_eager", "value": res["median_s"] / base,
                             "unit": "x", "goal": None, "repeats": res["n"]})
    shutil.rmtree(workdir, ignore_errors=True)
    env = (f"{platform.machine()}, {os.cpu_count()} cores (shared), Python {platform.python_version()}, batch {BATCH}, "
           f"medians of up to {args.repeats} steps after a warm-up; eager timed before and after the runtimes, "
           f"the lower median is the baseline; fast passes registered: {len(FAST_PASSES)}")
    write_results_json("export_step", command, rows, indent=2, environment=env)
    write_section("export_step", markdown(command, rows, env))
    for r in rows:
        print(f"{r['name']:18s} {r['metric']:34s} {r['value']:10.3f} {r['unit']}")


if __name__ == "__main__":
    main()
