"""Session start cost: a one-shot runner process per session vs the persistent runner (``serve``), and the
ORT backend load with and without torch.

    python bench/session_start.py [--runtimes ort executorch] [--rounds 3]

Setup (host filesystem, no adb; the virtual phone runs the same zip with the same python): Split Digits
shards (3 tasks, 60 train/class), an MLP export per runtime, sessions of task 0 for 1 epoch (training
well under a second, as in the demo's and Miro's short sessions). Per round and runtime:
- ``oneshot``: ``python3 edgecl_device.pyz run SESSION`` wall time until it exits (import + load + session);
- ``served_first``: a fresh ``serve`` process, the time from the queue entry to result.json (import + load);
- ``served_next``: a second session in the same server (backend reused and reset): queue entry -> result.json.
And ``backend_load``: ``load_backend`` in a fresh process from the zip, ORT torch-free (``ort_runtime``) vs
a plain ``import onnxruntime`` first (which imports torch). Medians over rounds. Host figures, not a phone's.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))
from results_io import load_row, write_results_json, write_section  # noqa: E402
LOAD_CODE = ("import sys, time; t = time.perf_counter(); sys.path.insert(0, {zip!r}); {pre}"
             "from android_harness.device.backends import load_backend; load_backend({model!r}); "
             "print(time.perf_counter() - t)")


def _wait(path: Path, timeout: float = 300.0) -> None:
    deadline = time.monotonic() + timeout
    while not path.exists():
        if time.monotonic() > deadline:
            raise TimeoutError(f"no {path} after {timeout} s")
        time.sleep(0.01)


def _enqueue(root: Path, session: Path) -> float:
    q = root / "runner" / "queue"
    q.mkdir(parents=True, exist_ok=True)
    (q / f".{session.name}.tmp").write_text(str(session))
    t = time.perf_counter()
    os.replace(q / f".{session.name}.tmp", q / session.name)
    return t


def measure(root: Path, zip_path: Path, runtime: str, r: int, spec, data) -> dict[str, float]:
    from tests._runner_env import new_session

    out: dict[str, float] = {}
    one = new_session(spec, root, data, f"{runtime}-one-{r}", runtime=runtime, tasks=data.tasks[:1], epochs=1)
    t = time.perf_counter()
    subprocess.run([sys.executable, str(zip_path), "run", str(one)], check=True, stderr=subprocess.DEVNULL, cwd="/")
    out["oneshot"] = time.perf_counter() - t
    server = subprocess.Popen([sys.executable, str(zip_path), "serve", str(root / "runner" / "queue"), "30"],
                              stderr=subprocess.DEVNULL, cwd="/")
    try:
        for label in ("served_first", "served_next"):
            s = new_session(spec, root, data, f"{runtime}-{label}-{r}", runtime=runtime, tasks=data.tasks[:1], epochs=1)
            t = _enqueue(root, s)
            _wait(s / "result.json")
            out[label] = time.perf_counter() - t
            assert json.loads((s / "result.json").read_text())["status"] == "ok"
    finally:
        server.kill()
        server.wait(timeout=30)
    model = str(root / "models" / runtime)
    for label, pre in (("load_plain", "import onnxruntime; " if runtime == "ort" else ""), ("load", "")):
        if label == "load_plain" and runtime != "ort":
            continue
        proc = subprocess.run([sys.executable, "-c", LOAD_CODE.format(zip=str(zip_path), pre=pre, model=model)],
                              capture_output=True, text=True, check=True, cwd="/")
        out[label] = float(proc.stdout.strip().splitlines()[-1])
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runtimes", nargs="+", default=["ort", "executorch"])
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    command = "python bench/session_start.py" + (f" --runtimes {' '.join(args.runtimes)}" if args.runtimes != ["ort", "executorch"]
                                                  else "") + (f" --rounds {args.rounds}" if args.rounds != 3 else "")
    print(command)
    from rich.progress import Progress

    from android_harness.bundle import build_device_zip
    from pipeline.experiment_prep import export_request, write_shards
    from pipeline.export import export_program
    from tests._runner_env import small_spec

    spec = small_spec("er")
    rows = []
    with tempfile.TemporaryDirectory(prefix="bench-session-start-") as tmp:
        root = Path(tmp)
        zip_path = build_device_zip(root / "zip")
        data = write_shards(spec, root)
        with Progress() as bar:
            job = bar.add_task("session start", total=len(args.runtimes) * args.rounds)
            for runtime in args.runtimes:
                export_program(export_request(spec, data, runtime), root / "models" / runtime)
                got: dict[str, list[float]] = {}
                for r in range(args.rounds):
                    for k, v in measure(root, zip_path, runtime, r, spec, data).items():
                        got.setdefault(k, []).append(v)
                    bar.advance(job)
                med = {k: statistics.median(v) for k, v in got.items()}
                for k in ("oneshot", "served_first", "served_next"):
                    rows.append({"name": f"{runtime}_{k}_session", "metric": "wall_time", "value": round(med[k], 3), "unit": "s", "goal": ""})
                rows.append({"name": f"{runtime}_served_next", "metric": "ratio_vs_oneshot",
                             "value": round(med["served_next"] / med["oneshot"], 3), "unit": "x", "goal": ""})
                if "load_plain" in med:
                    rows.append({"name": f"{runtime}_backend_load_with_torch_import", "metric": "wall_time",
                                 "value": round(med["load_plain"], 3), "unit": "s", "goal": ""})
                rows.append({"name": f"{runtime}_backend_load", "metric": "wall_time", "value": round(med["load"], 3), "unit": "s", "goal": ""})
                if "load_plain" in med:
                    rows.append({"name": f"{runtime}_backend_load_torch_free", "metric": "ratio_vs_with_torch_import",
                                 "value": round(med["load"] / med["load_plain"], 3), "unit": "x", "goal": ""})
    rows.append(load_row())
    write_results_json("session_start", command, rows)
    write_md(command, rows, args)
    for row in rows:
        print(f"{row['name']:45s} {row['metric']:28s} {row['value']} {row['unit']}")


def write_md(command: str, rows: list[dict], args: argparse.Namespace) -> None:
    lines = ["## Session start: one-shot runner vs persistent runner (bench/session_start.py)", "", f"`{command}`", "",
             f"Host filesystem, {os.cpu_count()} shared CPUs, medians of {args.rounds} rounds; sessions of 1 epoch on "
             "task 0 of Split Digits (MLP [32, 32]). Host figures (the virtual phone runs this same zip and python).", "",
             "| figure | value |", "|---|---|"]
    lines += [f"| {r['name']} {r['metric']} | {r['value']} {r['unit']} |" for r in rows]
    write_section("session_start", "\n".join(lines))


if __name__ == "__main__":
    main()
