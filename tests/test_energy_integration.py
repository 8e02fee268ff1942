"""Energy integration against analytic traces, and attribution to sessions, tasks and phases."""
import math

import numpy as np
import pytest

from pipeline.energy import (CounterConvention, IdleBaseline, measure_events, normalise, parse_power_csv,
                             phase_totals, write_energy_csv)
from pipeline.energy.timeline import event_groups
from pipeline.errors import PowerError


def _trace(power_of_t, t0=100.0, seconds=10.0, rate=10.0, volts=4.0, status="Discharging"):
    """A power.csv in Pixel convention (uA, + into battery) whose power is power_of_t(t - t0) watts."""
    lines = ["# clock=CLOCK_MONOTONIC", f"# rate_hz={rate:g}", "t,current,voltage,charge_counter,capacity,status,temp"]
    n = int(round(seconds * rate))
    for k in range(n + 1):
        tau = k / rate
        ua = -power_of_t(tau) / volts * 1e6
        lines.append(f"{t0 + tau:.6f},{ua:.3f},{int(volts * 1e6)},3000000,80,{status},300")
    return normalise(parse_power_csv("\n".join(lines) + "\n"), CounterConvention(current_unit="uA",
                     current_positive_when="charging", voltage_unit="uV"), simulated=True)


def _rows(trace, events, **kw):
    return measure_events(trace, None, events, **kw).rows


def test_linear_power_integrates_exactly():
    tr = _trace(lambda tau: 2.0 + 0.1 * tau)                 # E(0..10) = 20 + 5 = 25 J
    assert tr.energy_j() == pytest.approx(25.0, rel=1e-9)
    assert tr.energy_j(102.0, 104.0) == pytest.approx(2 * 2.0 + 0.05 * (16 - 4), rel=1e-9)
    assert tr.energy_j(102.05, 102.15) == pytest.approx(0.1 * 2.0 + 0.05 * (2.15 ** 2 - 2.05 ** 2), rel=1e-9)
    assert tr.mean_power_w() == pytest.approx(2.5)


def test_sinusoid_integrates_within_sampling_error():
    f = lambda tau: 3.0 + 1.0 * math.sin(2 * math.pi * tau / 4.0)
    tr = _trace(f, seconds=20.0, rate=10.0)
    assert tr.energy_j() == pytest.approx(3.0 * 20.0, rel=1e-3)
    exact_part = 3.0 * 1.0 + (4.0 / (2 * math.pi)) * (1 - math.cos(2 * math.pi * 1.0 / 4.0))
    assert tr.energy_j(100.0, 101.0) == pytest.approx(exact_part, rel=5e-3)


def test_window_outside_trace_is_clamped_and_cumulative_is_monotone():
    tr = _trace(lambda tau: 1.0)
    assert tr.energy_j(50.0, 200.0) == pytest.approx(10.0)
    c = tr.cumulative_energy_j(np.linspace(99, 111, 50))
    assert np.all(np.diff(c) >= -1e-12)


EVENTS = [
    {"seq": 0, "t": 100.0, "type": "session_start", "session_id": "s1", "runtime": "ort", "pid": 1, "device": {}},
    {"seq": 1, "t": 100.0, "type": "task_start", "task": 0, "classes": [0, 1], "n_train": 600},
    {"seq": 2, "t": 100.0, "type": "phase_start", "phase": "training", "task": 0},
    {"seq": 3, "t": 105.0, "type": "epoch", "task": 0, "epoch": 0, "loss": 0.7, "n_samples": 600, "seconds": 5.0},
    {"seq": 4, "t": 105.0, "type": "phase_end", "phase": "training", "task": 0},
    {"seq": 5, "t": 105.0, "type": "phase_start", "phase": "evaluation", "task": 0},
    {"seq": 6, "t": 106.0, "type": "phase_end", "phase": "evaluation", "task": 0},
    {"seq": 7, "t": 106.0, "type": "task_end", "task": 0},
    {"seq": 8, "t": 106.0, "type": "task_start", "task": 1, "classes": [2, 3], "n_train": 300},
    {"seq": 9, "t": 106.0, "type": "phase_start", "phase": "swapping", "task": 1},
    {"seq": 10, "t": 107.0, "type": "phase_end", "phase": "swapping", "task": 1},
    {"seq": 11, "t": 107.0, "type": "phase_start", "phase": "training", "task": 1},
    {"seq": 12, "t": 109.5, "type": "epoch", "task": 1, "epoch": 0, "loss": 0.5, "n_samples": 300, "seconds": 2.5},
    {"seq": 13, "t": 109.5, "type": "phase_end", "phase": "training", "task": 1},
    {"seq": 14, "t": 109.5, "type": "task_end", "task": 1},
    {"seq": 15, "t": 110.0, "type": "session_end", "status": "ok"},
]
IDLE = IdleBaseline(0.5, 0.0, "current_samples", None, 0.0, 10.0)


def _linear_energy(a, b):          # P(t) = 2 + 0.1 (t - 100)
    return 2.0 * (b - a) + 0.05 * ((b - 100) ** 2 - (a - 100) ** 2)


def test_event_groups_without_power():
    gs = event_groups(EVENTS)
    kinds = [(g.kind, g.name, g.task) for g in gs]
    assert ("session", "s1", None) in kinds and ("task", "task 2", 1) in kinds
    assert [g.name for g in gs if g.kind == "phase"] == ["training", "evaluation", "swapping", "training", "overhead"]
    assert all(g.closed for g in gs)


