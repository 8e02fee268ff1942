"""The native runner's training step vs PyTorch eager (one thread) vs the Python ExecuTorch binding.

Per model (the bench/export_step.py configurations, batch 32, 50% weight masks, default fast
passes): the bare native step (``edgecl-runner bench-step``: forward_backward + float32 SGD), the
same program through the Python device backend (``train_step``), and eager PyTorch
(``EagerReference.step``, ``torch.set_num_threads(1)``), each in its own process, alternating for
``--rounds`` rounds on this shared host; medians of the per-round medians. Also each process's peak
RSS (GNU time) and the stripped binary size per ABI. The native step uses fixed synthetic inputs
of the program's shapes; the others a DER++-shaped replay batch (the arithmetic per step is the same).

Run: ``python bench/native.py [--models mlp,small_cnn,cnn1d,resnet18_reduced] [--rounds 3] [--steps 20]``
"""
from __future__ import annotations

import argparse
import json
import platform
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from export_step import CONFIGS, request
from results_io import command_line, shared_host, write_results_json, write_section

ROOT = Path(__file__).resolve().parents[1]
MODELS = ("mlp", "small_cnn", "cnn1d", "resnet18_reduced")
GOAL_LIMIT = 1.2
GOAL_VS_EAGER = f"<= {GOAL_LIMIT}"
WORKER_TIMEOUT_S = 1200
TIME = "/usr/bin/time"  # GNU time (Debian package time), for the peak RSS of each runtime process


def worker(args: argparse.Namespace) -> None:
    """Time ``args.steps`` steps of one Python runtime in this process; print one JSON line."""
    from pipeline.export.reference import replay_batch

    req = request(args.model, "executorch", True)
    batch = replay_batch(req, seed=0)
    if args.worker == "eager":
        import torch

        from pipeline.export.reference import EagerReference

        torch.set_num_threads(1)
        ref = EagerReference(req)
        step = lambda: ref.step(batch)  # noqa: E731
    else:
        from android_harness.device.backends import load_backend

        backend = load_backend(args.folder)
        step = lambda: backend.train_step(batch, req.lr)  # noqa: E731
    for _ in range(args.warmup):
        step()
    times = []
    for _ in range(args.steps):
        t0 = time.perf_counter()
        step()
        times.append(time.perf_counter() - t0)
    print(json.dumps({"step_ms_median": statistics.median(times) * 1e3}))


def run_measured(cmd: list[str]) -> tuple[dict, float]:
    """Run ``cmd``; its last JSON stdout line and its peak RSS in MB.

    The peak comes from GNU time (``/usr/bin/time -f %M``), which forks the command from its own
    small process: a child forked straight from this Python process would inherit its high-water
    mark (Linux keeps ``ru_maxrss`` across exec), and every runtime would report this process's size.
    """
    with tempfile.NamedTemporaryFile("r", suffix=".rss") as rss:
        try:
            proc = subprocess.run([TIME, "-f", "%M", "-o", rss.name, *cmd], capture_output=True, text=True, cwd=ROOT,
                                  timeout=WORKER_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            raise SystemExit(f"timed out after {WORKER_TIMEOUT_S} s: {shlex.join(cmd)}") from None
        lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("{")]
        if proc.returncode or not lines:
            raise SystemExit(f"failed ({proc.returncode}): {shlex.join(cmd)}\n{proc.stderr[-2000:]}")
        peak_kb = float(Path(rss.name).read_text().split()[-1])
    return json.loads(lines[-1]), peak_kb / 1024.0


def python_worker(runtime: str, model: str, folder: Path, steps: int, warmup: int) -> list[str]:
    return [sys.executable, __file__, "--worker", runtime, "--model", model, "--folder", str(folder),
            "--steps", str(steps), "--warmup", str(warmup)]


def measure_model(model: str, binary: Path, folder: Path, rounds: int, steps: int, warmup: int) -> list[dict]:
    cmds = {
        "native": [str(binary), "bench-step", str(folder), "--steps", str(steps), "--warmup", str(warmup)],
        "python_executorch": python_worker("executorch", model, folder, steps, warmup),
        "eager": python_worker("eager", model, folder, steps, warmup),
    }
    per_round: dict[str, list[float]] = {k: [] for k in cmds}
    rss: dict[str, float] = {k: 0.0 for k in cmds}
    forward_backward: list[float] = []
    for _ in range(rounds):
        for label, cmd in cmds.items():
            res, peak = run_measured(cmd)
            per_round[label].append(res["step_ms_median"])
            rss[label] = max(rss[label], peak)
            if label == "native":
                forward_backward.append(res["forward_backward_ms_median"])
    step = {k: statistics.median(v) for k, v in per_round.items()}
    rows = [{"name": model, "metric": f"{k}_step_ms", "value": round(v, 4), "unit": "ms", "goal": None,
             "per_round": [round(x, 4) for x in per_round[k]]} for k, v in step.items()]
    rows.append({"name": model, "metric": "native_forward_backward_ms", "value": round(statistics.median(forward_backward), 4),
                 "unit": "ms", "goal": None})
    rows.append({"name": model, "metric": "native_vs_eager", "value": round(step["native"] / step["eager"], 3),
                 "unit": "x", "goal": GOAL_VS_EAGER})
    rows.append({"name": model, "metric": "native_vs_python_executorch",
                 "value": round(step["native"] / step["python_executorch"], 3), "unit": "x", "goal": None})
    rows += [{"name": model, "metric": f"{k}_peak_rss_mb", "value": round(v, 1), "unit": "MB", "goal": None}
             for k, v in rss.items()]
    return rows


