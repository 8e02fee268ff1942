"""A small results folder (docs/contracts.md layout) for the report tests: two tasks, one Miro
profiling session, an idle baseline; power follows the phases so the attribution is checkable."""
from __future__ import annotations

import json
from pathlib import Path

PHASE_W = {"training": 3.0, "evaluation": 1.5, "swapping": 2.0, "profiling": 2.5}
IDLE_W = 0.8
VOLTS = 3.9


def _events(session_id: str, t0: float, plan: list[tuple[int, str, float, int]]) -> list[dict]:
    """plan: (task, phase, seconds, train samples) in order."""
    evs = [{"t": t0, "type": "session_start", "session_id": session_id, "runtime": "ort", "pid": 4242, "device": {}}]
    t = t0
    tasks_open: set[int] = set()
    for task, phase, secs, n in plan:
        if task not in tasks_open:
            for k in sorted(tasks_open):
                evs.append({"t": t, "type": "task_end", "task": k})
            tasks_open = {task}
            evs.append({"t": t, "type": "task_start", "task": task, "classes": [2 * task, 2 * task + 1], "n_train": n})
        evs.append({"t": t, "type": "phase_start", "phase": phase, "task": task})
        t += secs
        if phase in ("training", "profiling") and n:
            evs.append({"t": t, "type": "epoch", "task": task, "epoch": 0, "loss": 0.5, "n_samples": n, "seconds": secs})
        if phase == "evaluation":
            for j in range(task + 1):
                evs.append({"t": t, "type": "eval", "after_task": task, "task": j,
                            "class_il": round(0.9 - 0.3 * (task - j), 3), "task_il": 0.95, "n": 100})
        evs.append({"t": t, "type": "phase_end", "phase": phase, "task": task})
    for k in sorted(tasks_open):
        evs.append({"t": t, "type": "task_end", "task": k})
    evs.append({"t": t + 0.5, "type": "session_end", "status": "ok"})
    return [{"seq": i, **e} for i, e in enumerate(evs)]


def _power_csv(t0: float, t1: float, watts, status=lambda t: "Discharging", rate=10.0) -> str:
    lines = ["# edgecl power.csv v1", "# clock=CLOCK_MONOTONIC", f"# rate_hz={rate:g}", "# sampler=python",
             "t,current,voltage,charge_counter,capacity,status,temp"]
    cc = 3_000_000.0
    n = int((t1 - t0) * rate)
    for k in range(n + 1):
        t = t0 + k / rate
        w = watts(t)
        ua = w / VOLTS * 1e6
        lines.append(f"{t:.6f},{-int(ua)},{int(VOLTS * 1e6)},{int(cc)},80,{status(t)},300")
        cc -= ua / rate / 3600
    return "\n".join(lines) + "\n"


def _phase_power(events: list[dict]):
    spans = []
    open_ = {}
    for e in events:
        if e["type"] == "phase_start":
            open_[(e["phase"], e["task"])] = e["t"]
        elif e["type"] == "phase_end":
            spans.append((open_.pop((e["phase"], e["task"])), e["t"], PHASE_W[e["phase"]]))

    def watts(t: float) -> float:
        for a, b, w in spans:
            if a <= t < b:
                return w
        return IDLE_W
    return watts


def make_results(folder: Path, simulated: bool = True, charging_in_session: bool = False, miro: bool = True) -> Path:
    """``miro=False``: a run without Miro (no miro.json, no profiling session, spec says miro off)."""
    from pipeline.config import parse_spec

    folder.mkdir(parents=True, exist_ok=True)
    profile = {"serial": "127.0.0.1:5555", "model": "Pixel 7 (edgecl vphone)", "simulated": simulated,
               "fingerprint": "edgecl/panther/panther:vphone/pixel7/sdk34:user/simulated", "sdk": 34,
               "abi": "arm64-v8a", "power_supply_dir": "/sys/class/power_supply/battery",
               "current_unit": "uA", "current_positive_when": "charging", "voltage_unit": "uV",
               "convention_source": "inferred from current_now=-512000 with status=Discharging"}
    spec = parse_spec({"name": "demo", "data": {"tasks": 2}, "export": {"runtime": "ort"},
                       "sparcl": {"enabled": True}, "miro": {"enabled": miro}}).to_dict()
    (folder / "spec.json").write_text(json.dumps(spec))
    (folder / "env.json").write_text(json.dumps({"git_revision": "abc123", "simulated": simulated, "runtime": "ort",
                                                 "device_profile": profile}))
    (folder / "summary.json").write_text(json.dumps({"name": "demo"}))
    idle = folder / "idle"
    idle.mkdir()
    (idle / "power.csv").write_text(_power_csv(990.0, 995.0, lambda t: IDLE_W))
    main = _events("s-main", 1000.0, [(0, "training", 4.0, 200), (0, "evaluation", 1.0, 0),
                                      (1, "swapping", 1.0, 0), (1, "training", 4.0, 200), (1, "evaluation", 1.5, 0)])
    prof = _events("s-prof-1", 1014.0, [(1, "profiling", 2.0, 40)])
    for sid, evs in (("s-main", main), ("s-prof-1", prof))[: 2 if miro else 1]:
        d = folder / "sessions" / sid
        d.mkdir(parents=True)
        (d / "session.json").write_text(json.dumps({"session_id": sid, "kind": "profiling" if "prof" in sid else "task"}))
        (d / "events.jsonl").write_text("".join(json.dumps(e) + "\n" for e in evs))
        t0, t1 = evs[0]["t"] - 0.5, evs[-1]["t"] + 0.5
        status = (lambda t: "Charging" if 1005.2 < t < 1005.8 else "Discharging") if charging_in_session and sid == "s-main" \
            else (lambda t: "Discharging")
        (d / "power.csv").write_text(_power_csv(t0, t1, _phase_power(evs), status))
    miro_json = {"simulated": simulated, "overhead": {"profiling_energy_j": 5.0, "profiling_seconds": 2.0},
            "tasks": [{"task": 1, "profiled": True, "chosen": {"key": "em200-sb20"},
                       "runs": [{"candidate": {"key": "em200-sb20"}, "accuracy": 0.71, "energy_j": 5.0, "seconds": 2.0,
                                 "epochs": 1, "proxy_energy": 220},
                                {"candidate": {"key": "em100-sb10"}, "accuracy": 0.64, "energy_j": 3.1, "seconds": 1.5,
                                 "epochs": 1, "proxy_energy": 110}]}]}
    if miro:
        (folder / "miro.json").write_text(json.dumps(miro_json))
    return folder
