"""The parser table (tests/data/power/parser_cases.json): every vendor format and every bad value,
each with its expected result or PowerError. The README beside it says where each format comes from."""
import json
from pathlib import Path

import pytest

from android_harness.battery_parse import parse_dumpsys_battery
from android_harness.perfetto_parse import parse_perfetto_textproto, parse_trace_processor_counters
from android_harness.rail_parse import parse_rails
from pipeline.energy import CounterConvention, normalise, parse_power_csv, parse_rails_log
from pipeline.errors import PowerError

DATA = Path(__file__).parent / "data" / "power"
CASES = json.loads((DATA / "parser_cases.json").read_text())


def _text(case: dict) -> str:
    if "file" in case:
        return (DATA / case["file"]).read_text()
    return "\n".join(case["lines"]) + ("" if case.get("cut_mid_line") else "\n")


def _view(case: dict, text: str) -> dict:
    """Parse with the case's parser; a flat dict of what the expectations may name."""
    kind = case["parser"]
    if kind == "dumpsys_battery":
        return vars(parse_dumpsys_battery(text))
    if kind == "rails":
        snap = parse_rails(text)
        out = {"fmt": snap.fmt, "rails": len(snap.rails), "elapsed_ms": snap.elapsed_ms, "timestamp_ms": snap.timestamp_ms}
        for r in snap.rails:
            out[f"uws:{r.rail}"], out[f"subsystem:{r.rail}"] = r.energy_uws, r.subsystem
        out.update({f"consumer:{name}": uws for name, uws in snap.consumers_uws.items()})
        out.update({f"uid:{name}:{uid}": uws for name, rows in snap.attribution_uws.items() for uid, uws in rows.items()})
        return out
    if kind in ("perfetto_textproto", "trace_processor_csv"):
        p = (parse_perfetto_textproto if kind == "perfetto_textproto" else parse_trace_processor_counters)(text)
        return {"rails": len(p.rails), **{f"battery:{k}": [v for _, v in vals] for k, vals in p.battery.items()}}
    if kind == "power_csv":
        profile = case.get("profile")
        conv = CounterConvention.from_profile(profile) if profile else CounterConvention()
        tr = normalise(parse_power_csv(text, "power.csv"), conv, simulated=False)
        out = dict(tr.convention)
        out.update({f"power_w@{k}": float(tr.power_w[k]) for k in (0, 50) if k < len(tr)})
        return out
    if kind == "rails_log":
        s = parse_rails_log(text)
        return {"snapshots": len(s), "resets": s.resets, "total_j": list(s.total_j), "t": list(s.t)}
    raise AssertionError(f"unknown parser {kind}")


def test_every_case_names_its_source():
    assert len({c["id"] for c in CASES}) == len(CASES)
    for c in CASES:
        assert c.get("source") and ("expect" in c) != ("error" in c), c["id"]


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_parser_case(case):
    text = _text(case)
    if "error" in case:
        with pytest.raises(PowerError) as info:
            _view(case, text)
        assert case["error"] in str(info.value)
        return
    got = _view(case, text)
    for key, want in case["expect"].items():
        assert key in got, f"{case['id']}: {key} not in {sorted(got)}"
        if isinstance(want, float) or (isinstance(want, list) and want and isinstance(want[0], float)):
            assert got[key] == pytest.approx(want, rel=1e-6), key
        else:
            assert got[key] == want, key
