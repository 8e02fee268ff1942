"""SparCL on the device: dense and SparCL sessions of the native runner side by side, one runner build.

Per model (small_cnn, cnn1d, resnet18_reduced at nf=20: bench/export_step.py's configurations, batch 32,
10 classes) one storage root with two synthetic tasks (bench/native_runner.py's), a dense export (every
mask 1) and one export per setting (unstructured 0.75 / 0.90 / 0.95, structured 0.90: random masks of
that sparsity, whole output channels when structured; the same weights). Per round, each in its own
process under GNU time (peak RSS), alternating: a DER++ session of both tasks (EM 200, SB 400, no swap)
dense, then with SparCL (TDM + DDR + DGM at the setting's sparsity and the reference recipe's
schedule), with EDGECL_PROFILE set, so every training step is timed by part in the same process.
Figures, medians of per-round values, x86_64 build, 1 thread:

- SparCL runner step / dense runner step, and the same for the time inside forward_backward alone;
- SparCL runner step / its own forward_backward (SparCL's own work per step: masks, DGM, DDR, optimizer);
- the floor: the dense program's ``bench-step`` with every masked layer at density 0.001 / dense, the
  lowest step ratio sparse products can reach while everything else runs at dense shapes;
- peak RSS of a SparCL session / the dense session, and the training arena: the export's plan and the
  runner's layout of it (``src/arena.h``) dense and at each setting, from ``bench-step``;
- per masked layer and product, sparse GFLOP/s (non-zero work only) beside the dense kernel's, from
  ``edgecl-runner bench-step --sparse on|off --mask-sparsity S`` when the runner has those flags (rows
  left out, and said so, when it has not);
- energy per task on a virtual phone (SIMULATED: its power model follows CPU time) from ``edgecl run``
  of one spec dense and with SparCL (``--energy-spec`` and ``--energy-set``, default
  experiments/split-fmnist-sparcl.toml with small_cnn at sparsity 0.9): training and whole-session joules.

Run: ``python bench/sparcl_device.py [--models small_cnn,cnn1d,resnet18_reduced] [--rounds 2] [--epochs 3]
[--no-energy]``; ``--render`` rewrites the RESULTS.md section from the json.
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
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from export_step import request
from native import TIME
from native_runner import synthetic_tasks
from results_io import BENCH_DIR, command_line, shared_host, write_results_json, write_section

ROOT = Path(__file__).resolve().parents[1]
MODELS = ("small_cnn", "cnn1d", "resnet18_reduced")
GOAL_STEP = {"u90": "<= 0.50", "u95": "<= 0.33", "s90": "<= 0.25"}
GOAL_OVERHEAD = "<= 1.10"
GOAL_RSS = "<= 0.6"
ENERGY_SPEC = ROOT / "experiments" / "split-fmnist-sparcl.toml"
ENERGY_SETS = ("model.kind=small_cnn", "sparcl.sparsity=0.9")
ENERGY_FIELDS = {"training": "training_j", "session": "energy_j"}   # per-task fields of summary.json


@dataclass(frozen=True)
class Setting:
    """One SparCL mask setting: its key, weight sparsity and whether TDM's units are output channels."""

    key: str
    sparsity: float
    structured: bool

    @property
    def label(self) -> str:
        return f"{'structured' if self.structured else 'unstructured'} {self.sparsity:g}"


SETTINGS = (Setting("u75", 0.75, False), Setting("u90", 0.90, False), Setting("u95", 0.95, False),
            Setting("s90", 0.90, True))


