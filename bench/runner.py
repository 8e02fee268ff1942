"""Runner overhead: runner step time vs a bare runtime loop on the same batches, and swap on vs off.

    python bench/runner.py [--models mlp small_cnn] [--rounds 3] [--epochs 6]

Setup (host filesystem, no adb): Split Digits shards, an ORT export per model, task 0 trained once
to a checkpoint (EM full, storage tier holding task 0). Each measurement trains task 1 from that
checkpoint in its OWN process (ORT's thread pool spins after work, so runtimes never share one):
- ``runner``: the device runner (the engine: EM ∪ SB rows, swap plan and reads, DER++ bookkeeping, events,
  checkpoints only at task end); time per step = sum of its epoch seconds / steps;
- ``bare``: the backend's ``train_step`` alone over the same number of pre-assembled batches of
  task 1's first epochs (assembled before the timer starts);
- ``runner`` with swap_ratio 1.0 vs 0.0 (swap every iteration).
Rounds alternate the variants; medians are reported. Host figures, not a phone's.
"""
from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bench.results_io import load_row, write_results_json, write_section  # noqa: E402


def spec_for(model: str, epochs: int):
    from pipeline.config import parse_spec

    return parse_spec({"name": f"bench-runner-{model}", "seed": 0, "data": {"kind": "digits", "tasks": 5, "classes_per_task": 2},
                       "model": {"kind": model, "hidden": [100, 100]},
                       "train": {"method": "derpp", "epochs": epochs, "batch_size": 32, "lr": 0.03},
                       "replay": {"em_size": 200, "sb_size": 400, "swap_ratio": 0.0}})


def setup(root: Path, model: str, epochs: int) -> None:
    """Shards, export, and the task-0 checkpoint every measurement resumes from."""
    from android_harness.device.runner import Runner
    from tests._runner_env import build_root, new_session

    spec = spec_for(model, epochs)
    data = build_root(spec, root, "ort")
    session = new_session(spec, root, data, "base", tasks=data.tasks[:1], replay_dir="replay/base")
    result = Runner(str(session)).run()
    assert result["status"] == "ok", result["error"]
    (root / "base_checkpoint.txt").write_text(result["checkpoint"])


def measure_runner(root: Path, model: str, epochs: int, swap: float, tag: str) -> dict:
    import shutil

    from android_harness.device.events import read_events
    from android_harness.device.runner import Runner
    from tests._runner_env import new_session
    from pipeline.experiment_prep import write_shards

    spec = spec_for(model, epochs)
    spec.replay.swap_ratio = swap
    data = write_shards(spec, root)
    replay = root / "replay" / tag
    shutil.rmtree(replay, ignore_errors=True)
    shutil.copytree(root / "replay" / "base", replay)
    session = new_session(spec, root, data, tag, tasks=[data.tasks[1]], replay_dir=f"replay/{tag}",
                          resume_from=(root / "base_checkpoint.txt").read_text())
    result = Runner(str(session)).run()
    assert result["status"] == "ok", result["error"]
    events, _ = read_events(str(session / "events.jsonl"))
    epochs = [e for e in events if e["type"] == "epoch"]
    steps = result["iterations"] - json.loads((root / "base_steps.json").read_text())["steps"]
    per_epoch = steps // len(epochs)
    seconds = sum(e["seconds"] for e in epochs[1:])  # epoch 0 warms the runtime up (bare skips as many steps)
    shutil.rmtree(session, ignore_errors=True)
    return {"per_step_s": seconds / (per_epoch * (len(epochs) - 1)), "steps": steps, "warmup": per_epoch,
            "swapped": sum(e["n_swapped"] for e in events if e["type"] == "swap")}


