"""The report header's energy line names the counter the session figures came from: the ODPM rails
when a session's rails.txt was used (here in the PowerStats HAL's own dump form, per-uid rows
included), the fuel gauge when only power.csv was, each with its session count when they differ."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from pipeline.report.header import run_header
from pipeline.report.results import load_results
from tests.report_fixture import _phase_power, make_results


def _hal_dump(uws: float) -> list[str]:
    """One dump of a one-rail PowerStats HAL, in the HAL's printf formats (PowerStatsAidl.cpp)."""
    mws = float(np.float32(int(uws))) / 1000.0
    return ["", "============= PowerStats HAL 2.0 energy consumers ==============",
            "%-12s : %14.2f mWs" % ("CPUCL2", mws), "  %10d - %14.2f mWs" % (10148, mws * 0.75),
            "========== End of PowerStats HAL 2.0 energy consumers ==========", "",
            "============= PowerStats HAL 2.0 energy meter ==============",
            "  %32s   %18s" % ("Channel", "Cumulative Energy"),
            "  %32s   %14.2f mWs" % ("[S2M_VDD_CPUCL2]:CPU(big)", mws),
            "========== End of PowerStats HAL 2.0 energy meter =========="]


def _add_rails(session: Path) -> None:
    """rails.txt for the session: snapshots every 0.25 s of an accumulator following its phases' power."""
    events = [json.loads(ln) for ln in (session / "events.jsonl").read_text().splitlines()]
    watts = _phase_power(events)
    t0, t1 = events[0]["t"] - 0.5, events[-1]["t"] + 0.5
    grid = np.arange(t0, t1 + 1e-9, 0.001)
    energy = np.concatenate([[0.0], np.cumsum([watts(t) * 0.001 for t in grid[:-1]])]) * 1e6 + 5e8
    blocks = []
    for t in np.arange(t0, t1, 0.25):
        uws = float(np.interp(t, grid, energy))
        blocks += [f"@@ rails t0={t:.6f} t1={t:.6f} clock=CLOCK_MONOTONIC source=cmd", *_hal_dump(uws), "@@ end"]
    (session / "rails.txt").write_text("\n".join(blocks) + "\n")


def _energy_line(folder: Path) -> str:
    return dict((k, v) for k, _, v in run_header(load_results(folder)))["energy"]


def test_header_names_the_battery_counter_when_sessions_used_it(tmp_path):
    """The fixture's power.csv has a charge counter, which the sessions' figures come from."""
    line = _energy_line(make_results(tmp_path / "r"))
    assert line == ("battery coulomb counter, charge_counter x voltage_now from /sys/class/power_supply/battery; "
                    "SIMULATED: the virtual phone's power model, not a measurement"), line


def test_header_names_the_fuel_gauge_when_there_is_no_charge_counter(tmp_path):
    folder = make_results(tmp_path / "r")
    for csv in (folder / "sessions").glob("*/power.csv"):
        lines = csv.read_text().splitlines()
        csv.write_text("\n".join(lines[:5] + [",".join(c if i != 3 else "" for i, c in enumerate(ln.split(",")))
                                              for ln in lines[5:]]) + "\n")
    line = _energy_line(folder)
    assert line.startswith("battery fuel gauge, current_now x voltage_now from /sys/class/power_supply/battery "
                           "sampled on the phone (current in uA, positive when charging)"), line
    assert "ODPM" not in line and "coulomb" not in line


def test_header_names_the_odpm_rails_when_the_tables_do(tmp_path):
    folder = make_results(tmp_path / "r")
    _add_rails(folder / "sessions" / "s-main")
    data = load_results(folder)
    sources = {s.session_id: {r.source for r in s.rows if r.kind == "session"} for s in data.sessions}
    assert sources == {"s-main": {"odpm_rails"}, "s-prof-1": {"charge_counter"}}, sources
    line = _energy_line(folder)
    assert line.startswith("on-device power monitor (ODPM) rails: the PowerStats HAL's energy accumulators"), line
    assert "(1 session); battery coulomb counter, charge_counter x voltage_now" in line, line
    assert line.count("(1 session)") == 2 and "fuel gauge" not in line
    _add_rails(folder / "sessions" / "s-prof-1")
    line = _energy_line(folder)
    assert line.startswith("on-device power monitor (ODPM) rails"), line
    assert "session)" not in line and "coulomb" not in line and "fuel gauge" not in line
