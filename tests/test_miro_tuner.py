"""MiroTuner's per-task loop against a synthetic profiler: defaults before start_task, clipping,
the battery-aware switch, overhead accounting and miro.json."""
from __future__ import annotations

import json
import math

from pipeline.config import parse_spec
from pipeline.miro.resources import DeviceState
from pipeline.miro.tuner import ProfileRun, TaskInfo, MiroTuner


class SurfaceProfiler:
    """Accuracy with diminishing returns in EM/SB; energy linear in samples trained (the paper's shape)."""

    def __init__(self) -> None:
        self.calls: list[tuple] = []

    def mini_checkpoint(self, task, subset_fraction, epochs):
        self.calls.append(("ckpt", task.task_index, epochs))
        return ProfileRun(0.5, 2.0, 1.0, "ckpt", simulated=True, checkpoint="ckpt-1")

    def profile(self, task, replay, epochs, subset_fraction, checkpoint, sparsity, ddr_fraction):
        self.calls.append(("run", replay.em_size, replay.sb_size, epochs, checkpoint))
        em, sb = replay.em_size / subset_fraction, replay.sb_size / subset_fraction
        acc = 0.9 * (1 - math.exp(-em / 150)) * (1 - math.exp(-sb / 60)) + 0.05
        return ProfileRun(acc, 0.01 * (replay.em_size + replay.sb_size) * epochs + 0.1, 0.5 * epochs, f"s{len(self.calls)}", True)


def _spec(**miro):
    table = {"replay": {"em_size": 77, "sb_size": 33}, "miro": {"enabled": True, "start_task": 2,
             "em_sizes": [25, 50, 100, 200, 400, 800], "sb_sizes": [50, 100, 200], "subset_fraction": 0.5,
             "profile_epochs": 2, "cutline": 0.5, **miro}}
    return parse_spec(table)


def test_defaults_first_then_profiles_clipped_candidates(tmp_path):
    prof = SurfaceProfiler()
    tuner = MiroTuner(_spec(), prof, results_dir=tmp_path)
    first = tuner.choose(TaskInfo(0, task_samples=300, seen_samples=0))
    assert (first.em_size, first.sb_size) == (77, 33) and prof.calls == []
    chosen = tuner.choose(TaskInfo(1, task_samples=150, seen_samples=300))
    runs = [c for c in prof.calls if c[0] == "run"]
    assert prof.calls[0] == ("ckpt", 1, 1)
    # clipped: EM <= 300 seen, SB <= 150 in the task; scaled by the 0.5 subset
    assert max(r[1] for r in runs) == 150 and max(r[2] for r in runs) == 75
    assert all(r[4] == "ckpt-1" for r in runs)
    assert chosen.em_size <= 300 and chosen.sb_size <= 150
    data = json.loads((tmp_path / "miro.json").read_text())
    assert data["simulated"] is True
    assert [t["profiled"] for t in data["tasks"]] == [False, True]
    assert data["tasks"][1]["profiling_energy_j"] > 2.0
    assert data["tasks"][1]["chosen"]["em_size"] == chosen.em_size
    tuner.set_run_totals(energy_j=10 * tuner.profiling_energy_j, seconds=None)
    assert json.loads((tmp_path / "miro.json").read_text())["overhead"]["energy_share"] == 0.1


def test_low_battery_profiles_fewer_and_cheaper_candidates():
    full, low = SurfaceProfiler(), SurfaceProfiler()
    info = TaskInfo(2, task_samples=200, seen_samples=2000)
    a = MiroTuner(_spec(), full, state_reader=lambda: DeviceState(battery_pct=90, charging=False)).choose(info)
    b = MiroTuner(_spec(), low, state_reader=lambda: DeviceState(battery_pct=12, charging=False)).choose(info)
    assert len(low.calls) < len(full.calls)
    assert b.em_size + b.sb_size < a.em_size + a.sb_size


def test_halving_spends_fewer_profiling_epochs_than_the_grid():
    grid, halving = SurfaceProfiler(), SurfaceProfiler()
    info = TaskInfo(2, task_samples=200, seen_samples=2000)
    g = MiroTuner(_spec(profile_epochs=4), grid)
    h = MiroTuner(_spec(profile_epochs=4, search="halving"), halving)
    assert g.choose(info) == h.choose(info)
    spent = lambda p: sum(c[3] for c in p.calls if c[0] == "run")  # noqa: E731
    assert spent(halving) <= spent(grid) // 2