def export(model: str, root: Path, setting: Setting | None) -> str:
    """The program with masks of ``setting`` (None: all ones) under ``root``/models; its folder name."""
    from pipeline.export import export_program, prepare_model

    req = request(model, "executorch", True)
    rng = np.random.default_rng(1)
    masks = {}
    for name, m in prepare_model(req).masks.items():
        if setting is None:
            masks[name] = np.ones(m.shape, np.float32)
        elif setting.structured:
            keep = rng.random(m.shape[0]) >= setting.sparsity
            masks[name] = np.broadcast_to(keep.reshape(-1, *[1] * (m.ndim - 1)), m.shape).astype(np.float32)
        else:
            masks[name] = (rng.random(m.shape) >= setting.sparsity).astype(np.float32)
    req.masks = masks
    name = f"{model}-{setting.key if setting else 'dense'}"
    export_program(req, root / "models" / name)
    return name


def session(root: Path, sid: str, program: str, data: str, epochs: int, setting: Setting | None) -> Path:
    """A DER++ session of both tasks; SparCL (the reference recipe's schedule) at ``setting`` unless None."""
    folder = root / "sessions" / sid
    folder.mkdir(parents=True)
    sparcl = {"enabled": False} if setting is None else {
        "enabled": True, "sparsity": setting.sparsity, "structured": setting.structured}
    spec = {"session_id": sid, "model_dir": f"models/{program}", "data_dir": data, "replay_dir": f"replay/{sid}",
            "tasks": [0, 1], "seed": 1, "step_event_every": 10,
            "train": {"method": "derpp", "epochs": epochs, "batch_size": 32, "lr": 0.01},
            "replay": {"em_size": 200, "sb_size": 400, "swap_ratio": 0.0}, "sparcl": sparcl}
    (folder / "session.json").write_text(json.dumps(spec, indent=1))
    return folder


def run_session(binary: Path, folder: Path) -> tuple[dict, float]:
    """One profiled session under GNU time: the runner's per-part step times and the peak RSS (MB)."""
    prof, rss = folder / "profile.json", folder / "rss.txt"
    out = subprocess.run([TIME, "-f", "%M", "-o", str(rss), str(binary), "run", str(folder)], capture_output=True,
                         text=True, env={**os.environ, "EDGECL_PROFILE": str(prof)})
    if out.returncode:
        raise SystemExit(f"edgecl-runner run {folder} failed: {out.stderr[-2000:]}")
    return json.loads(prof.read_text()), int(rss.read_text().split()[-1]) / 1024


def step_report(binary: Path, folder: Path, args: list[str]) -> dict | None:
    """``edgecl-runner bench-step FOLDER ARGS``'s JSON report; None when the runner refuses the arguments."""
    out = subprocess.run([str(binary), "bench-step", str(folder), *args], capture_output=True, text=True)
    return None if out.returncode else json.loads(out.stdout.strip().splitlines()[-1])


def bench_step(binary: Path, folder: Path, setting: Setting, sparse: bool) -> dict | None:
    """bench-step's report with the sparse kernels on or off at ``setting``'s masks (its per-layer products
    and its training arena); None when this runner has no such flags."""
    report = step_report(binary, folder, ["--steps", "5", "--warmup", "2", "--sparse", "on" if sparse else "off",
                                          "--mask-sparsity", f"{setting.sparsity:g}",
                                          *(["--structured"] if setting.structured else [])])
    return report if report is not None and "sparse" in report and "arena" in report else None


def floor_ratio(binary: Path, folder: Path, dense_ms: float, rounds: int) -> float:
    """The step with every masked layer at density 0.001 (its sparse products cost next to nothing) over the
    dense step, ``bench-step`` alternating, median of per-round ratios: the lowest step ratio faster sparse
    products could reach while the rest of the step runs at the program's dense shapes."""
    steps = str(max(5, round(1000 / dense_ms)))
    ratios = []
    for _ in range(rounds):
        ms = []
        for flags in (["--sparse", "off"], ["--sparse", "on", "--mask-sparsity", "0.999"]):
            report = step_report(binary, folder, ["--steps", steps, *flags])
            if report is None:
                raise SystemExit(f"edgecl-runner bench-step {folder} {' '.join(flags)} failed")
            ms.append(report["step_ms_median"])
        ratios.append(ms[1] / ms[0])
    return statistics.median(ratios)


