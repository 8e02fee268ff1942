"""Device-pool throughput: the same sweep on 1, 2 and 4 virtual phones, and the scheduler's own cost.

    python bench/pool.py [--runs 8] [--phones 1 2 4]

The sweep: ``--runs`` runs (train.lr x seeds) of a tiny spec (Split Digits, 2 tasks, 2 epochs, MLP 64,
ORT, power off), each run a normal ``edgecl run`` (export, deploy, one session per task), scheduled
by ``pipeline.sweep`` over N vphones behind one private adb server (simulated devices). Each N gets
its own sweep name, so every run exports its program (the export cache key includes the spec's name):
all three pay the same host work. The phones' device code runs on this host, so with 2 host cores
the host is the ceiling sooner or later: the host's CPU share is reported beside each figure -- our process tree
(scheduler, workers, vphones, their runners) from /proc, and the whole machine from /proc/stat
(other agents included; the load average says how busy it was).

Runs per hour count from the first dispatch to the last run's end (the sweep's one-time startup is its own row).
Scheduler overhead per run = (dispatch-to-done wall - the run's own wall inside its worker, plus a
phone's idle gap between a run's end and its next dispatch) / the run's wall; and the scheduler
process's CPU time per run, as a share of a run's wall. Goal <= 2 %.
"""
from __future__ import annotations

import argparse
import io
import os
import sys
import tempfile
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))
from results_io import write_results_json, write_section  # noqa: E402

SPEC = (REPO / "tests" / "data" / "specs" / "pool_sweep.toml").read_text()   # shared with device_tests/test_pool.py
TICK = os.sysconf("SC_CLK_TCK")


