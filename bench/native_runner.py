"""The session runner around the program: `edgecl-runner run` step time vs the bare forward_backward,
and session start (process start to the first finished step), one-shot and served.

Per model (bench/export_step.py's configurations: batch 32, 10 classes, 50% weight masks): a storage
root with two synthetic tasks of that input shape (random float32, 5 classes each; speed does not
depend on the values), then per round, each in its own process, alternating:
- ``edgecl-runner bench-step``: the bare forward_backward median of the same program (reference);
- ``edgecl-runner run`` on DER++ sessions of both tasks (EM 200, SB 400): "dense" (the host's default:
  no swap), "swap" (Miro's swap 0.5) and "sparcl" (swap + TDM + DDR + DGM), with EDGECL_PROFILE set:
  the runner then times every training step by part in the same process, so "runner step / bare
  forward_backward" is the steps' whole wall time (rows, forward_backward, DGM, optimizer, BatchNorm
  statistics, DDR, swap plan and wait, trace, events and checks between steps) over the time inside
  forward_backward in those same steps, and the dense sessions' parts say where the rest goes;
- session start: a one-task session with step events every step, spawned here: CLOCK_MONOTONIC at
  spawn to the first `step` event's `t` (program load, shards, EM, first forward_backward);
- served start: the same session queued to a running `edgecl-runner serve` whose cache already
  holds the program: queue-file rename to the first `step` event.
Medians of the per-round values.

Run: ``python bench/native_runner.py [--models mlp,small_cnn] [--rounds 3] [--epochs 4]``
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from export_step import CONFIGS, request
from results_io import command_line, shared_host, write_results_json, write_section

ROOT = Path(__file__).resolve().parents[1]
MODELS = ("mlp", "small_cnn")
GOAL_STEP = "<= 1.05"
GOAL_SPARCL_STEP = "<= 1.10"   # SparCL's own work (masks, TDM, DDR, DGM) on top of its forward_backward
GOAL_START = "<= 0.2"
TRAIN_PER_CLASS, TEST_PER_CLASS = 120, 20


def _events(folder: Path) -> list[dict]:
    path = folder / "events.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


def build_root(model: str, root: Path) -> str:
    """The export and two synthetic tasks under ``root``; returns the data folder (relative)."""
    sys.path.insert(0, str(ROOT))
    from pipeline.export import export_program

    export_program(request(model, "executorch", True), root / "models" / model)
    return synthetic_tasks(model, root)


def synthetic_tasks(model: str, root: Path) -> str:
    """Two synthetic tasks of ``model``'s input shape under ``root``; returns the data folder (relative)."""
    sys.path.insert(0, str(ROOT))
    from pipeline.datasets.dataset import Dataset
    from pipeline.datasets.split import Task
    from pipeline.datasets.task_shards import write_task_shards

    shape = CONFIGS[model][0]
    rng = np.random.default_rng(0)
    tasks = []
    for t in range(2):
        classes = np.arange(5 * t, 5 * t + 5)
        make = lambda n: (rng.standard_normal((n * 5, *shape)).astype(np.float32), np.repeat(classes, n))  # noqa: E731
        (xtr, ytr), (xte, yte) = make(TRAIN_PER_CLASS), make(TEST_PER_CLASS)
        tasks.append(Task(t, classes, xtr, ytr, xte, yte))
    ds = Dataset("synthetic", tasks[0].x_train, tasks[0].y_train, tasks[0].x_test, tasks[0].y_test, tuple(shape), 10,
                 "bench/native_runner.py (random float32)")
    write_task_shards(tasks, ds, root / "data" / "synthetic")
    return "data/synthetic"


def session(root: Path, sid: str, model: str, data: str, tasks: list[int], epochs: int, sparcl: bool,
            step_event_every: int, swap: float = 0.0) -> Path:
    folder = root / "sessions" / sid
    folder.mkdir(parents=True)
    spec = {"session_id": sid, "model_dir": f"models/{model}", "data_dir": data, "replay_dir": f"replay/{sid}",
            "tasks": tasks, "seed": 1, "step_event_every": step_event_every,
            "train": {"method": "derpp", "epochs": epochs, "batch_size": 32, "lr": 0.01},
            "replay": {"em_size": 200, "sb_size": 400, "swap_ratio": swap},
            "sparcl": {"enabled": sparcl, "sparsity": 0.5, "tdm_update_every": 0.25, "ddr_fraction": 0.2,
                       "ddr_steps": [0.25, 0.5], "dgm_period": 5}}
    (folder / "session.json").write_text(json.dumps(spec, indent=1))
    return folder


def run_session(binary: Path, folder: Path) -> tuple[float, list[dict]]:
    """Run one session; (CLOCK_MONOTONIC at spawn, its events)."""
    t0 = time.monotonic()
    out = subprocess.run([str(binary), "run", str(folder)], capture_output=True, text=True)
    if out.returncode:
        raise SystemExit(f"edgecl-runner run {folder} failed: {out.stderr[-2000:]}")
    return t0, _events(folder)