def layer_rows(model: str, setting: Setting, on: list[dict], off: list[dict]) -> list[dict]:
    """Per masked layer and product: sparse GFLOP/s (non-zero work) and the dense kernel's GFLOP/s."""
    dense = {(lay["name"], p["role"]): p for lay in off for p in lay["products"]}
    rows = []
    for lay in on:
        for p in lay["products"]:
            d = dense.get((lay["name"], p["role"]))
            name = f"{model}/{setting.key}/{lay['name']}/{p['role']}"
            rows.append({"name": name, "metric": f"gflops_{p['kernel']}_kernel_nonzero", "value": round(p["gflops_nonzero"], 3),
                         "unit": "GFLOP/s", "goal": None, "density": p["density"], "in_place": p["in_place"]})
            if d and d["seconds"] > 0:
                rows.append({"name": name, "metric": "gflops_dense_kernel", "value": round(d["dense_gflop"] / d["seconds"], 3),
                             "unit": "GFLOP/s", "goal": None})
    return rows


def measure(model: str, binary: Path, work: Path, rounds: int, epochs: int) -> tuple[list[dict], bool]:
    """The model's rows, and whether the runner reported per-layer sparse figures."""
    root = work / model
    data = synthetic_tasks(model, root)
    programs = {s.key: export(model, root, s) for s in SETTINGS}
    programs["dense"] = export(model, root, None)
    kinds = ["dense", *(s.key for s in SETTINGS)]
    by_key = {s.key: s for s in SETTINGS}
    step, fb, rss, overhead = ({k: [] for k in kinds} for _ in range(4))
    for r in range(rounds):
        for k in kinds:
            prof, peak = run_session(binary, session(root, f"{k}-{r}", programs[k], data, epochs, by_key.get(k)))
            step[k].append(prof["step_seconds"] / prof["steps"] * 1e3)
            fb[k].append(prof["parts"]["forward_backward"] / prof["steps"] * 1e3)
            overhead[k].append(prof["step_seconds"] / prof["parts"]["forward_backward"])
            rss[k].append(peak)
        shutil.rmtree(root / "replay", ignore_errors=True)
    med = statistics.median
    per_round = lambda a, b: [x / y for x, y in zip(a, b)]  # noqa: E731
    rows = [{"name": model, "metric": "runner_step_ms_dense", "value": round(med(step["dense"]), 4), "unit": "ms",
             "goal": None},
            {"name": model, "metric": "forward_backward_ms_dense", "value": round(med(fb["dense"]), 4), "unit": "ms",
             "goal": None},
            {"name": model, "metric": "runner_step_vs_forward_backward_dense", "value": round(med(overhead["dense"]), 3),
             "unit": "x", "goal": None},
            {"name": model, "metric": "peak_rss_mb_dense", "value": round(med(rss["dense"]), 1), "unit": "MB", "goal": None}]
    for s in SETTINGS:
        k = s.key
        figures = (("runner_step_ms", med(step[k]), "ms", None), ("forward_backward_ms", med(fb[k]), "ms", None),
                   ("step_vs_dense", med(per_round(step[k], step["dense"])), "x", GOAL_STEP.get(k)),
                   ("forward_backward_vs_dense", med(per_round(fb[k], fb["dense"])), "x", None),
                   ("runner_step_vs_forward_backward", med(overhead[k]), "x", GOAL_OVERHEAD),
                   ("peak_rss_mb", med(rss[k]), "MB", None),
                   ("peak_rss_vs_dense", med(per_round(rss[k], rss["dense"])), "x", GOAL_RSS))
        rows += [{"name": f"{model}/{k}", "metric": m, "value": round(v, 4), "unit": u, "goal": g} for m, v, u, g in figures]
    rows.append({"name": model, "metric": "step_floor_vs_dense", "unit": "x",
                 "value": round(floor_ratio(binary, root / "models" / programs["dense"], med(step["dense"]), rounds), 3),
                 "goal": "diagnostic: every masked layer at density 0.001; a step goal below it needs the rest of the step cheaper"})
    reported = True
    for s in SETTINGS:
        folder = root / "models" / programs["dense"]
        on, off = bench_step(binary, folder, s, True), bench_step(binary, folder, s, False)
        if on is None or off is None:
            reported = False
            break
        if s == SETTINGS[0]:
            rows += [{"name": model, "metric": m, "value": round(off["arena"][k], 1), "unit": "MB", "goal": None}
                     for m, k in (("arena_mb_planned", "planned_mb"), ("arena_mb_dense", "laid_out_mb"))]
        rows.append({"name": f"{model}/{s.key}", "metric": "arena_mb", "value": round(on["arena"]["laid_out_mb"], 1),
                     "unit": "MB", "goal": None})
        rows += layer_rows(model, s, on["sparse"]["layers"], off["sparse"]["layers"])
    return rows, reported