class TreeCpu:
    """CPU seconds of our process tree and of our phones' (descendants of their daemons), sampled from
    /proc every 0.25 s (a process's last sample before it exits is what counts)."""

    def __init__(self, roots: set[str]) -> None:
        self.roots, self.seen, self._stop = roots, {}, threading.Event()
        self.thread = threading.Thread(target=self._loop, daemon=True)

    def _ours(self, pid: str, parents: dict[str, str], ours: set[str]) -> bool:
        seen, p = [], pid
        while p in parents and p not in ours and p != "1" and len(seen) < 64:
            seen.append(p)
            p = parents[p]
        if p in ours:
            ours.update(seen)
            return True
        return False

    def sample(self) -> None:
        parents, cpu = {}, {}
        for pid in os.listdir("/proc"):
            if not pid.isdigit():
                continue
            try:
                with open(f"/proc/{pid}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            parents[pid] = fields[1]
            cpu[pid] = ((int(fields[11]) + int(fields[12])) / TICK, fields[19])   # utime+stime, starttime
        ours = {str(os.getpid()), *self.roots}
        for pid, (sec, start) in cpu.items():
            if self._ours(pid, parents, ours):
                self.seen[(pid, start)] = max(sec, self.seen.get((pid, start), 0.0))

    def __enter__(self) -> "TreeCpu":
        self.sample()
        self.base = dict(self.seen)
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self.thread.join()
        self.sample()

    def _loop(self) -> None:
        while not self._stop.wait(0.25):
            self.sample()
        self.own_cpu_s = time.thread_time()      # this sampler's CPU, to take out of the scheduler process's

    @property
    def seconds(self) -> float:
        return sum(v - self.base.get(k, 0.0) for k, v in self.seen.items())


def machine_busy() -> tuple[float, float]:
    with open("/proc/stat") as f:
        v = [float(x) for x in f.readline().split()[1:]]
    idle = v[3] + v[4]
    return sum(v) - idle, sum(v)


def one(n: int, runs: int, spec: Path, out: Path, home: Path) -> dict:
    from android_harness.vphone_fleet import vphone_fleet
    from rich.console import Console

    from pipeline.sweep import plan_sweep, run_sweep

    seeds = list(range(runs // 2))
    with vphone_fleet(n, presets=("pixel7-termux",), base=home) as fleet:
        members = fleet.members()
        index, specs = plan_sweep(spec, out, [("train.lr", [0.03, 0.05])], seeds, name=f"pool-{n}phones")
        roots = {str(p.pid) for p in fleet.phones}
        b0 = machine_busy()
        table = Console(file=io.StringIO(), force_terminal=True, width=160)     # the live table is drawn, as in a terminal
        with TreeCpu(roots) as tree:
            ok, sched = run_sweep(index, specs, members, console=table, live=True)
        b1 = machine_busy()
    assert ok and index.counts()["done"] == runs, index.counts()
    st = sched.stats
    ncpu = os.cpu_count() or 1
    return {"phones": n, "runs": st.runs, "wall_s": st.wall_s, "startup_s": st.startup_s, "busy_s": st.busy_s,
            "runs_per_hour": 3600 * st.runs / st.busy_s,
            "run_s_mean": st.run_s / st.runs,
            "overhead_pct": 100 * (st.dispatch_to_done_s - st.run_s + st.gap_s) / st.run_s,
            "scheduler_cpu_pct": 100 * (st.cpu_s - tree.own_cpu_s) / st.run_s,
            "tree_cpu_share_pct": 100 * tree.seconds / (st.wall_s * ncpu),   # the sampler's own thread is not in it
            "machine_busy_pct": 100 * (b1[0] - b0[0]) / (b1[1] - b0[1])}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=8, help="runs per sweep (even: 2 learning rates x runs/2 seeds)")
    ap.add_argument("--phones", type=int, nargs="+", default=[1, 2, 4])
    args = ap.parse_args()
    command = "python bench/pool.py" + ("" if args.runs == 8 else f" --runs {args.runs}") + \
              ("" if args.phones == [1, 2, 4] else " --phones " + " ".join(map(str, args.phones)))
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="bench-pool-") as tmp:
        tmp_path = Path(tmp)
        os.environ["EDGECL_HOME"] = str(tmp_path / "home")
        spec = tmp_path / "pool.toml"
        spec.write_text(SPEC)
        results = []
        for n in args.phones:
            r = one(n, args.runs, spec, tmp_path / "out", tmp_path / "home")
            print(r, flush=True)
            results.append(r)
    load_after = os.getloadavg()
    rows = rows_of(results, load_before, load_after)
    write_results_json("pool", command, rows)
    write_markdown(command, args.runs, rows)


def rows_of(results: list[dict], load_before: tuple, load_after: tuple) -> list[dict]:
    sim = "simulated devices on this host"
    first = results[0]
    rows = []
    for r in results:
        n = r["phones"]
        rows += [
            {"name": f"runs_per_hour_{n}_phones ({sim})", "metric": "throughput", "value": round(r["runs_per_hour"], 1), "unit": "runs/h", "goal": ""},
            {"name": f"speedup_{n}_phones_vs_{first['phones']}", "metric": "ratio", "value": round(r["runs_per_hour"] / first["runs_per_hour"], 3),
             "unit": "x", "goal": f"linear = {n / first['phones']:g}"},
            {"name": f"run_wall_mean_{n}_phones", "metric": "time", "value": round(r["run_s_mean"], 2), "unit": "s", "goal": ""},
            {"name": f"sweep_startup_{n}_phones", "metric": "time", "value": round(r["startup_s"], 2), "unit": "s",
             "goal": "once per sweep (the process's first sweep also starts the forkserver, which imports torch)"},
            {"name": f"host_cpu_share_ours_{n}_phones", "metric": "cpu", "value": round(r["tree_cpu_share_pct"], 1), "unit": "% of 2 cores",
             "goal": "scheduler, workers, vphones and their runners"},
            {"name": f"host_cpu_busy_machine_{n}_phones", "metric": "cpu", "value": round(r["machine_busy_pct"], 1), "unit": "% of 2 cores",
             "goal": "whole machine, other agents included"},
            {"name": f"scheduler_overhead_per_run_{n}_phones", "metric": "overhead", "value": round(r["overhead_pct"], 3), "unit": "% of run wall",
             "goal": "<= 2"},
            {"name": f"scheduler_cpu_per_run_{n}_phones", "metric": "overhead", "value": round(r["scheduler_cpu_pct"], 3), "unit": "% of run wall",
             "goal": "<= 2"},
        ]
    rows.append({"name": "host_load_average_1min", "metric": "load", "value": f"{load_before[0]:.2f} before, {load_after[0]:.2f} after",
                 "unit": "", "goal": f"{os.cpu_count()} cpus shared with other agents"})
    return rows


def write_markdown(command: str, runs: int, rows: list[dict]) -> None:
    """The RESULTS.md section, its reading of the figures taken from ``rows``."""
    value = {r["name"].split(" (")[0]: r["value"] for r in rows}
    phones = [int(k.split("_")[3]) for k in value if k.startswith("runs_per_hour_")]
    lo, hi = min(phones), max(phones)
    speed, ours = value[f"speedup_{hi}_phones_vs_{lo}"], value[f"host_cpu_share_ours_{hi}_phones"]
    busy = value[f"host_cpu_busy_machine_{hi}_phones"]
    bound = ("these tiny runs wait (adb round trips, session start and polling) more than they compute, so the host "
             "was not yet the ceiling; heavier runs (more epochs, a CNN) reach it sooner" if ours < 50 else
             "the host's cores are the ceiling")
    table = "\n".join(f"| {r['name']} | {r['value']} {r['unit']} | {r['goal']} |" for r in rows)
    write_section("pool", f"""## Device pool throughput and scheduler overhead (bench/pool.py)

`{command}`

The same {runs}-run sweep (Split Digits, 2 tasks x 2 epochs, MLP 64, ORT, power off; every run exports, deploys and
trains as `edgecl run`) on {", ".join(map(str, phones))} virtual phones behind one private adb server, one sweep each, in that order.
Simulated devices: the phones' runners execute on this 2-core host. With {hi} phones the sweep ran {speed}x the runs per
hour of {lo}, while our processes (scheduler, workers, vphones, runners; from /proc) used {ours} % of the 2 cores: {bound}.
The machine as a whole was {busy} % busy (/proc/stat), most of it other agents' work (see the load average).
Runs per hour: from the first dispatch to the last run's end (the one-time startup is its own row).
Scheduler overhead = (dispatch-to-done wall - the run's wall inside its worker + a phone's idle gap between runs) / run wall;
scheduler CPU = the scheduler process's CPU time (its loop, the index writes, the live table drawn as in a terminal; the
bench's /proc sampler thread taken out) / run wall.

| figure | value | goal |
|---|---|---|
{table}""")


if __name__ == "__main__":
    main()
