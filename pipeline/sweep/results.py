"""A finished run's headline results for the sweep index, read from its normal results folder.

Energy is kept comparable: a run's energy carries the device model and fuel gauge it was measured
on, and a run whose tasks ran on phones of different models (it moved mid-run) has no comparable
energy -- its accuracy still counts.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pipeline.errors import EdgeclError, PowerError
from pipeline.run_journal import RunJournal


def idle_power_w(folder: Path) -> float | None:
    """The run's own idle baseline (W), measured on its phone before it; None when not measured."""
    path = folder / "idle" / "power.csv"
    if not path.is_file():
        return None
    from pipeline.energy import load_trace

    env = json.loads((folder / "env.json").read_text())
    try:
        return load_trace(path, env.get("device_profile"), simulated=bool(env.get("simulated"))).mean_power_w()
    except PowerError:
        return None


def run_result(folder: Path, run_wall_s: float) -> dict[str, Any]:
    """class-IL/task-IL/forgetting, energy (with what it is comparable to), seconds, the phones it ran on."""
    try:
        summary = json.loads((folder / "summary.json").read_text())
    except (OSError, ValueError) as exc:
        raise EdgeclError(f"{folder}: the run reported done but its summary.json is unreadable ({exc})") from None
    records = RunJournal(folder).records()
    if len(records) != len(summary["tasks"]):
        raise EdgeclError(f"{folder}: {len(summary['tasks'])} tasks in summary.json but {len(records)} task records")
    devices = [{"task": t, **rec["device"]} for t, rec in sorted(records.items())]
    kinds = sorted({(d["model"], d["gauge"]) for d in devices})
    energy = summary.get("energy_j")
    note = ""
    if energy is not None and len(kinds) > 1:
        energy, note = None, "tasks ran on different device models/gauges: energy not comparable"
    elif energy is None:
        notes = sorted({n for t in summary["tasks"] for n in t["notes"]})
        note = "no energy" + (f": {'; '.join(notes)}" if notes else " (power sampling off)")
    m = summary.get("metrics", {})
    return {"class_il": m.get("class_il"), "task_il": m.get("task_il"), "forgetting_class_il": m.get("forgetting_class_il"),
            "energy_j": energy, "energy_note": note, "idle_w": idle_power_w(folder),
            "model": kinds[0][0] if len(kinds) == 1 else " + ".join(k[0] for k in kinds),
            "gauge": kinds[0][1] if len(kinds) == 1 else None,
            "seconds": round(sum(float(t["seconds"]) for t in summary["tasks"]), 3), "run_wall_s": round(run_wall_s, 3),
            "simulated": bool(summary.get("simulated")), "devices": devices}
