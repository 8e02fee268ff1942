"""Session energy accuracy: the old unshifted integral vs the old fixed lag shift vs
``measure_session`` (lag-corrected, idle-aware), on simulated counters with a known truth.

    python bench/energy_accuracy.py [--sessions 200] [--seed 3]

No phone is involved: ``tests/energy_sim.py`` draws sessions (0.5, 2 and 20 gauge periods, 1.5-6 W
on 0.6 W idle) and shows them through a fuel gauge like the virtual phone's (a 0.5 s tick publishing
the previous period's average every >= 1 s, 15 mA noise) sampled at 10 Hz, with the idle baseline
measured first the same way; and, noise-free, through a coulomb counter and ODPM rails. Figures:
median and 95th percentile of |error| / truth per estimator and length, and how often the printed
95 % bound holds. Simulated counters: a check of the estimator, not a phone measurement.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
from rich.progress import track

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bench.results_io import command_line, write_results_json, write_section  # noqa: E402
from pipeline.energy import (CounterConvention, IdleBaseline, idle_from, measure_events, normalise,  # noqa: E402
                             parse_power_csv, parse_rails_log)
from tests.energy_sim import Profile, session_events, simulate  # noqa: E402

IDLE_W = 0.6
PERIODS = (0.5, 2, 20)
CONV = CounterConvention()


def one(rng, k: int, periods: float, counter: str, idle) -> dict:
    dur = periods * 1.0
    a = 100.0 + rng.uniform(0, 1)
    b = a + dur
    prof = Profile(IDLE_W, [(a, b, rng.uniform(1.5, 6.0))])
    noisy = counter == "gauge"
    text, rails = simulate(prof, 95.0, b + 3.0, period=1.0, tick=0.5 if noisy else None, noise_a=0.015 if noisy else 0.0,
                           seed=k, charge_counter=counter == "charge_counter", rails=counter == "rails",
                           phase=rng.uniform(0, 1), rail_period=0.25)
    tr = normalise(parse_power_csv(text), CONV, simulated=True)
    truth = prof.energy(a, b)
    m = measure_events(tr, parse_rails_log(rails) if rails else None, session_events(a, a, b, [("training", a, b)]),
                       idle=idle)
    s = m.session
    return {"truth": truth, "new": s.energy_j, "bound": s.error_j, "source": s.source,
            "naive": tr.energy_j(a, b), "shifted": tr.energy_j(a + 1.0, b + 1.0)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sessions", type=int, default=200, help="simulated sessions per length and counter")
    ap.add_argument("--seed", type=int, default=3)
    args = ap.parse_args()
    rng = np.random.default_rng(args.seed)
    itext, _ = simulate(Profile(IDLE_W), 0.0, 10.0, period=1.0, tick=0.5, noise_a=0.015, seed=10_000, charge_counter=False)
    measured_idle = idle_from(normalise(parse_power_csv(itext), CONV, simulated=True), None)
    exact_idle = IdleBaseline(IDLE_W, 0.0, "charge_counter", IDLE_W, 0.0, 10.0)
    rows, table = [], []
    for counter in ("gauge", "charge_counter", "rails"):
        idle = measured_idle if counter == "gauge" else exact_idle
        for periods in PERIODS:
            res = [one(rng, k, periods, counter, idle)
                   for k in track(range(args.sessions), description=f"{counter} {periods:g} periods")]
            truth = np.array([r["truth"] for r in res])
            for est in ("naive", "shifted", "new") if counter == "gauge" else ("new",):
                err = np.abs(np.array([r[est] for r in res]) - truth) / truth * 100
                med, p95 = float(np.median(err)), float(np.percentile(err, 95))
                name = f"{counter}_{periods:g}p_{est}"
                goal = "<= 2 (noise-free)" if counter != "gauge" and est == "new" else ""
                rows += [{"name": f"{name}_median_err", "metric": "median |error|/truth", "value": round(med, 3),
                          "unit": "%", "goal": goal},
                         {"name": f"{name}_p95_err", "metric": "95th pct |error|/truth", "value": round(p95, 3),
                          "unit": "%", "goal": ""}]
                table.append(f"| {counter} | {periods:g} | {est} | {med:.2f} | {p95:.2f} |")
            bound = np.mean([abs(r["new"] - r["truth"]) <= r["bound"] for r in res]) * 100
            rows.append({"name": f"{counter}_{periods:g}p_bound_holds", "metric": "sessions within the printed bound",
                         "value": round(float(bound), 1), "unit": "%", "goal": ">= 95"})
            table.append(f"| {counter} | {periods:g} | bound holds | {bound:.1f} % of {args.sessions} | |")
    command = command_line("energy_accuracy")
    write_results_json("energy_accuracy", command.strip(), rows, simulated=True)
    write_section("energy_accuracy", "\n".join([
        "## Session energy accuracy: unshifted vs shifted vs lag-corrected (bench/energy_accuracy.py)",
        "", f"`{command.strip()}` — SIMULATED counters with a known truth (tests/energy_sim.py), no phone. "
        "Gauge: the virtual phone's (0.5 s tick, publishes the previous period's average every >= 1 s, 15 mA noise), "
        "sampled at 10 Hz, idle baseline measured 10 s beforehand; charge counter and ODPM rails noise-free. "
        "`naive` = the old integral over [t0, t1]; `shifted` = the old `lag_s` = one period; `new` = `measure_session`. "
        "Lengths in gauge periods (1 s).", "",
        "| counter | periods | estimator | median \\|err\\| % | p95 \\|err\\| % |", "|---|---|---|---|---|", *table]))


if __name__ == "__main__":
    main()
