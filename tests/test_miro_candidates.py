"""Miro's candidate space: paper grids scaled to the dataset, and clipping to data and device."""
from __future__ import annotations

import pytest

from pipeline.config import MiroSpec
from pipeline.errors import ConfigError
from pipeline.miro.candidates import (
    Candidate,
    DataLimits,
    DeviceLimits,
    build_candidates,
    clip_candidate,
    clip_candidates,
    paper_default,
    scaled_grid,
)


def test_custom_grid_is_the_product_of_the_lists():
    spec = MiroSpec(em_sizes=[50, 100], sb_sizes=[10, 20, 30], swap_ratios=[0.25, 0.5])
    cands = build_candidates(spec)
    assert len(cands) == 12
    assert Candidate(100, 30, 0.5, 1) in cands
    assert len({c.key for c in cands}) == 12


def test_paper_grid_scales_with_the_task_size():
    grid = scaled_grid("cifar100", 500)  # a tenth of CIFAR-100's 5000 samples per task
    assert grid[0] == (2000, 300)
    assert (50, 400) in grid
    assert paper_default("cifar100", 500) == (200, 500)
    with pytest.raises(ConfigError, match="miro.grid"):
        scaled_grid("imagenet21k", 500)


def test_clip_to_seen_data_and_task_size_dedupes():
    cands = [Candidate(400, 300), Candidate(800, 300), Candidate(100, 50)]
    out = clip_candidates(cands, DataLimits(seen_samples=250, task_samples=200))
    assert out == [Candidate(250, 200), Candidate(100, 50)]


def test_no_storage_yet_means_no_em_and_no_swap():
    c = clip_candidate(Candidate(200, 100, swap_ratio=0.5), DataLimits(seen_samples=0, task_samples=300))
    assert (c.em_size, c.sb_size, c.swap_ratio) == (0, 100, 0.0)


def test_clip_to_device_ram_shrinks_em_first_then_sb():
    # 1 KiB per sample, 25% of 400 KiB available = 100 samples of RAM for EM + SB.
    dev = DeviceLimits(mem_available_bytes=400 * 1024, bytes_per_sample=1024, ram_share=0.25)
    data = DataLimits(seen_samples=10_000, task_samples=10_000)
    assert clip_candidate(Candidate(300, 40), data, dev) == Candidate(60, 40)
    assert clip_candidate(Candidate(300, 150), data, dev) == Candidate(0, 100, swap_ratio=0.0)


def test_clip_to_device_storage_bounds_em():
    dev = DeviceLimits(storage_free_bytes=2 * 50 * 1000, bytes_per_sample=1000, storage_share=0.5)
    assert clip_candidate(Candidate(300, 40), DataLimits(1000, 100), dev).em_size == 50