def markdown(command: str, rows: list[dict], env: str) -> str:
    by = {(r["name"], r["metric"]): r for r in rows}
    models = [m for m in dict.fromkeys(r["name"] for r in rows) if (m, "native_step_ms") in by]
    lines = ["## Native runner step vs eager and the Python binding (bench/native.py)", "", f"`{command}`", "", env, "",
             "| model | input | eager (ms) | Python ExecuTorch (ms) | native (ms) | native / eager (goal <= 1.2) | "
             "native / Python ET | peak RSS native / Python ET / eager (MB) |",
             "|---|---|---|---|---|---|---|---|"]
    for m in models:
        v = lambda metric: by[(m, metric)]["value"]  # noqa: E731
        shape, width = CONFIGS[m]
        lines.append(f"| {m} | {'x'.join(map(str, shape))}, width {width or 'default'} | {v('eager_step_ms'):.2f} | "
                     f"{v('python_executorch_step_ms'):.2f} | {v('native_step_ms'):.2f} | {v('native_vs_eager'):.2f} x | "
                     f"{v('native_vs_python_executorch'):.2f} x | {v('native_peak_rss_mb'):.0f} / "
                     f"{v('python_executorch_peak_rss_mb'):.0f} / {v('eager_peak_rss_mb'):.0f} |")
    met = [m for m in models if by[(m, "native_vs_eager")]["value"] <= GOAL_LIMIT]
    missed = [f"{m} ({by[(m, 'native_vs_eager')]['value']:.2f} x)" for m in models if m not in met]
    verdict = (f"met for every model ({', '.join(met)})" if not missed else
               f"met for {', '.join(met) or 'none'}; missed for {', '.join(missed)}")
    lines += ["", f"Goal native / eager <= {GOAL_LIMIT}: {verdict}."]
    lines += ["", "| figure | value |", "|---|---|"]
    for r in rows:
        if r["name"] == "edgecl-runner":
            lines.append(f"| {r['metric']} | {r['value']} {r['unit']} |")
    lines += ["", "Bare native step = `edgecl-runner bench-step` (forward_backward + float32 SGD, no runner around it). "
              "The session runner's figures (runner step / bare forward_backward, session start) are "
              "bench/native_runner.py's, in its own section."]
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--models", default=",".join(MODELS))
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--steps", type=int, default=20)
    ap.add_argument("--warmup", type=int, default=3)
    ap.add_argument("--worker", choices=("eager", "executorch"), help=argparse.SUPPRESS)
    ap.add_argument("--model", help=argparse.SUPPRESS)
    ap.add_argument("--folder", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        return worker(args)
    from rich.progress import Progress

    from android_harness.native import ABIS, ToolchainMissing, build_runner
    from pipeline.export import export_program

    command = command_line("native")
    print(command, flush=True)
    binaries = {}
    for abi in ABIS:
        try:
            binaries[abi] = build_runner(abi)
        except ToolchainMissing as exc:
            print(f"skipping {abi}: {exc}", file=sys.stderr)
    if "x86_64" not in binaries:
        raise SystemExit("bench/native.py needs the x86_64 build (the host)")
    rows: list[dict] = [{"name": "edgecl-runner", "metric": f"stripped_size_{abi}", "value": round(b.stat().st_size / 1e6, 2),
                         "unit": "MB", "goal": None} for abi, b in binaries.items()]
    models = [m for m in args.models.split(",") if m]
    workdir = Path(tempfile.mkdtemp(prefix="bench-native-"))
    with Progress() as bar:
        task = bar.add_task("models", total=len(models))
        for model in models:
            bar.update(task, description=f"{model}: export")
            folder = export_program(request(model, "executorch", True), workdir / model).folder
            bar.update(task, description=f"{model}: {args.rounds} rounds of native / Python ExecuTorch / eager")
            rows += measure_model(model, binaries["x86_64"], folder, args.rounds, args.steps, args.warmup)
            bar.advance(task)
    env = (f"{shared_host()}, Python {platform.python_version()}, batch 32, {args.rounds} alternating rounds of "
           f"{args.steps} steps after {args.warmup} warm-up steps, medians of per-round medians; every runtime in its "
           "own process, one thread")
    write_results_json("native", command, rows, environment=env)
    write_section("native", markdown(command, rows, env))
    for r in rows:
        print(f"{r['name']:18s} {r['metric']:34s} {r['value']} {r['unit']}")


if __name__ == "__main__":
    main()