def energy_rows(spec: Path, sets: list[str], work: Path) -> list[dict]:
    """``edgecl run`` of ``spec`` (with ``sets``) dense and with SparCL on an x86_64 virtual phone; training
    and session energy per task (SIMULATED)."""
    rows, per_task = [], {}
    overrides = [a for s in sets for a in ("--set", s)]
    for kind, enabled in (("dense", "false"), ("sparcl", "true")):
        out = work / f"energy-{kind}"
        cmd = [sys.executable, "-m", "pipeline.cli.app", "run", str(spec), "--vphone", "--out", str(out),
               "--set", "device.vphone_preset=pixel7-x86_64", *overrides, "--set", f"sparcl.enabled={enabled}"]
        proc = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT)
        if proc.returncode:
            raise SystemExit(f"{' '.join(cmd)} failed:\n{proc.stdout[-2000:]}{proc.stderr[-2000:]}")
        folder = next(out.glob("*/summary.json")).parent
        tasks = json.loads((folder / "summary.json").read_text())["tasks"]
        if enabled == "true":
            sparcl = json.loads((folder / "spec.json").read_text())["sparcl"]
            rows.append({"name": "energy/sparcl", "metric": "ddr_fraction_removed", "unit": "",
                         "value": sparcl["ddr_fraction"] if sparcl["ddr"] else 0.0, "goal": None})
        for what, field in ENERGY_FIELDS.items():
            per_task[kind, what] = [t[field] for t in tasks]
            rows.append({"name": f"energy/{kind}", "metric": f"{what}_energy_per_task_j_simulated",
                         "value": round(statistics.mean(per_task[kind, what]), 4), "unit": "J", "goal": None,
                         "per_task": [round(v, 4) for v in per_task[kind, what]],
                         "seconds_per_task": [t["seconds"] for t in tasks]})
    for what in ENERGY_FIELDS:
        rows.append({"name": "energy/sparcl_vs_dense", "metric": f"{what}_energy_per_task_ratio_simulated",
                     "value": round(sum(per_task["sparcl", what]) / sum(per_task["dense", what]), 3), "unit": "x",
                     "goal": None})
    return rows


def _met(value: float, goal: str | None) -> str:
    if not goal:
        return ""
    return " (met)" if value <= float(goal.split()[-1]) else " (not met)"