def measure_bare(root: Path, model: str, epochs: int, steps: int, warmup: int) -> dict:
    """The backend's train_step alone over the step batches of task 1's first epochs (assembled up front)."""
    import numpy as np

    from android_harness.device.backends import load_backend
    from android_harness.device.checkpoint import load_checkpoint
    from android_harness.device.pool import StepRows, epoch_permutation, epoch_pool, step_entries, steps_in_epoch
    from android_harness.device.replay import EpisodicMemory, RecordFormat, StorageTier, em_refs
    from android_harness.device.spec_tables import TrainConfig
    from android_harness.device.session_spec import device_table
    from android_harness.device.stream_buffer import StreamBuffer
    from android_harness.device.task_data import TaskData
    from pipeline.experiment_prep import write_shards

    spec = spec_for(model, epochs)
    data = write_shards(spec, root)
    backend = load_backend(root / "models" / "ort")
    state, arrays = load_checkpoint(str(root / (root / "base_checkpoint.txt").read_text()))
    backend.load_state_arrays(arrays, int(state["opt_step"]))
    sig = backend.signature
    task = data.tasks[1]
    sb = StreamBuffer.build(TaskData(str(data.folder)), task, spec.seed, spec.replay.sb_size, False, 1.0, sig.num_classes)
    store = StorageTier(str(root / "replay" / "base"), RecordFormat(tuple(sig.inputs[0].shape[1:]), sig.num_classes),
                        1 << 30, read_only=True)
    em = EpisodicMemory.load(store, em_refs(store, spec.replay.em_size, spec.seed, task), sb.x.shape[1:], sig.num_classes)
    rows = StepRows(device_table(TrainConfig, spec.train), sig.batch_size, sig.num_classes, TaskData(str(data.folder)).classes(task))
    batches, epoch = [], 0
    while len(batches) < steps:
        perm = epoch_permutation(epoch_pool(np.arange(sb.size), sb.size, em.size), spec.seed, task, epoch)
        for k in range(steps_in_epoch(len(perm), sig.batch_size)):
            batches.append(rows.build(step_entries(perm, k, sig.batch_size), sb, em).inputs)
        epoch += 1
    batches = batches[:steps]
    for inputs in batches[:warmup]:
        backend.train_step(inputs, spec.train.lr)
    t0 = time.perf_counter()
    for inputs in batches[warmup:]:
        backend.train_step(inputs, spec.train.lr)
    store.close()
    return {"per_step_s": (time.perf_counter() - t0) / (steps - warmup), "steps": steps}


def child(args: argparse.Namespace) -> None:
    root = Path(args.root)
    if args.measure == "setup":
        setup(root, args.model, args.epochs)
        steps = json.loads(json.dumps({"steps": 0}))
        ckpt = (root / "base_checkpoint.txt").read_text()
        steps["steps"] = int(ckpt.rsplit("-", 1)[1])
        (root / "base_steps.json").write_text(json.dumps(steps))
        return
    if args.measure == "runner":
        out = measure_runner(root, args.model, args.epochs, args.swap, args.tag)
    else:
        out = measure_bare(root, args.model, args.epochs, args.steps, args.warmup)
    print("RESULT " + json.dumps(out), flush=True)


