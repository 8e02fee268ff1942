"""Energy is measured once: with ``power.allow_charging = true`` the run's table, summary.json and the HTML
report show the same energy (the report measures with the run's own setting, not a default)."""
from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path
from types import SimpleNamespace

from rich.console import Console

from android_harness.profile import DeviceProfile
from pipeline.config import parse_spec
from pipeline.energy import idle_baseline
from pipeline.experiment import TaskRun, session_energy, summary_table, write_summary
from pipeline.report import write_report
from pipeline.task_config import TaskConfig
from report_fixture import make_results


def _headline_energy(html: Path) -> str:
    m = re.search(r"energy of the training sessions \(simulated\)</th><td[^>]*>([^<]*)</td>", html.read_text())
    assert m is not None, "the report has no headline energy"
    return m.group(1)


def _run_summary(folder: Path, spec) -> dict:
    """What ``run_experiment`` writes for this folder: its sessions measured by ``session_energy``."""
    known = json.loads((folder / "env.json").read_text())["device_profile"]
    profile = DeviceProfile.from_json({f.name: known.get(f.name) for f in dataclasses.fields(DeviceProfile)})
    idle = idle_baseline(folder / "idle", profile, simulated=profile.simulated)
    rec = session_energy(folder / "sessions" / "s-main", profile, idle=idle, allow_charging=spec.power.allow_charging)
    run = SimpleNamespace(spec=spec, runtime="ort", data=SimpleNamespace(tasks=[0]), device=SimpleNamespace(profile=profile))
    result = {"iterations": 10, "evals": [{"after_task": 0, "class_il": {"0": 90.0}, "task_il": {"0": 95.0}}]}
    return write_summary(folder, run, [TaskRun(0, "s-main", TaskConfig.from_spec(spec), result, 12.0, rec["energy_j"], [], rec)])


def test_allow_charging_shows_the_same_energy_in_the_table_the_summary_and_the_report(tmp_path: Path) -> None:
    folder = make_results(tmp_path / "r", charging_in_session=True, miro=False)
    raw = json.loads((folder / "spec.json").read_text())
    raw["power"]["allow_charging"] = True
    spec = parse_spec(raw)
    (folder / "spec.json").write_text(json.dumps(spec.to_dict()))
    summary = _run_summary(folder, spec)
    energy = json.loads((folder / "summary.json").read_text())["energy_j"]
    assert energy is not None and energy == summary["energy_j"]
    console = Console(record=True, width=220)
    console.print(summary_table(summary))
    assert f"{energy:.2f}" in console.export_text()
    assert _headline_energy(write_report(folder).html) == f"{energy:.3f} J"


def test_without_allow_charging_the_run_and_the_report_both_refuse(tmp_path: Path) -> None:
    folder = make_results(tmp_path / "r", charging_in_session=True, miro=False)
    spec = parse_spec(json.loads((folder / "spec.json").read_text()))
    assert _run_summary(folder, spec)["energy_j"] is None
    assert _headline_energy(write_report(folder).html) == "–"
