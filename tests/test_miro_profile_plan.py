"""Equal-steps profiling, the task-energy extrapolation and the warm-start rule, with pinned numbers."""
from __future__ import annotations

import json

import numpy as np
import pytest

from android_harness.device.stream_buffer import subset_rows
from pipeline.config import parse_spec
from pipeline.errors import ConfigError
from pipeline.miro.candidates import Candidate
from pipeline.miro.profile_plan import (common_batches, equal_steps_shape, extrapolate, steps_in_epoch, subset_count,
                                        subset_shape, task_steps)
from pipeline.miro.scorers import Measurement, ScoringSpec, best_index, energy_basis, hindsight_choice, kept_by_cutline
from pipeline.miro.tuner import MiroTuner, ProfileRun, StepEnergy, TaskInfo
from pipeline.profiling_session import trained_steps


@pytest.mark.parametrize("sb, em, rows", [(500, 200, (34, 14)), (2000, 800, (34, 14)), (2000, 200, (44, 4)),
                                          (500, 800, (18, 30)), (500, 0, (48, 0))])
def test_equal_steps_subsets_are_two_batches_with_the_candidates_own_ratio(sb, em, rows):
    shape = equal_steps_shape(sb, em, batches=2, batch=32)
    assert (shape.sb_rows, shape.em_slots) == rows and shape.steps_per_epoch == 2
    # the device draws exactly these counts for that fraction (docs/semantics.md 2)
    for n, want, which in ((sb, rows[0], 0), (em, rows[1], 1)):
        keep = subset_rows(n, shape.subset_fraction, 7, 3, which)
        assert (n if keep is None else len(keep)) == want


def test_the_papers_one_fraction_trains_bigger_candidates_longer():
    small, big = subset_shape(500, 200, 0.05, 32), subset_shape(2000, 800, 0.05, 32)
    assert (small.pool, small.steps_per_epoch) == (35, 2) and (big.pool, big.steps_per_epoch) == (140, 5)
    assert subset_count(0, 0.05) == 0 and subset_count(3, 0.05) == 1 and subset_count(9, 1.0) == 9


def test_too_small_candidates_lower_the_common_steps_or_are_refused():
    assert common_batches([(500, 200), (40, 0)], wanted=2, batch=32) == 2
    assert common_batches([(500, 200), (20, 0)], wanted=2, batch=32) == 1
    with pytest.raises(ConfigError, match="profile_batches = 2"):
        equal_steps_shape(20, 0, batches=2, batch=32)


def test_task_steps_and_extrapolation():
    assert steps_in_epoch(700, 32) == 22 and task_steps(500, 200, 40, 32) == 880
    assert task_steps(2000, 800, 40, 32) == 3520
    assert extrapolate(0.06, 6, 880) == pytest.approx(8.8, abs=1e-12)
    with pytest.raises(ConfigError):
        extrapolate(0.06, 0, 880)


class StepsProfiler:
    """Records what each session was asked for; its training steps follow the device's subset rule."""

    def __init__(self, precise: bool, reference: StepEnergy | None = None) -> None:
        self.precise, self.reference, self.calls = precise, reference, []

    def mini_checkpoint(self, task, subset_fraction, epochs):
        raise AssertionError("checkpoint_epochs = 0: no mini-checkpoint")

    def profile(self, task, config, epochs, subset_fraction, checkpoint):
        r = config.replay
        sb, em = min(r.sb_size, task.task_samples), min(r.em_size, task.seen_samples)
        steps = epochs * steps_in_epoch(subset_count(sb, subset_fraction) + subset_count(em, subset_fraction), 32)
        self.calls.append((task.task_index, r.em_size, r.sb_size, checkpoint, steps))
        accuracy = 80.0 + (5.0 if r.em_size >= 800 else 0.0)     # more EM: better on the old classes
        return ProfileRun(accuracy, 0.3, 0.2, "s", True, "ck", train_energy_j=0.012 * steps, precise=self.precise,
                          source="odpm_rails", steps=steps)

    def step_energy(self, task):
        return self.reference


def _spec(**miro):
    return parse_spec({"train": {"epochs": 40, "batch_size": 32}, "replay": {"em_size": 800, "sb_size": 2000},
                       "miro": {"enabled": True, "start_task": 1, "em_sizes": [200, 800], "sb_sizes": [500, 2000],
                                "profile_batches": 2, "profile_epochs": 3, "checkpoint_epochs": 0, "search": "grid",
                                "cutline": 0.5, **miro}})