def run_child(*argv: str) -> dict:
    proc = subprocess.run([sys.executable, __file__, "--child", *argv], capture_output=True, text=True, cwd=REPO)
    if proc.returncode != 0:
        raise SystemExit(f"bench child {argv} failed:\n{proc.stderr[-3000:]}")
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("RESULT ")]
    return json.loads(lines[-1][7:]) if lines else {}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--models", nargs="+", default=["mlp", "small_cnn"])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--epochs", type=int, default=6)
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--measure", default="", help=argparse.SUPPRESS)
    ap.add_argument("--root", default="", help=argparse.SUPPRESS)
    ap.add_argument("--model", default="mlp", help=argparse.SUPPRESS)
    ap.add_argument("--swap", type=float, default=0.0, help=argparse.SUPPRESS)
    ap.add_argument("--tag", default="m", help=argparse.SUPPRESS)
    ap.add_argument("--steps", type=int, default=0, help=argparse.SUPPRESS)
    ap.add_argument("--warmup", type=int, default=0, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        child(args)
        return
    from rich.progress import Progress

    command = "python bench/runner.py " + " ".join(["--models", *args.models, "--rounds", str(args.rounds), "--epochs", str(args.epochs)])
    print(command)
    rows = []
    with tempfile.TemporaryDirectory(prefix="edgecl-bench-runner-") as tmp, Progress() as bar:
        task = bar.add_task("runner bench", total=len(args.models) * (1 + 3 * args.rounds))
        for model in args.models:
            root = Path(tmp) / model
            common = ["--root", str(root), "--model", model, "--epochs", str(args.epochs)]
            run_child("--measure", "setup", *common)
            bar.advance(task)
            runner, bare, swap = [], [], []
            for r in range(args.rounds):
                off = run_child("--measure", "runner", "--swap", "0", "--tag", f"off{r}", *common)
                bar.advance(task)
                on = run_child("--measure", "runner", "--swap", "1.0", "--tag", f"on{r}", *common)
                bar.advance(task)
                b = run_child("--measure", "bare", "--steps", str(off["steps"]), "--warmup", str(off["warmup"]), *common)
                bar.advance(task)
                runner.append(off["per_step_s"]), bare.append(b["per_step_s"]), swap.append(on["per_step_s"])
                assert on["swapped"] > 0
            med = statistics.median
            rows += [
                {"name": f"{model}_ort_bare_step (host)", "metric": "time", "value": round(med(bare) * 1e3, 4), "unit": "ms", "goal": None},
                {"name": f"{model}_ort_runner_step (host)", "metric": "time", "value": round(med(runner) * 1e3, 4), "unit": "ms", "goal": None},
                {"name": f"{model}_runner_step_ratio_vs_bare_runtime", "metric": "ratio",
                 "value": round(med(r / b for r, b in zip(runner, bare)), 4), "unit": "x", "goal": "<= 1.10"},
                {"name": f"{model}_swap1.0_step_ratio_vs_swap_off", "metric": "ratio",
                 "value": round(med(s / r for s, r in zip(swap, runner)), 4), "unit": "x", "goal": "<= 1.05"},
                {"name": f"{model}_per_round_ratios (runner/bare; swap on/off)", "metric": "spread", "value": 0, "unit": "",
                 "goal": "diagnostic: " + "; ".join(f"{r / b:.2f}, {s / r:.2f}" for r, b, s in zip(runner, bare, swap))},
            ]
    rows.append(load_row("2 cpus shared with other jobs: absolute times are noisy, ratios are side by side"))
    write_results_json("runner", command, rows)
    write_md(command, rows, args)
    for row in rows:
        print(f"{row['name']:45s} {row['value']:>10} {row['unit']:3s} {row['goal'] or ''}")


def write_md(command: str, rows: list[dict], args: argparse.Namespace) -> None:
    body = ["## Device runner overhead (bench/runner.py)", "", f"`{command}`", "",
            f"Host filesystem, ORT backend, Split Digits task 2 of 5 (DER++, EM 200 from a task-1 checkpoint, "
            f"{args.epochs} epochs), each measurement in its own process, {args.rounds} alternating rounds, medians. "
            "`bare` = `backend.train_step` over pre-assembled batches of the same shapes; `runner` = the whole device "
            "runner step (the engine: EM ∪ SB rows, swap plan and background reads, DER++ bookkeeping, events); swap 1.0 = swap every iteration. "
            "The runner's own work per step is Python/numpy (measured alone: bench/NOTES-2026-12.md): against a "
            "sub-millisecond MLP step the 10% goal is out of reach; against a conv step it is within the noise of this "
            "shared host (see the per-round spread).", "",
            "| figure | value | goal |", "|---|---|---|"]
    body += [f"| {r['name']} | {r['value']} {r['unit']} | {r['goal'] or ''} |" for r in rows]
    write_section("runner", "\n".join(body))


if __name__ == "__main__":
    main()
