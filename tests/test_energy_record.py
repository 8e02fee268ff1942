"""The experiment's energy record of a session (``pipeline.experiment.session_energy``, what summary.json,
the CLI table and Miro get): the counter it came from, its resolution, whether it is precise, and
the energy per phase, which sum to the session's counter difference; program load apart."""
from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest
from rich.console import Console

from energy_sim import Profile, session_events, simulate, write_session
from pipeline.config import parse_spec
from pipeline.energy import parse_rails_log
from pipeline.experiment import TaskRun, session_energy, summary_table, write_summary
from pipeline.task_config import TaskConfig

# launched at 100, program load to 102, training to 110, evaluation to 111, end 111.5
PROF = Profile(0.6, [(100, 102, 2.4), (102, 110, 4.0), (110, 111, 1.5), (111, 111.5, 1.0)])
PHASES = [("training", 102.0, 110.0), ("evaluation", 110.0, 111.0)]


def _folder(tmp_path: Path, clock: str, with_boot: bool = True, end: float = 111.5, phases=PHASES,
            first: float = 101.0) -> Path:
    off = 1000.0 if clock == "CLOCK_BOOTTIME" else 0.0
    prof = Profile(PROF.idle_w, [(a + off, b + off, w) for a, b, w in PROF.spans])
    text, rails = simulate(prof, 96.0 + off, end + 4.0 + off, period=1.0, rails=True, rail_period=0.25, clock=clock)
    evs = session_events(100.0, first, end, phases, heartbeat_s=0.5, t_boot_offset=off if with_boot else None)
    return write_session(tmp_path / "s", text, evs, {"t_start": first, "t_end": end}, rails)


@pytest.mark.parametrize("clock", ["CLOCK_MONOTONIC", "CLOCK_BOOTTIME"])
def test_record_names_its_counter_and_its_phases_sum_to_the_rails_difference(tmp_path: Path, clock: str) -> None:
    folder = _folder(tmp_path, clock)
    rec = session_energy(folder)
    off = 1000.0 if clock == "CLOCK_BOOTTIME" else 0.0
    rails = parse_rails_log((folder / "rails.txt").read_text())
    k0, k1 = list(rails.t).index(100.0 + off), list(rails.t).index(111.5 + off)
    assert rec["source"] == "odpm_rails" and rec["resolution_s"] == pytest.approx(0.25) and rec["precise"] is True
    assert rec["energy_j"] == pytest.approx(rails.total_j[k1] - rails.total_j[k0], abs=1e-9)
    assert rec["energy_j"] == pytest.approx(PROF.energy(100.0, 111.5), rel=1e-3)
    assert sum(rec["phases_j"].values()) == pytest.approx(rec["energy_j"], abs=1e-5)
    assert rec["phases_j"]["loading"] == pytest.approx(PROF.energy(100.0, 102.0), rel=1e-3)   # launch to first phase
    assert rec["phases_j"]["training"] == pytest.approx(PROF.energy(102.0, 110.0), rel=1e-3)
    assert rec["error_j"] is not None and rec["error_j"] < 0.1 * rec["energy_j"]


def test_a_window_of_a_few_counter_periods_is_marked_imprecise(tmp_path: Path) -> None:
    rec = session_energy(_folder(tmp_path, "CLOCK_MONOTONIC", end=100.6, phases=[("training", 100.1, 100.5)], first=100.05))
    assert rec["source"] == "odpm_rails" and rec["energy_j"] is not None and rec["precise"] is False
    assert rec["duration_s"] == pytest.approx(0.6) and "imprecise" in rec["note"]


def test_a_boottime_trace_with_events_lacking_t_boot_has_no_figure_and_says_why(tmp_path: Path) -> None:
    rec = session_energy(_folder(tmp_path, "CLOCK_BOOTTIME", with_boot=False))
    assert rec["energy_j"] is None and rec["precise"] is False and "t_boot" in rec["note"]


def test_summary_reports_program_load_apart_from_training(tmp_path: Path) -> None:
    rec = session_energy(_folder(tmp_path, "CLOCK_MONOTONIC"))
    spec = parse_spec({"name": "rec", "data": {"kind": "digits", "tasks": 1, "classes_per_task": 2}})
    config = TaskConfig.from_spec(spec)
    run = SimpleNamespace(spec=spec, runtime="ort", data=SimpleNamespace(tasks=[0]),
                          device=SimpleNamespace(profile=SimpleNamespace(simulated=True)))
    result = {"iterations": 5, "evals": [{"after_task": 0, "class_il": {"0": 90.0}, "task_il": {"0": 95.0}}]}
    summary = write_summary(tmp_path, run, [TaskRun(0, "s", config, result, 11.5, rec["energy_j"], [], rec)])
    task = summary["tasks"][0]
    assert task["loading_j"] == pytest.approx(rec["phases_j"]["loading"]) and task["loading_j"] > 0
    assert task["training_j"] == pytest.approx(rec["phases_j"]["training"])
    assert summary["loading_j"] == task["loading_j"] and summary["energy_j"] == rec["energy_j"]
    console = Console(record=True, width=220)
    console.print(summary_table(summary))
    text = console.export_text()
    assert "load J" in text and "energy (simulated) from odpm_rails" in text and f"{task['loading_j']:.2f}" in text
    # A dense run (SparCL off) says so in the sparsity column, so its energy per task sits beside a SparCL run's.
    assert summary["sparcl"] is False and " dense " in text and f" {config.sparsity:g} " not in text
    console = Console(record=True, width=220)
    console.print(summary_table({**summary, "sparcl": True}))
    assert f" {config.sparsity:g} " in console.export_text()


def test_the_demo_prints_the_counter_program_load_and_the_profiling_share_against_the_goal() -> None:
    from pipeline.cli.demo_cmd import energy_lines

    rec = {"source": "odpm_rails", "resolution_s": 1.0, "precise": True}
    summary = {"simulated": True, "energy_j": 12.0, "loading_j": 1.5, "training_j": 9.0,
               "tasks": [{"energy": rec}, {"energy": {**rec, "precise": False}}]}
    lines = energy_lines(summary, {"overhead": {"energy_share": 0.125}})
    assert lines[0].startswith("energy: odpm_rails (every ~1 s); 1 of 2 task sessions precise")
    assert lines[1] == "program load: 1.50 J (simulated), training: 9.00 J, all task sessions: 12.00 J"
    assert lines[2] == "profiling share: 12.5% of the run's energy (simulated) (goal <= 10%: NOT met)"
    assert energy_lines(summary, {"overhead": {"energy_share": 0.08}})[2].endswith("(goal <= 10%: met)")
    assert len(energy_lines(summary, None)) == 2                      # no Miro figure: nothing claimed