def markdown(command: str, rows: list[dict], env: str, layers_reported: bool, energy_spec: str | None) -> str:
    by = {(r["name"], r["metric"]): r for r in rows}
    models = list(dict.fromkeys(r["name"] for r in rows if "/" not in r["name"]))
    v = lambda n, m: by[(n, m)]["value"]  # noqa: E731
    cell = lambda n, m: f"{v(n, m):.3f}{_met(v(n, m), by[(n, m)]['goal'])}"  # noqa: E731
    lines = ["## SparCL on the device: sparse vs dense native runner (bench/sparcl_device.py)", "", f"`{command}`", "",
             env, "",
             "| model | setting | dense step (ms) | SparCL step (ms) | step SparCL / dense (goal) | forward_backward "
             "SparCL / dense | SparCL step / its forward_backward (goal <= 1.10) | peak RSS SparCL / dense (goal <= 0.6) |",
             "|---|---|---|---|---|---|---|---|"]
    for m in models:
        for s in SETTINGS:
            n = f"{m}/{s.key}"
            goal = GOAL_STEP.get(s.key)
            lines.append(f"| {m} | {s.label} | {v(m, 'runner_step_ms_dense'):.2f} | {v(n, 'runner_step_ms'):.2f} | "
                         f"{cell(n, 'step_vs_dense')}{'' if goal else ' (no goal)'} | {v(n, 'forward_backward_vs_dense'):.3f} | "
                         f"{cell(n, 'runner_step_vs_forward_backward')} | {cell(n, 'peak_rss_vs_dense')} |")
    dense = "; ".join(f"{m} {v(m, 'runner_step_vs_forward_backward_dense'):.3f}" for m in models)
    lines += ["", f"Dense runner step / its forward_backward, for reference: {dense}."]
    if all(by.get((m, "step_floor_vs_dense")) for m in models):
        floor = "; ".join(f"{m} {v(m, 'step_floor_vs_dense'):.3f}" for m in models)
        lines += ["", f"Floor (`bench-step`, dense step against the same program with every masked layer at density "
                  f"0.001, so its sparse products cost next to nothing): {floor}. The rest of the step (unmasked layers, "
                  "pooling, normalisation, elementwise work, the optimizer) runs at the program's dense shapes in both, "
                  "so no sparse kernel can bring a step ratio below its model's floor; a goal under it needs that rest "
                  "made cheaper, or structured masks that shrink the tensors themselves."]
    if all(by.get((m, "arena_mb_dense")) for m in models):
        lines += ["", "Training arena (activations and gradients, MB): the export's plan, the runner's layout of it "
                  "(`src/arena.h`) dense and at each setting's masks with sparse execution (`bench-step`), and the "
                  "dense session's peak RSS:", "", "| model | planned | dense | "
                  + " | ".join(s.label for s in SETTINGS) + " | dense session peak RSS |",
                  "|---|---|---|" + "---|" * len(SETTINGS) + "---|"]
        for m in models:
            lines.append(f"| {m} | {v(m, 'arena_mb_planned'):.1f} | {v(m, 'arena_mb_dense'):.1f} | "
                         + " | ".join(f"{v(f'{m}/{s.key}', 'arena_mb'):.1f}" for s in SETTINGS)
                         + f" | {v(m, 'peak_rss_mb_dense'):.1f} |")
    if not layers_reported:
        lines += ["", "Per masked layer sparse vs dense GFLOP/s: not reported, this runner build's `bench-step` has no "
                  "`--sparse` / `--mask-sparsity` flags (its masked layers run the dense kernels). With dense kernels "
                  "a SparCL step does the dense step's arithmetic, so the spread of the SparCL / dense columns above is "
                  "the shared host's load moving between sessions (see the environment line), not the masks; the "
                  "within-session ratio (step / its forward_backward) does not move with it."]
    else:
        layer = [r for r in rows if r["metric"].startswith("gflops_") and r["metric"] != "gflops_dense_kernel"]
        lines += ["", "Columns \"in place\": the product read its convolution's padded input where it lies (no im2col copy).",
                  "", "| layer / product | density | kernel | GFLOP/s (non-zero work) | dense kernel GFLOP/s |",
                  "|---|---|---|---|---|"]
        for r in layer:
            d = by.get((r["name"], "gflops_dense_kernel"))
            kernel = r["metric"].split("_")[1] + (", columns in place" if r.get("in_place") else "")
            lines.append(f"| {r['name']} | {r['density']:.3f} | {kernel} | {r['value']:.2f} | "
                         f"{'' if d is None else format(d['value'], '.2f')} |")
    if energy_spec:
        def energy(kind: str, what: str) -> float:
            return by[(f"energy/{kind}", f"{what}_energy_per_task_j_simulated")]["value"]

        lines += ["", f"Energy per task, SIMULATED (virtual phone pixel7-x86_64, power model driven by CPU time), "
                  f"`{energy_spec}` dense (`--set sparcl.enabled=false`) and with SparCL: training "
                  f"{energy('dense', 'training'):.3f} J vs {energy('sparcl', 'training'):.3f} J per task, SparCL / dense "
                  f"{v('energy/sparcl_vs_dense', 'training_energy_per_task_ratio_simulated'):.3f}; whole session "
                  f"(loading, training, evaluation) {energy('dense', 'session'):.3f} J vs {energy('sparcl', 'session'):.3f} J, "
                  f"{v('energy/sparcl_vs_dense', 'session_energy_per_task_ratio_simulated'):.3f}. SparCL's rows include "
                  f"DDR's removal of {v('energy/sparcl', 'ddr_fraction_removed'):.0%} of each task's data."]
    lines += ["", "Steps are timed by the runner's own step profile (EDGECL_PROFILE) in the same processes; ratios are "
              "medians of per-round ratios. SparCL = TDM + DDR + DGM with the reference recipe's schedule, no swap on "
              "either side; its first TDM update moves the export's random masks to the session's sparsity."]
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--models", default=",".join(MODELS))
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--epochs", type=int, default=3)
    ap.add_argument("--energy-spec", type=Path, default=ENERGY_SPEC)
    ap.add_argument("--energy-set", action="append", default=None, metavar="KEY=VALUE",
                    help=f"spec overrides for the energy runs (default: {' '.join(ENERGY_SETS)})")
    ap.add_argument("--no-energy", action="store_true")
    ap.add_argument("--render", action="store_true", help="rewrite the RESULTS.md section from the json, measure nothing")
    args = ap.parse_args()
    if args.render:
        saved = json.loads((BENCH_DIR / "results" / "sparcl_device.json").read_text())
        write_section("sparcl_device", markdown(saved["command"], saved["rows"], saved["environment"],
                                                saved["layers_reported"], saved["energy_spec"]))
        return
    sys.path.insert(0, str(ROOT))
    from android_harness.native import build_runner

    command = command_line("sparcl_device")
    print(command, flush=True)
    binary = build_runner("x86_64")
    work = Path(tempfile.mkdtemp(prefix="bench-sparcl-device-"))
    rows: list[dict] = []
    reported = True
    energy_spec = None
    try:
        if not args.no_energy:  # first: the longest single step, and the one a missing piece fails
            print("energy: edgecl run on a virtual phone, dense then SparCL", flush=True)
            sets = list(ENERGY_SETS) if args.energy_set is None else args.energy_set
            rows += energy_rows(args.energy_spec, sets, work)
            energy_spec = " ".join(["edgecl run", str(args.energy_spec.resolve().relative_to(ROOT)),
                                    *(f"--set {s}" for s in sets)])
        for model in [m for m in args.models.split(",") if m]:
            print(f"{model}: {args.rounds} rounds", flush=True)
            model_rows, model_reported = measure(model, binary, work, args.rounds, args.epochs)
            rows += model_rows
            reported &= model_reported
    finally:
        shutil.rmtree(work, ignore_errors=True)
    env = (f"{shared_host()}, x86_64 build, 1 thread, {args.rounds} alternating rounds, {args.epochs} epochs per task, "
           "600 training rows per task (SB 400), synthetic inputs")
    write_results_json("sparcl_device", command, rows, environment=env, layers_reported=reported,
                       energy_spec=energy_spec)
    write_section("sparcl_device", markdown(command, rows, env, reported, energy_spec))
    for r in rows:
        print(f"{r['name']:40s} {r['metric']:44s} {r['value']} {r['unit']}")


if __name__ == "__main__":
    main()