def test_phase_attribution_matches_analytic_energy(tmp_path):
    tr = _trace(lambda tau: 2.0 + 0.1 * tau)
    rows = _rows(tr, EVENTS, idle=IDLE)
    by = {(r.kind, r.name, r.task): r for r in rows}
    assert by[("session", "s1", None)].energy_j == pytest.approx(25.0, rel=1e-6)
    assert by[("task", "task 1", 0)].energy_j == pytest.approx(_linear_energy(100, 106), rel=1e-6)
    train0 = by[("phase", "training", 0)]
    assert train0.energy_j == pytest.approx(_linear_energy(100, 105), rel=1e-6)
    assert train0.train_samples == 600 and train0.source == "current_samples"
    assert train0.j_per_sample == pytest.approx(_linear_energy(100, 105) / 600, rel=1e-6)
    assert train0.above_idle_j == pytest.approx(_linear_energy(100, 105) - 0.5 * 5, rel=1e-6)
    assert by[("phase", "swapping", 1)].energy_j == pytest.approx(_linear_energy(106, 107), rel=1e-6)
    assert by[("phase", "overhead", None)].energy_j == pytest.approx(_linear_energy(109.5, 110), rel=1e-6)
    assert by[("phase", "evaluation", 0)].train_samples == 0
    totals = phase_totals(rows)
    assert totals["training"] == pytest.approx(_linear_energy(100, 105) + _linear_energy(107, 109.5), rel=1e-6)
    phases = sum(r.energy_j for r in rows if r.kind == "phase")
    assert phases == pytest.approx(by[("session", "s1", None)].energy_j, abs=1e-9)     # nothing lost
    assert all(r.simulated for r in rows)
    out = write_energy_csv(rows, tmp_path / "energy.csv")
    text = out.read_text().splitlines()
    assert text[0].startswith("kind,name,session_id") and "error_j" in text[0] and len(text) == len(rows) + 1


def test_unclosed_phase_is_cut_at_last_event_and_noted():
    evs = EVENTS[:12]
    rows = _rows(_trace(lambda tau: 1.0), evs)
    open_rows = [r for r in rows if "no end event" in r.note]
    assert {r.kind for r in open_rows} == {"session", "task", "phase"}
    assert all(r.t1 == pytest.approx(107.0) for r in open_rows)


def test_phase_outside_trace_gets_no_energy():
    late = [dict(e, t=e["t"] + 100) for e in EVENTS]
    rows = _rows(_trace(lambda tau: 1.0), late)
    assert all(r.energy_j is None and "covers" in r.note for r in rows)


def test_charging_phase_refused_but_others_reported():
    lines = ["# clock=CLOCK_MONOTONIC", "t,current,voltage,charge_counter,capacity,status,temp"]
    for k in range(101):
        t = 100 + k / 10
        lines.append(f"{t:.6f},-500000,4000000,3000000,80,{'Charging' if 106.5 < t < 107.5 else 'Discharging'},300")
    tr = normalise(parse_power_csv("\n".join(lines) + "\n"), CounterConvention(), simulated=False)
    rows = _rows(tr, EVENTS)
    by = {(r.kind, r.name, r.task): r for r in rows}
    swap = by[("phase", "swapping", 1)]
    assert swap.energy_j is None and "refused" in swap.note and swap.charging_samples > 0
    assert by[("phase", "training", 0)].energy_j == pytest.approx(2.0 * 5)
    assert rows[0].simulated is False
    assert measure_events(tr, None, EVENTS, allow_charging=True).session.energy_j is not None


def test_boottime_trace_needs_t_boot_on_the_events():
    tr = _trace(lambda tau: 1.0)
    tr.clock = "CLOCK_BOOTTIME"
    with pytest.raises(PowerError, match="t_boot"):
        measure_events(tr, None, EVENTS)


def test_swap_time_inside_training_is_estimated_not_sliced():
    evs = [e for e in EVENTS if not (e["type"].startswith("phase") and e.get("phase") == "swapping")]
    evs.insert(11, {"seq": 0, "t": 108.0, "type": "swap", "task": 1, "epoch": 0, "n_swapped": 40, "seconds": 0.5})
    evs = [dict(e, seq=i) for i, e in enumerate(evs)]
    rows = _rows(_trace(lambda tau: 2.0 + 0.1 * tau), evs)
    est = [r for r in rows if r.kind == "estimate"]
    assert len(est) == 1 and est[0].phase == "swapping" and est[0].task == 1
    train1 = next(r for r in rows if r.kind == "phase" and r.phase == "training" and r.task == 1)
    assert est[0].energy_j == pytest.approx(0.5 * train1.mean_power_w, rel=1e-6)
    assert "estimated" in est[0].note
    assert "swapping (estimated, part of training)" in phase_totals(rows)


def test_runner_launch_before_session_start_is_loading():
    tr = _trace(lambda tau: 2.0 + 0.1 * tau)
    evs = [dict(e) for e in EVENTS]
    evs[0]["t"] = 100.0
    later = [dict(e, t=max(e["t"], 101.0)) for e in evs[1:]]     # the runner loads for 1 s before its first phase
    m = measure_events(tr, None, [evs[0]] + later, {"t_start": 100.0, "t_end": 110.0})
    session = m.session
    assert (session.t0, session.t1) == (100.0, 110.0) and "incl. loading" in session.note
    loading = next(r for r in m.rows if r.name == "loading")
    assert loading.energy_j == pytest.approx(_linear_energy(100.0, 101.0), rel=1e-6) and loading.task is None
    assert session.energy_j == pytest.approx(25.0, rel=1e-6)
    assert m.summary()["phases_j"]["loading"] == pytest.approx(loading.energy_j)
