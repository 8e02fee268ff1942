"""A run warns when its runner grew past the memory the phone had available at the session's start:
the growth (peak RSS of the ``resources`` probes less the RSS at ``session_start``) is compared, so the
runner's own start-up memory, already out of MemAvailable, is not counted twice."""
from __future__ import annotations

from pipeline.experiment import memory_warning

MIB = 2**20


def _events(peaks: list[int], available: int = 180 * MIB, at_start: int = 40 * MIB) -> list[dict]:
    start = {"type": "session_start", "device": {"rss_bytes": at_start, "mem_available_bytes": available}}
    return [start] + [{"type": "resources", "peak_rss_bytes": p, "rss_bytes": p} for p in peaks]


def test_growth_past_what_was_available_is_one_warning_naming_the_fields() -> None:
    text = memory_warning(_events([100 * MIB, 317 * MIB, 200 * MIB]))
    assert text is not None and "peaked at 317 MiB" in text and "180 MiB" in text
    assert "replay.em_size" in text and "miro.ram_share" in text


def test_growth_within_what_was_available_is_quiet() -> None:
    assert memory_warning(_events([220 * MIB])) is None            # 180 MiB of growth: exactly what was free


def test_no_probe_after_the_start_or_an_unreadable_field_says_nothing() -> None:
    assert memory_warning(_events([])) is None
    assert memory_warning(_events([317 * MIB], available=-1)) is None
