"""MiroTuner's per-task loop against a synthetic profiler: defaults before start_task, clipping,
the battery-aware switch, overhead accounting and miro.json."""
from __future__ import annotations

import json
import math

import pytest

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

    def profile(self, task, config, epochs, subset_fraction, checkpoint):
        replay = config.replay
        self.calls.append(("run", replay.em_size, replay.sb_size, epochs, checkpoint, config.sparsity, config.ddr_fraction))
        em, sb = replay.em_size, replay.sb_size
        acc = 0.9 * (1 - math.exp(-em / 150)) * (1 - math.exp(-sb / 60)) + 0.05 - 0.2 * (config.sparsity - 0.5) ** 2
        energy = 0.01 * subset_fraction * (em + sb) * epochs * (1.5 - config.sparsity) + 0.1
        return ProfileRun(acc, energy, 0.5 * epochs, f"s{len(self.calls)}", True)

    def step_energy(self, task):
        return None


def _spec(**miro):
    table = {"replay": {"em_size": 77, "sb_size": 33}, "miro": {"enabled": True, "start_task": 2,
             "em_sizes": [25, 50, 100, 200, 400, 800], "sb_sizes": [50, 100, 200], "subset_fraction": 0.5,
             "profile_epochs": 2, "cutline": 0.5, **miro}}
    return parse_spec(table)


def test_defaults_first_then_profiles_clipped_candidates(tmp_path):
    prof = SurfaceProfiler()
    tuner = MiroTuner(_spec(), prof, results_dir=tmp_path)
    first = tuner.choose(TaskInfo(0, task_samples=300, seen_samples=0))
    assert (first.replay.em_size, first.replay.sb_size) == (77, 33) and prof.calls == []
    chosen = tuner.choose(TaskInfo(1, task_samples=150, seen_samples=300)).replay
    runs = [c for c in prof.calls if c[0] == "run"]
    assert prof.calls[0] == ("ckpt", 1, 1)
    # clipped: EM <= 300 seen, SB <= 150 in the task; the session (not the tuner) takes the 0.5 subset
    assert max(r[1] for r in runs) == 300 and max(r[2] for r in runs) == 150
    assert all(r[4] == "ckpt-1" for r in runs)
    assert chosen.em_size <= 300 and chosen.sb_size <= 150
    data = json.loads((tmp_path / "miro.json").read_text())
    assert data["simulated"] is True
    assert [t["profiled"] for t in data["tasks"]] == [False, True]
    assert data["tasks"][1]["profiling_energy_j"] > 2.0
    assert data["tasks"][1]["chosen"]["em_size"] == data["tasks"][1]["config"]["em_size"] == chosen.em_size
    tuner.set_run_totals(energy_j=10 * tuner.profiling_energy_j, seconds=None)
    assert json.loads((tmp_path / "miro.json").read_text())["overhead"]["energy_share"] == pytest.approx(0.1)


def test_low_battery_profiles_fewer_and_cheaper_candidates():
    full, low = SurfaceProfiler(), SurfaceProfiler()
    info = TaskInfo(2, task_samples=200, seen_samples=2000)
    a = MiroTuner(_spec(), full, state_reader=lambda: DeviceState(battery_pct=90, charging=False)).choose(info)
    b = MiroTuner(_spec(), low, state_reader=lambda: DeviceState(battery_pct=12, charging=False)).choose(info)
    assert len(low.calls) < len(full.calls)
    assert b.replay.em_size + b.replay.sb_size < a.replay.em_size + a.replay.sb_size


def test_halving_spends_fewer_profiling_epochs_than_the_grid():
    grid, halving = SurfaceProfiler(), SurfaceProfiler()
    info = TaskInfo(2, task_samples=200, seen_samples=2000)
    g = MiroTuner(_spec(profile_epochs=4), grid)
    h = MiroTuner(_spec(profile_epochs=4, search="halving"), halving)
    assert g.choose(info) == h.choose(info)
    spent = lambda p: sum(c[3] for c in p.calls if c[0] == "run")  # noqa: E731
    assert spent(halving) <= spent(grid) // 2


def test_the_whole_chosen_configuration_is_returned_and_candidates_run_at_their_own_settings():
    """Joint tuning with SparCL: each profiling run gets its candidate's sparsity and DDR fraction, and
    choose() returns them with EM/SB/swap (nothing of the choice is dropped)."""
    spec = parse_spec({"sparcl": {"enabled": True, "sparsity": 0.5, "ddr_fraction": 0.3},
                       "replay": {"em_size": 77, "sb_size": 33},
                       "miro": {"enabled": True, "start_task": 1, "em_sizes": [100, 200], "sb_sizes": [100],
                                "sparsities": [0.5, 0.9], "ddr_fractions": [0.0, 0.2], "subset_fraction": 0.5,
                                "checkpoint_epochs": 0, "scorer": "highest_accuracy"}})
    prof = SurfaceProfiler()
    chosen = MiroTuner(spec, prof).choose(TaskInfo(1, task_samples=150, seen_samples=300))
    runs = {(c[1], c[5], c[6]) for c in prof.calls if c[0] == "run"}
    assert runs == {(em, sp, ddr) for em in (100, 200) for sp in (0.5, 0.9) for ddr in (0.0, 0.2)}
    assert (chosen.replay.em_size, chosen.sparsity) == (200, 0.5) and chosen.ddr_fraction in (0.0, 0.2)
    assert chosen.replay.sb_size == 100 and chosen.replay.swap_ratio == 0.25
