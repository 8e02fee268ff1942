"""Miro on the (virtual) phone: profiling sessions measure energy on the device, miro.json records them."""
from __future__ import annotations

import json

from pipeline.config import parse_spec
from pipeline.miro.run import run_spec_with_miro


def test_two_tasks_with_miro_profiling_on_the_device(python_device, tmp_path):
    device = python_device          # training sessions: the Python runner's phone until the native runner lands
    spec = parse_spec({
        "name": "miro-device", "data": {"kind": "digits", "tasks": 2, "classes_per_task": 2, "max_train_per_class": 40,
                                        "max_test_per_class": 20},
        "model": {"kind": "mlp", "hidden": [32]}, "train": {"method": "er", "epochs": 1},
        "export": {"runtime": "ort"}, "replay": {"em_size": 40, "sb_size": 80, "swap_ratio": 0.25},
        "power": {"idle_seconds": 0.0},
        "miro": {"enabled": True, "start_task": 2, "em_sizes": [10, 80], "sb_sizes": [80], "subset_fraction": 0.5,
                 "checkpoint_epochs": 1, "profile_epochs": 1, "search": "grid"},
    }, source="test")
    folder, tuner = run_spec_with_miro(spec, device, tmp_path, progress=False)
    data = json.loads((folder / "miro.json").read_text())
    simulated = device.profile.simulated
    assert data["simulated"] is simulated
    first, second = data["tasks"]
    assert not first["profiled"] and second["profiled"]
    # EM is clipped to the 80 samples seen in task 1; each session takes the 0.5 subset of its SB and EM
    assert [r["candidate"]["em_size"] for r in second["runs"]] == [10, 80]
    # every profiling session has a measured figure with its counter; a window too short for that counter
    # is flagged imprecise and never becomes the candidate's task energy (pipeline/miro/tuner.py, step 5)
    assert all(r["energy_j"] is not None and r["extra"]["energy_source"] for r in second["runs"])
    for r in second["runs"]:
        from_profiling = r["extra"]["task_energy_basis"].startswith("profiling run")
        assert from_profiling == r["extra"]["energy_precise"]
        assert r["task_steps"] == 1 * -(-(min(r["candidate"]["em_size"], 80) + 80) // 32)   # 1 epoch of ceil((EM + SB) / B)
    assert second["mini_checkpoint"]["energy_j"] is not None
    assert second["device_state"]["mem_available_bytes"] > 0
    sessions = {p.name for p in (folder / "sessions").iterdir()}
    assert {r["session_id"] for r in second["runs"]} <= sessions
    # rails only count up: no window of them, however short, is billed negative energy
    on_rails = [r["energy_j"] for r in second["runs"] if r["extra"]["energy_source"] == "odpm_rails"]
    assert all(e >= 0 for e in on_rails)
    o = data["overhead"]
    assert o["profiling_energy_j"] == tuner.profiling_energy_j and o["run_energy_j"] > o["profiling_energy_j"]
    summary = json.loads((folder / "summary.json").read_text())
    chosen = second["chosen"]
    assert summary["tasks"][1]["config"]["em_size"] == chosen["em_size"]   # the session ran what Miro chose
