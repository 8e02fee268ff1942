"""The run table's "s" column: the session's own span (a resumed run followed only its end), its paused
part said apart, else the host's time for the task."""
from __future__ import annotations

from pipeline.experiment import _seconds


def test_a_paused_session_shows_its_span_and_the_pause() -> None:
    assert _seconds({"seconds": 3.3, "energy": {"duration_s": 347.04, "paused_s": 343.6}}) == "347.0 (344 paused)"


def test_without_a_pause_or_an_energy_record() -> None:
    assert _seconds({"seconds": 12.34, "energy": {"duration_s": 11.96, "paused_s": 0.0}}) == "12.0"
    assert _seconds({"seconds": 12.34, "energy": {}}) == "12.3"
