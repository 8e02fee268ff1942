"""Attribution by device time: program loads, relaunches, pauses and suspends are phases of their
own, and the phases always sum to the session, the session to the counter's difference."""
import numpy as np
import pytest

from energy_sim import Profile, session_events, simulate
from pipeline.energy import (CounterConvention, IdleBaseline, measure_events, normalise, parse_power_csv,
                             parse_rails_log)
from pipeline.energy.clock import ClockMap, event_clock
from pipeline.energy.timeline import build_timeline

CONV = CounterConvention()
IDLE = IdleBaseline(0.6, 0.0, "current_gauge", 0.6, 0.0, 10.0)


def _trace(prof, t0, t1, **kw):
    text, rails = simulate(prof, t0, t1, **kw)
    return normalise(parse_power_csv(text), CONV, simulated=True), (parse_rails_log(rails) if rails else None)


def _seq(evs):
    evs = sorted(evs, key=lambda e: e["t"])
    return [{**e, "seq": i} for i, e in enumerate(evs)]


def _by(rows):
    out = {}
    for r in rows:
        out.setdefault((r.kind, r.name), []).append(r)
    return out


def _assert_sums(rows):
    session = next(r for r in rows if r.kind == "session")
    phases = [r for r in rows if r.kind == "phase"]
    assert sum(r.energy_j for r in phases) == pytest.approx(session.energy_j, abs=1e-9)
    assert sum(r.duration_s for r in phases) == pytest.approx(session.duration_s, abs=1e-6)
    for task in {r.task for r in rows if r.kind == "task"}:
        t_row = next(r for r in rows if r.kind == "task" and r.task == task)
        assert sum(r.energy_j for r in phases if r.task == task) == pytest.approx(t_row.energy_j, abs=1e-9)


def test_relaunch_and_program_loads_are_their_own_phases():
    # runner 1: launched 100, loads to 101.5, trains to 106 and dies; the host relaunches at 108;
    # runner 2 loads to 110, trains to 116, ends at 116.5 (result.json belongs to runner 2)
    prof = Profile(0.6, [(100, 101.5, 2.4), (101.5, 106, 4.0), (106, 108, 1.0), (108, 110, 2.4), (110, 116, 4.0),
                         (116, 116.5, 1.5)])
    tr, _ = _trace(prof, 95.0, 120.0, period=1.0, charge_counter=False)
    evs = [{"t": 100.5, "type": "session_start", "session_id": "s", "t_launch": 100.0},
           {"t": 101.5, "type": "task_start", "task": 0}, {"t": 101.5, "type": "phase_start", "phase": "training", "task": 0},
           {"t": 106.0, "type": "step", "task": 0, "step": 50},
           {"t": 109.0, "type": "session_start", "session_id": "s", "resumed_from": "ckpt-50"},
           {"t": 110.0, "type": "task_start", "task": 0}, {"t": 110.0, "type": "phase_start", "phase": "training", "task": 0},
           {"t": 116.0, "type": "phase_end", "phase": "training", "task": 0}, {"t": 116.0, "type": "task_end", "task": 0},
           {"t": 116.5, "type": "session_end", "status": "ok"}]
    m = measure_events(tr, None, _seq(evs), {"t_start": 108.0, "t_end": 116.5}, idle=IDLE)
    by = _by(m.rows)
    session = by[("session", "s")][0]
    assert (session.t0, session.t1) == (100.0, 116.5) and "2 runners" in session.note
    assert session.energy_j == pytest.approx(prof.energy(100, 116.5), rel=0.01)   # not just after the relaunch
    loads = by[("phase", "loading")]
    assert [(r.t0, r.t1) for r in loads] == [(100.0, 101.5), (108.0, 110.0)]
    assert [r.energy_j for r in loads] == pytest.approx([prof.energy(100, 101.5), prof.energy(108, 110)], rel=0.02)
    relaunch = by[("phase", "relaunch")][0]
    assert (relaunch.t0, relaunch.t1) == (106.0, 108.0)
    assert relaunch.energy_j == pytest.approx(prof.energy(106, 108), rel=0.02)
    first, second = by[("phase", "training")]
    assert "no end event" in first.note and first.t1 == 106.0
    assert second.energy_j == pytest.approx(prof.energy(110, 116), rel=0.01)
    _assert_sums(m.rows)


def test_a_paused_runner_is_not_billed_as_training():
    # heartbeats every 0.5 s; SIGSTOP at 105 (the phone idles), SIGCONT at 110
    prof = Profile(0.6, [(100, 105, 4.0), (110, 115, 4.0)])
    tr, _ = _trace(prof, 95.0, 119.0, period=1.0, charge_counter=False)
    evs = session_events(100.0, 100.0, 115.0, [("training", 100.0, 115.0)], heartbeat_s=0.5, pauses=[(105.0, 110.0)])
    m = measure_events(tr, None, evs, idle=IDLE)
    by = _by(m.rows)
    paused = by[("phase", "paused")][0]
    assert (paused.t0, paused.t1) == (105.0, 110.0) and "heartbeat" in paused.note
    assert paused.energy_j == pytest.approx(0.6 * 5.0, rel=0.02)
    train = by[("phase", "training")][0]
    assert train.duration_s == pytest.approx(10.0)
    assert train.energy_j == pytest.approx(prof.energy(100, 105) + prof.energy(110, 115), rel=0.01)
    assert by[("task", "task 1")][0].energy_j == pytest.approx(prof.energy(100, 115), rel=0.01)
    _assert_sums(m.rows)