def run_profiled(binary: Path, folder: Path) -> dict:
    """Run one session with EDGECL_PROFILE; the runner's per-part step times."""
    prof = folder / "profile.json"
    out = subprocess.run([str(binary), "run", str(folder)], capture_output=True, text=True,
                         env={**os.environ, "EDGECL_PROFILE": str(prof)})
    if out.returncode:
        raise SystemExit(f"edgecl-runner run {folder} failed: {out.stderr[-2000:]}")
    return json.loads(prof.read_text())


def first_step_s(t0: float, events: list[dict]) -> float:
    return next(e["t"] for e in events if e["type"] == "step") - t0


def served_start_s(binary: Path, root: Path, model: str, data: str) -> float:
    """Queue a warm-up session then the measured one to `serve`; enqueue -> its first step event."""
    queue = root / "runner" / "queue"
    queue.mkdir(parents=True, exist_ok=True)
    proc = subprocess.Popen([str(binary), "serve", str(queue), "30"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        t_enqueue = 0.0
        for sid in ("warm", "served"):
            folder = session(root, f"{sid}-{time.monotonic_ns()}", model, data, [0], 1, False, 1)
            tmp = queue / f".{folder.name}.tmp"
            tmp.write_text(str(folder))
            t_enqueue = time.monotonic()
            os.replace(tmp, queue / folder.name)
            deadline = time.monotonic() + 600
            while not (folder / "result.json").exists():
                if time.monotonic() > deadline or proc.poll() is not None:
                    raise SystemExit(f"served session {folder} did not finish: {proc.stderr.read() if proc.stderr else ''}")
                time.sleep(0.005)
        return first_step_s(t_enqueue, _events(folder))
    finally:
        proc.kill()
        proc.wait()


def bare_forward_backward_ms(binary: Path, folder: Path, steps: int) -> float:
    out = subprocess.run([str(binary), "bench-step", str(folder), "--steps", str(steps), "--warmup", "3"],
                         capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])["forward_backward_ms_median"]


KINDS = {"dense": (False, 0.0), "swap": (False, 0.5), "sparcl": (True, 0.5)}
# The runner's own work in a dense step, by profile part (the rest of the parts summed as "other").
WORK_PARTS = ("rows", "optimizer", "between_steps")


def work_us(prof: dict) -> dict[str, float]:
    """Microseconds per step of each of WORK_PARTS and of the other non-forward_backward parts."""
    parts, n = prof["parts"], prof["steps"]
    out = {p: parts[p] / n * 1e6 for p in WORK_PARTS}
    out["other"] = sum(v for k, v in parts.items() if k not in WORK_PARTS and k != "forward_backward") / n * 1e6
    return out


def measure(model: str, binary: Path, work: Path, rounds: int, epochs: int) -> list[dict]:
    root = work / model
    data = build_root(model, root)
    ratio: dict[str, list[float]] = {k: [] for k in KINDS}
    step_ms: dict[str, list[float]] = {k: [] for k in KINDS}
    fb_ms: dict[str, list[float]] = {k: [] for k in KINDS}
    values: dict[str, list[float]] = {k: [] for k in ("fb", "start", "served")}
    work: dict[str, list[float]] = {p: [] for p in (*WORK_PARTS, "other")}
    for r in range(rounds):
        values["fb"].append(bare_forward_backward_ms(binary, root / "models" / model, 30))
        for kind, (sparcl, swap) in KINDS.items():
            prof = run_profiled(binary, session(root, f"{kind}-{r}", model, data, [0, 1], epochs, sparcl, 10, swap))
            ratio[kind].append(prof["step_seconds"] / prof["parts"]["forward_backward"])
            step_ms[kind].append(prof["step_seconds"] / prof["steps"] * 1e3)
            fb_ms[kind].append(prof["parts"]["forward_backward"] / prof["steps"] * 1e3)
            if kind == "dense":
                for part, us in work_us(prof).items():
                    work[part].append(us)
        t0, ev = run_session(binary, session(root, f"start-{r}", model, data, [0], 1, False, 1))
        values["start"].append(first_step_s(t0, ev))
        values["served"].append(served_start_s(binary, root, model, data))
        shutil.rmtree(root / "replay", ignore_errors=True)
    med = lambda v: statistics.median(v)  # noqa: E731
    rows = [{"name": model, "metric": "bare_forward_backward_ms", "value": round(med(values["fb"]), 4), "unit": "ms",
             "goal": None}]
    for kind in KINDS:
        rows.append({"name": model, "metric": f"runner_step_ms_{kind}", "value": round(med(step_ms[kind]), 4), "unit": "ms",
                     "goal": None, "per_round": [round(v, 4) for v in step_ms[kind]]})
        rows.append({"name": model, "metric": f"session_forward_backward_ms_{kind}", "value": round(med(fb_ms[kind]), 4),
                     "unit": "ms", "goal": None})
        rows.append({"name": model, "metric": f"runner_step_vs_bare_forward_backward_{kind}",
                     "value": round(med(ratio[kind]), 3), "unit": "x", "goal": {"dense": GOAL_STEP, "sparcl": GOAL_SPARCL_STEP}.get(kind),
                     "per_round": [round(v, 3) for v in ratio[kind]]})
    for part, v in work.items():
        rows.append({"name": model, "metric": f"runner_work_us_dense_{part}", "value": round(med(v), 2), "unit": "us",
                     "goal": None})
    rows.append({"name": model, "metric": "session_start_s", "value": round(med(values["start"]), 4), "unit": "s",
                 "goal": GOAL_START, "per_round": [round(v, 4) for v in values["start"]]})
    rows.append({"name": model, "metric": "served_session_start_s", "value": round(med(values["served"]), 4), "unit": "s",
                 "goal": None, "per_round": [round(v, 4) for v in values["served"]]})
    return rows


def markdown(command: str, rows: list[dict], env: str) -> str:
    by = {(r["name"], r["metric"]): r["value"] for r in rows}
    models = list(dict.fromkeys(r["name"] for r in rows))
    lines = ["## The session runner around the program (bench/native_runner.py)", "", f"`{command}`", "", env, "",
             "| model | bench-step forward_backward (ms) | in-session forward_backward dense / swap / SparCL (ms) | "
             "runner step dense / swap / SparCL (ms) | "
             "step / forward_backward: dense (goal <= 1.05) / swap / SparCL (goal <= 1.10) | session start (s, goal <= 0.2) | "
             "served start (s) |",
             "|---|---|---|---|---|---|---|"]
    for m in models:
        v = lambda k: by[(m, k)]  # noqa: E731
        steps = " / ".join(f"{v(f'runner_step_ms_{k}'):.3f}" for k in KINDS)
        fbs = " / ".join(f"{v(f'session_forward_backward_ms_{k}'):.3f}" for k in KINDS)
        ratios = " / ".join(f"{v(f'runner_step_vs_bare_forward_backward_{k}'):.3f}" for k in KINDS)
        lines.append(f"| {m} | {v('bare_forward_backward_ms'):.3f} | {fbs} | {steps} | {ratios} | {v('session_start_s'):.3f} | "
                     f"{v('served_session_start_s'):.3f} |")
    work = lambda m: ", ".join(f"{p} {by[(m, f'runner_work_us_dense_{p}')]:.1f}" for p in (*WORK_PARTS, "other"))  # noqa: E731
    lines += ["", "The runner's own work in a dense step (us, from the same profiles): "
              + "; ".join(f"{m}: {work(m)}" for m in models)
              + " (rows = the step's input rows; optimizer = the SGD update; between_steps = events, resources, "
              "checkpoint and cancel checks; other = the remaining parts)."]
    lines += ["", "Ratios come from the runner's own step profile (EDGECL_PROFILE): all of a step's wall time over the "
              "time inside forward_backward, in the same steps of one process (in-session forward_backward); the "
              "bench-step column is `edgecl-runner bench-step`'s bare forward_backward on fixed inputs, for reference. dense = DER++ without swap (the host's default), swap = with "
              "Miro's swap 0.5, SparCL = swap + TDM + DDR + DGM. Session start = spawn of `edgecl-runner run` to its "
              "first step event; served = queue rename to the first step event with the program already loaded."]
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--models", default=",".join(MODELS))
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--epochs", type=int, default=4)
    args = ap.parse_args()
    sys.path.insert(0, str(ROOT))
    from rich.progress import Progress

    from android_harness.native import build_runner

    command = command_line("native_runner")
    print(command, flush=True)
    binary = build_runner("x86_64")
    work = Path(tempfile.mkdtemp(prefix="bench-native-runner-"))
    rows: list[dict] = []
    models = [m for m in args.models.split(",") if m]
    with Progress() as bar:
        task = bar.add_task("models", total=len(models))
        for model in models:
            bar.update(task, description=f"{model}: {args.rounds} rounds")
            rows += measure(model, binary, work, args.rounds, args.epochs)
            bar.advance(task)
    shutil.rmtree(work, ignore_errors=True)
    env = (f"{shared_host()}, x86_64 build, {args.rounds} alternating rounds, medians of per-round values, "
           f"{args.epochs} epochs per task, {TRAIN_PER_CLASS * 5} training rows per task (SB 400)")
    write_results_json("native_runner", command, rows, environment=env)
    write_section("native_runner", markdown(command, rows, env))
    for r in rows:
        print(f"{r['name']:12s} {r['metric']:46s} {r['value']} {r['unit']}")


if __name__ == "__main__":
    main()
