"""The trace-event JSON: built from a results folder, validated against the Trace Event Format."""
from __future__ import annotations

import json

import pytest

from pipeline.report import build_trace_events, load_results, validate_trace_events
from pipeline.report.trace_json import COUNTER
from report_fixture import make_results


@pytest.fixture(scope="module")
def trace(tmp_path_factory):
    return build_trace_events(load_results(make_results(tmp_path_factory.mktemp("r") / "run")))


def test_trace_is_valid_and_has_counter_and_slices(trace):
    assert validate_trace_events(trace) == []
    evs = trace["traceEvents"]
    counters = [e for e in evs if e["ph"] == "C"]
    assert counters and all(e["name"].startswith(COUNTER) and "W" in e["args"] for e in counters)
    assert all(e["name"].endswith("(simulated)") for e in counters)
    slices = {e["cat"] for e in evs if e["ph"] == "X"}
    assert slices == {"session", "task", "phase"}
    names = {(e["name"], e["args"]["name"]) for e in evs if e["ph"] == "M"}
    assert ("process_name", "edgecl device (simulated)") in names
    assert {("thread_name", "sessions"), ("thread_name", "tasks"), ("thread_name", "phases")} <= names
    train = next(e for e in evs if e["ph"] == "X" and e["name"] == "training (task 1)")
    assert train["dur"] == pytest.approx(4e6) and train["args"]["energy_j"] > 0
    assert min(e["ts"] for e in evs if "ts" in e) == 0
    json.dumps(trace, allow_nan=False)


def test_overlapping_phases_go_to_separate_lanes(tmp_path):
    folder = make_results(tmp_path / "r")
    ev_path = folder / "sessions" / "s-main" / "events.jsonl"
    evs = [json.loads(line) for line in ev_path.read_text().splitlines()]
    n = len(evs)
    evs.insert(3, {"seq": 0, "t": 1003.0, "type": "phase_start", "phase": "swapping", "task": 0})
    evs.append({"seq": 0, "t": 1004.5, "type": "phase_end", "phase": "swapping", "task": 0})
    ev_path.write_text("".join(json.dumps(dict(e, seq=i)) + "\n" for i, e in enumerate(evs)))
    tr = build_trace_events(load_results(folder))
    assert validate_trace_events(tr) == []
    tids = {e["tid"] for e in tr["traceEvents"] if e["ph"] == "X" and e["cat"] == "phase"}
    assert len(tids) == 2 and len(evs) == n + 2


@pytest.mark.parametrize("bad,msg", [
    ({"traceEvents": "x"}, "traceEvents"),
    ([{"name": "a", "ph": "X", "pid": 1, "tid": 1, "ts": 0}], "dur"),
    ([{"name": "a", "ph": "X", "pid": 1, "tid": 1, "ts": -5, "dur": 1}], "ts"),
    ([{"name": "a", "ph": "C", "pid": 1, "ts": 0, "args": {"W": "high"}}], "numbers"),
    ([{"name": "a", "ph": "Q", "pid": 1, "ts": 0}], "unsupported"),
    ([{"name": "nonsense", "ph": "M", "pid": 1, "args": {"name": "x"}}], "metadata"),
    ([{"name": 3, "ph": "C", "pid": "1", "ts": 0, "args": {"W": 1}}], "pid"),
    ([{"name": "a", "ph": "C", "pid": 1, "ts": float("nan"), "args": {"W": 1}}], "strict JSON"),
    ([{"name": "a", "ph": "X", "pid": 1, "tid": 1, "ts": 0, "dur": 10},
      {"name": "b", "ph": "X", "pid": 1, "tid": 1, "ts": 5, "dur": 10}], "nesting"),
])
def test_validator_catches_what_would_not_load(bad, msg):
    problems = validate_trace_events(bad)
    assert problems and any(msg in p for p in problems), problems


def test_nested_and_disjoint_slices_are_fine():
    ok = [{"name": "a", "ph": "X", "pid": 1, "tid": 1, "ts": 0, "dur": 10},
          {"name": "b", "ph": "X", "pid": 1, "tid": 1, "ts": 2, "dur": 3},
          {"name": "c", "ph": "X", "pid": 1, "tid": 1, "ts": 10, "dur": 3}]
    assert validate_trace_events(ok) == []
