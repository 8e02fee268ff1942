"""Miro's scorers on fixed measurements: the winner of each is known by hand."""
from __future__ import annotations

import math

import pytest

from pipeline.errors import ConfigError
from pipeline.miro.candidates import Candidate
from pipeline.miro.scorers import Measurement, ScoringSpec, best_index, kept_by_cutline, score

# (em, sb, accuracy, joules): A most accurate and dearest, D cheapest and worst.
ROWS = [(400, 200, 0.80, 40.0), (200, 200, 0.78, 25.0), (100, 200, 0.70, 15.0), (50, 100, 0.50, 6.0)]


def _ms() -> list[Measurement]:
    return [Measurement(Candidate(em, sb), acc, e, seconds=1.0, epochs=1) for em, sb, acc, e in ROWS]


def test_cutline_keeps_top_share_then_best_accuracy_per_joule():
    ms = _ms()
    assert kept_by_cutline([m.accuracy for m in ms], 0.5) == [0, 1]
    s = score(ms, ScoringSpec("cutline", cutline=0.5))
    assert s[0] == pytest.approx(0.80 / 40) and s[1] == pytest.approx(0.78 / 25)
    assert math.isinf(s[2]) and math.isinf(s[3])
    assert best_index(ms, ScoringSpec("cutline", cutline=0.5)) == 1
    # a wider cutline lets the cheaper C in: 0.70/15 beats 0.78/25
    assert best_index(ms, ScoringSpec("cutline", cutline=0.75)) == 2


def test_weighted_score_matches_the_formula():
    ms = _ms()
    spec = ScoringSpec("weighted", cutline=0.75, acc_weight=0.6, energy_weight=0.4)
    s = score(ms, spec)
    # kept = A, B, C by accuracy; the authors' median is the middle one, B (0.78, 25 J)
    expect = [0.6 * math.exp(a / 0.78) + 0.4 * (1 - math.log(e / 25.0)) for _, _, a, e in ROWS[:3]]
    assert s[:3] == pytest.approx(expect)
    assert math.isinf(s[3])
    assert best_index(ms, spec) == 2


def test_lowest_energy_and_highest_accuracy():
    ms = _ms()
    assert best_index(ms, ScoringSpec("lowest_energy", cutline=0.5)) == 1
    assert best_index(ms, ScoringSpec("lowest_energy", cutline=1.0)) == 3
    assert best_index(ms, ScoringSpec("highest_accuracy")) == 0


def test_proxy_energy_is_em_plus_sb_times_epochs():
    ms = _ms()
    assert ms[0].energy("proxy") == 600.0
    # by proxy, B (400 samples) beats A (600) inside the cutline
    assert best_index(ms, ScoringSpec("cutline", cutline=0.5, energy="proxy")) == 1


def test_missing_measured_energy_is_a_clear_error():
    m = Measurement(Candidate(10, 10), 0.5, None, 1.0, 1)
    with pytest.raises(ConfigError, match="no measured energy"):
        score([m], ScoringSpec())
    with pytest.raises(ConfigError, match="miro.scorer"):
        score([m], ScoringSpec(scorer="magic", energy="proxy"))