def test_session_equals_the_rails_difference_and_phases_sum_to_it():
    prof = Profile(0.6, [(100, 104, 3.0), (104, 106, 1.5), (106, 110, 3.5)])
    tr, rails = _trace(prof, 96.0, 113.0, period=1.0, rails=True, rail_period=0.25)
    evs = session_events(100.0, 100.0, 110.0, [("training", 100, 104), ("evaluation", 104, 106), ("training", 106, 110)])
    m = measure_events(tr, rails, evs)
    s = m.session
    k0, k1 = int(np.searchsorted(rails.t, 100.0)), int(np.searchsorted(rails.t, 110.0))
    assert (rails.t[k0], rails.t[k1]) == (100.0, 110.0)
    assert s.source == "odpm_rails" and s.energy_j == pytest.approx(rails.total_j[k1] - rails.total_j[k0], abs=1e-9)
    assert s.energy_j == pytest.approx(prof.energy(100, 110), rel=1e-3)
    _assert_sums(m.rows)


def test_boottime_trace_with_a_suspend():
    """The shell sampler's trace is on CLOCK_BOOTTIME; events carry t_boot; the phone sleeps 3 s
    between two events: that time is 'suspended', not training."""
    prof = Profile(0.6, [(1100, 1104, 4.0), (1104, 1107, 0.05), (1107, 1111, 4.0)])    # boottime seconds
    text, _ = simulate(prof, 1095.0, 1115.0, period=1.0, charge_counter=True, clock="CLOCK_BOOTTIME")
    asleep = lambda ln: ln[0].isdigit() and 1104.0 < float(ln.split(",")[0]) < 1107.0     # the sampler froze too
    text = "\n".join(ln for ln in text.splitlines() if not asleep(ln)) + "\n"
    tr = normalise(parse_power_csv(text), CONV, simulated=True)
    mono = [(100.0, "session_start", {}), (100.0, "task_start", {"task": 0}),
            (100.0, "phase_start", {"phase": "training", "task": 0}), (104.0, "step", {"task": 0}),
            (108.0, "phase_end", {"phase": "training", "task": 0}), (108.0, "task_end", {"task": 0}),
            (108.0, "session_end", {})]
    evs = [{"seq": i, "t": t, "type": typ, **extra, "t_boot": t + (1000.0 if t <= 104.0 else 1003.0)}
           for i, (t, typ, extra) in enumerate(mono)]
    clock = event_clock(evs, "CLOCK_BOOTTIME")
    assert clock(104.0) == 1104.0 and clock(108.0) == 1111.0 and "suspended 3.00 s" in clock.notes[0]
    assert clock.suspended_between(104.0, 108.0) == pytest.approx(3.0)
    m = measure_events(tr, None, evs, idle=IdleBaseline(0.6, 0.0, "current_gauge", None, 0.0, 5.0))
    assert m.curve.source == "charge_counter"          # a coulomb counter counts through the suspend
    by = _by(m.rows)
    sus = by[("phase", "suspended")][0]
    assert (sus.t0, sus.t1) == (1104.0, 1107.0)        # placed where the sampler stopped, not guessed
    assert sus.energy_j == pytest.approx(0.05 * 3, abs=0.05)
    train = by[("phase", "training")][0]
    assert train.duration_s == pytest.approx(8.0)
    assert train.energy_j == pytest.approx(32.0, rel=0.01)
    _assert_sums(m.rows)
    # the gauge alone never saw the values published while the sampler slept: no figure, a reason
    gauge_only = normalise(parse_power_csv("\n".join(",".join(c if i != 3 else "3000000" for i, c in enumerate(ln.split(",")))
                                                      if ln[0].isdigit() else ln for ln in text.splitlines()) + "\n"),
                           CONV, simulated=True)
    m = measure_events(gauge_only, None, evs)
    assert m.curve.source == "current_gauge" and m.session.energy_j is None and "did not run" in m.session.note


def test_monotonic_events_map_to_themselves_and_need_nothing():
    clock = event_clock([{"t": 5.0}], "CLOCK_MONOTONIC")
    assert clock(5.0) == 5.0 and clock.suspended_between(1.0, 9.0) == 0.0
    tl = build_timeline([{"seq": 0, "t": 1.0, "type": "session_start", "session_id": "x"},
                         {"seq": 1, "t": 3.0, "type": "session_end"}], ClockMap("CLOCK_MONOTONIC"))
    assert [(s.kind, s.t0, s.t1) for s in tl.segments] == [("loading", 1.0, 3.0)]
