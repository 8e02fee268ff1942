"""Miro vs static (EM, SB) configurations vs the exhaustive oracle, on Split Fashion-MNIST and Split FSDD
(audio), 3 seeds, on a virtual phone with ODPM rails.

Per data set (``experiments/miro-fmnist.toml``, ``experiments/miro-fsdd.toml``) and seed, every
configuration of the ``[miro]`` grid runs the whole experiment statically (the same (EM, SB) every
task); then Miro runs it, profiling on the phone from task 1 (the warm start: from the export's
initial state) with equal steps per candidate and the measured energy extrapolated to the task
(``pipeline/miro/profile_plan.py``). The proxy-energy variant (the authors' EM + SB) is the second
row: from the SAME profiling runs its choice per task is computed; when every choice matches, its run
is Miro's run (identical sessions), else it runs for real. Energies: ``bench/miro_figures.py``.
The static run chosen in advance is the paper-style default ([replay]), fixed before any result; the
oracle is Miro's rule applied in hindsight to the static runs' final accuracy and energy.
Goals: CE >= 0.9x the oracle, >= 1.3x the best static chosen in advance, profiling <= 10%
of Miro's energy. All energy is measured on a virtual phone: simulated.

    nice -n 10 python bench/miro.py   # both data sets, 3 seeds (46 min measured, 2 loaded cores)
    python bench/miro.py --quick      # 1 seed, 3 tasks, 10 epochs: a smoke run

Writes ``bench/results/miro.json`` and the Miro section of ``bench/RESULTS.md``.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from miro_figures import compare, dataset_rows, markdown, proxy_choices
from pipeline.miro.compare import RunFigures, run_figures, static_grid, static_spec
from results_io import write_results_json, write_section

ROOT = Path(__file__).resolve().parent
SPECS = {"fashion_mnist": ROOT.parent / "experiments" / "miro-fmnist.toml", "fsdd": ROOT.parent / "experiments" / "miro-fsdd.toml"}


def load(name: str, seed: int, quick: bool):
    from pipeline.config import load_spec

    spec = replace(load_spec(SPECS[name]), seed=seed)
    if quick:
        spec = replace(spec, data=replace(spec.data, tasks=3), train=replace(spec.train, epochs=10))
    return spec


def run_one_dataset(name: str, seeds: list[int], quick: bool, device: Any, out: Path, bar: Progress, job: Any,
                    log: list[str]) -> tuple[list[dict[str, Any]], list[str]]:
    from pipeline.experiment import run_experiment
    from pipeline.miro.run import run_spec_with_miro

    statics: dict[int, dict[str, RunFigures]] = {}
    miro: dict[int, RunFigures] = {}
    proxy: dict[int, RunFigures] = {}
    comps, notes = [], []
    for seed in seeds:
        spec = load(name, seed, quick)
        grid, default = static_grid(spec)
        batch = spec.train.batch_size
        statics[seed] = {}
        for c in grid:
            bar.update(job, description=f"{name} seed {seed}: static {c.key}")
            s = static_spec(spec, c, f"{name}-s{seed}-static-{c.key}")
            statics[seed][c.key] = run_figures(run_experiment(s, device, out, progress=False), device.profile, batch)
            bar.advance(job)
        bar.update(job, description=f"{name} seed {seed}: miro")
        folder, tuner = run_spec_with_miro(replace(spec, name=f"{name}-s{seed}-miro"), device, out, progress=False)
        miro[seed] = run_figures(folder, device.profile, batch, tuner)
        bar.advance(job)
        wanted = proxy_choices(tuner)
        chosen = [d.candidate.key for d in tuner.decisions]
        if wanted == chosen:
            proxy[seed] = miro[seed]
            notes.append(f"{name} seed {seed}: the proxy variant chooses what Miro chose at every task from the same "
                         "profiling runs, so its run is Miro's run (identical sessions)")
        else:
            bar.update(job, description=f"{name} seed {seed}: miro proxy variant")
            ps = replace(spec, name=f"{name}-s{seed}-miro-proxy", miro=replace(spec.miro, energy="proxy"))
            pfolder, ptuner = run_spec_with_miro(ps, device, out, progress=False)
            proxy[seed] = run_figures(pfolder, device.profile, batch, ptuner)
            notes.append(f"{name} seed {seed}: the proxy variant diverged ({' '.join(wanted)} vs {' '.join(chosen)}): run for real, "
                         f"choices {' '.join(proxy[seed].choices)}")
        bar.advance(job)
        # the oracle's cutline: the spec's, its SE margin on the final evaluation (every task's test set)
        scoring = replace(tuner.scoring, eval_samples=tuner.decisions[-1].policy.scoring.eval_samples)
        comp = compare(seed, statics[seed], default.key, miro[seed], proxy[seed], scoring)
        comps.append(comp)
        log.append(f"{name} seed {seed}: oracle {comp.oracle}, best CE {comp.best_ce}; miro {' '.join(miro[seed].choices)}: "
                   f"CE {miro[seed].ce:.3f} = {comp.vs_oracle:.3f}x oracle, {comp.vs_default:.3f}x default, "
                   f"profiling {comp.share:.3f}")
        bar.console.print(log[-1])
    _, default = static_grid(load(name, seeds[0], quick))
    rows = dataset_rows(name, statics, default.key, miro, proxy, comps)
    notes += seed_notes(name, statics, miro, comps)
    return rows, notes


def seed_notes(name: str, statics: dict[int, dict[str, RunFigures]], miro: dict[int, RunFigures], comps: list) -> list[str]:
    out = []
    for c in comps:
        m = miro[c.seed]
        st = statics[c.seed]
        out.append(f"{name} seed {c.seed}: oracle {c.oracle} (CE {st[c.oracle].ce:.3f}), best CE {c.best_ce} "
                   f"(CE {st[c.best_ce].ce:.3f}); Miro chose {' '.join(m.choices)}: {m.accuracy:.2f}%, {m.energy_j:.2f} J "
                   f"(profiling {m.profiling_energy_j:.3f} J in {m.profiling_sessions} sessions, {m.profiling_precise} precise), "
                   f"CE {m.ce:.3f} = {c.vs_oracle:.3f}x oracle, {c.vs_best_ce:.3f}x best CE, {c.vs_default:.3f}x default; "
                   f"proxy {c.proxy_vs_oracle:.3f}x oracle")
    every = [r for s in statics.values() for r in s.values()] + list(miro.values())
    windows = [w for r in every for w in r.windows]
    out.append(f"{name}: task sessions {min(windows):.2f}-{max(windows):.2f} s on the device, {sum(r.precise for r in every)} of "
               f"{len(windows)} precise by pipeline.energy (sources: {', '.join(sorted(set().union(*(r.sources for r in every))))})")
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="1 seed, 3 tasks, 10 epochs: a smoke run")
    ap.add_argument("--seeds", type=int, default=3)
    ap.add_argument("--datasets", nargs="+", default=list(SPECS), choices=list(SPECS))
    ap.add_argument("--out", type=Path, default=None, help="results folders (default: a temp folder)")
    ap.add_argument("--render", action="store_true", help="only rewrite the RESULTS.md section from bench/results/miro.json")
    args = ap.parse_args()
    if args.render:
        data = json.loads((ROOT / "results" / "miro.json").read_text())
        write_section("miro", markdown(data["command"], data["env"], data["rows"], data.get("notes", [])))
        return
    seeds = list(range(1 if args.quick else args.seeds))
    command = "nice -n 10 python bench/miro.py" + (" --quick" if args.quick else "") + \
        ("" if args.datasets == list(SPECS) else " --datasets " + " ".join(args.datasets))
    console = Console()
    console.print(f"[bold]{command}[/]")
    from android_harness.device_choice import device_for

    out = args.out or Path(tempfile.mkdtemp(prefix="bench-miro-"))
    specs = {n: load(n, 0, args.quick) for n in args.datasets}
    env = (f"python {platform.python_version()}, {os.cpu_count()} CPUs shared with other jobs (load at start "
           f"{os.getloadavg()[0]:.1f}); seeds {seeds}; " + "; ".join(
               f"{s.data.kind}: {s.data.tasks} tasks, {s.model.kind} {s.model.hidden}, {s.train.method}, {s.train.epochs} epochs, "
               f"grid EM {s.miro.em_sizes} x SB {s.miro.sb_sizes}, default ({s.replay.em_size}, {s.replay.sb_size})"
               for s in specs.values()) + ". ORT on a virtual pixel7-termux with ODPM rails (simulated: energy from its "
           "CPU-time power model). Miro: profiling from task 1, grid search, equal steps (profile_batches "
           f"{specs[args.datasets[0]].miro.profile_batches} x profile_epochs {specs[args.datasets[0]].miro.profile_epochs}), "
           f"cutline {specs[args.datasets[0]].miro.cutline} + {specs[args.datasets[0]].miro.cutline_se} SE, measured energy "
           "extrapolated to the task.")
    rows, notes, log = [], [], []
    t0 = time.perf_counter()
    per_seed = {n: len(static_grid(s)[0]) + 2 for n, s in specs.items()}
    with device_for(None, True, specs[args.datasets[0]].device.vphone_preset) as device:
        with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                      console=console) as bar:
            job = bar.add_task("miro bench", total=sum(per_seed.values()) * len(seeds))
            for name in args.datasets:
                r, n = run_one_dataset(name, seeds, args.quick, device, out, bar, job, log)
                rows += r
                notes += n
                write_all(command, env, rows, notes, f"{time.perf_counter() - t0:.0f} s (after {name})", out)
    write_all(command, env, rows, notes, f"{time.perf_counter() - t0:.0f} s", out)
    for row in rows:
        console.print(f"{row['name']:80s} {row['metric']:28s} {row['value']} {row['unit']} {row['goal']}")


def write_all(command: str, env: str, rows: list[dict[str, Any]], run_notes: list[str], wall: str, out: Path) -> None:
    """bench/results/miro.json and the RESULTS.md section (after each data set, so a later failure keeps it)."""
    notes = [f"Wall time {wall}; results folders under {out}.",
             "Energies are MEASURED on the virtual phone and therefore SIMULATED: per session with pipeline.energy.measure_session "
             "on the ODPM rails (exact accumulator differences at the sampler's rail snapshots, ~1 s apart; the vphone advances its accumulators every 0.5 s power-model tick), over the "
             "session's device window; a run = its task sessions (+ Miro's profiling sessions). Idle time between sessions is in "
             "no run's energy.",
             "Oracle = Miro's own rule in hindsight (miro.md: keep the top cutline share by accuracy, then the best accuracy / "
             "energy) over every static configuration's FINAL class-IL and total energy, same cutline and SE margin; "
             "'best CE in hindsight' drops the cutline (it can pick a configuration the cost-effectiveness rule excludes as too "
             "inaccurate). Ratios are per seed (each seed's own oracle), then averaged.",
             *run_notes]
    write_results_json("miro", command, rows, env=env, notes=notes, simulated=True)
    write_section("miro", markdown(command, env, rows, notes))


if __name__ == "__main__":
    sys.exit(main())