def test_task_one_is_profiled_from_the_initial_model_and_every_candidate_trains_the_same_steps(tmp_path):
    prof = StepsProfiler(precise=True)
    tuner = MiroTuner(_spec(), prof, results_dir=tmp_path)
    first = tuner.choose(TaskInfo(0, task_samples=2000, seen_samples=0, test_samples=200))
    # nothing seen: EM clips to 0, only the SB sizes are left; the runs start from the export's initial state
    assert [(c[1], c[2], c[3], c[4]) for c in prof.calls] == [(0, 500, None, 6), (0, 2000, None, 6)]
    assert first.replay.sb_size == 500      # equal accuracy: the cheaper task wins
    tuner.choose(TaskInfo(1, task_samples=2000, seen_samples=2000, test_samples=400))
    second = [c for c in prof.calls if c[0] == 1]
    assert [(c[1], c[2]) for c in second] == [(200, 500), (200, 2000), (800, 500), (800, 2000)]
    assert {c[4] for c in second} == {6}
    task = json.loads((tmp_path / "miro.json").read_text())["tasks"][1]
    runs = {(r["candidate"]["em_size"], r["candidate"]["sb_size"]): r for r in task["runs"]}
    # precise: 0.012 J/step x the task's steps at the candidate's settings (40 epochs of ceil((EM + SB) / 32))
    assert runs[(800, 500)]["task_steps"] == 1640 and runs[(800, 500)]["task_energy_j"] == pytest.approx(0.012 * 1640)
    assert runs[(200, 500)]["task_steps"] == 880
    assert task["chosen"]["em_size"] == 800 and task["chosen"]["sb_size"] == 500
    assert task["profiling_steps"] == 24 and "energy basis: task_energy" in task["search"]["notes"]


def test_start_task_two_spends_task_one_on_the_default():
    prof = StepsProfiler(precise=True)
    first = MiroTuner(_spec(start_task=2), prof).choose(TaskInfo(0, task_samples=2000, seen_samples=0))
    assert (first.replay.em_size, first.replay.sb_size) == (800, 2000) and prof.calls == []


def test_imprecise_windows_use_the_last_task_sessions_step_energy_or_steps_never_their_own_figure():
    info = TaskInfo(1, task_samples=2000, seen_samples=2000, test_samples=400)
    ref = StepEnergy(0.005, "odpm_rails", "run-task0")
    with_ref = MiroTuner(_spec(), StepsProfiler(precise=False, reference=ref))
    with_ref.choose(info)
    ms = with_ref.decisions[0].search.final
    assert [m.task_energy_j for m in ms] == pytest.approx([0.005 * 880, 0.005 * 2760, 0.005 * 1640, 0.005 * 3520])
    assert energy_basis(ms, "measured") == "task_energy"
    bare = MiroTuner(_spec(), StepsProfiler(precise=False))
    bare.choose(info)
    ms = bare.decisions[0].search.final
    assert all(m.task_energy_j is None for m in ms) and energy_basis(ms, "measured") == "task_steps"
    assert bare.decisions[0].candidate == with_ref.decisions[0].candidate == Candidate(800, 500, 0.25, 1)


def test_cutline_margin_keeps_what_the_test_set_cannot_tell_apart():
    acc = [85.0, 84.0, 80.0, 70.0]
    assert kept_by_cutline(acc, 0.25) == [0]
    # one SE at 85% on 400 samples = 1.785 points: 84.0 is kept, 80.0 is not
    assert kept_by_cutline(acc, 0.25, 1.0, 400) == [0, 1]
    ms = [Measurement(Candidate(800, 2000), 85.0, None, 0, 3, steps=6, task_steps=3520, task_energy_j=20.0),
          Measurement(Candidate(200, 500), 84.0, None, 0, 3, steps=6, task_steps=880, task_energy_j=5.0)]
    assert best_index(ms, ScoringSpec(cutline=0.5)) == 0
    assert best_index(ms, ScoringSpec(cutline=0.5, cutline_se=1.0, eval_samples=400)) == 1


def test_the_oracle_is_mirors_rule_in_hindsight():
    acc, energy = [85.4, 84.7, 82.1, 81.9], [49.0, 41.5, 6.2, 3.35]
    assert hindsight_choice(acc, energy, ScoringSpec(cutline=0.5)) == 1
    assert hindsight_choice(acc, energy, ScoringSpec(cutline=1.0)) == 3
    with pytest.raises(ConfigError):
        hindsight_choice(acc, energy[:2], ScoringSpec())


def test_trained_steps_counts_each_epochs_batches(tmp_path):
    events = [{"type": "epoch", "n_samples": 48}, {"type": "step"}, {"type": "epoch", "n_samples": 65}]
    (tmp_path / "events.jsonl").write_text("\n".join(json.dumps(e) for e in events) + "\n")
    assert trained_steps(tmp_path, 32) == 2 + 3
    assert trained_steps(tmp_path / "missing", 32) == 0
    assert np.isclose(extrapolate(1.0, 5, 10), 2.0)
