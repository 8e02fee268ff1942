"""Replay store: EM by water filling from the storage tier, Miro's swap, storage budget, resume position."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from android_harness.device.errors import StorageFullError
from android_harness.device.replay import (EpisodicMemory, RecordFormat, StorageTier, SwapReader, em_refs, plan_swap,
                                          swap_count, water_fill)

SHAPE = (8,)


def _task(labels: list[int], per_class: int, first_id: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    y = np.repeat(labels, per_class)
    ids = first_id + np.arange(len(y))
    x = (ids[:, None] + np.arange(SHAPE[0])).astype(np.float32)
    return x, y, ids


def _store(root: Path, tasks: int = 2, per_class: int = 50) -> StorageTier:
    store = StorageTier(str(root), RecordFormat(SHAPE), budget_bytes=1 << 22)
    for t in range(tasks):
        x, y, ids = _task([2 * t, 2 * t + 1], per_class, 1000 * t)
        store.append(ids, x, y)
    store.commit()
    return store


def test_water_filling_is_class_balanced_and_a_larger_em_holds_more() -> None:
    assert water_fill(10, {0: 50, 1: 50, 2: 50}) == {0: 4, 1: 3, 2: 3}
    assert water_fill(100, {0: 10, 1: 50, 2: 50}) == {0: 10, 1: 45, 2: 45}      # a small class gives its share away
    assert water_fill(500, {0: 10, 1: 20}) == {0: 10, 1: 20}
    assert water_fill(7, {}) == {}


def test_em_refers_to_real_records_class_balanced(tmp_path: Path) -> None:
    store = _store(tmp_path, tasks=3, per_class=30)
    small, big = em_refs(store, 24, seed=1, task=3), em_refs(store, 120, seed=1, task=3)
    for refs, per in ((small, 4), (big, 20)):
        assert np.bincount(refs[:, 0]).tolist() == [per] * 6                      # every class equally
        assert (np.diff(refs[:, 0]) >= 0).all()                                   # class by class, ascending
    em = EpisodicMemory.load(store, big, SHAPE, 0)
    for slot in range(em.size):
        c, k = em.refs[slot]
        sid, x, _ = store.read(int(c), int(k))
        assert em.ids[slot] == sid and em.y[slot] == c
        np.testing.assert_array_equal(em.x[slot], x)
    assert np.array_equal(em_refs(store, 120, seed=1, task=3), big)                # a stream, not a state
    assert not np.array_equal(em_refs(store, 120, seed=2, task=3), big)


def test_swapping_keeps_each_slots_class_and_reads_real_records(tmp_path: Path) -> None:
    store = _store(tmp_path)
    em = EpisodicMemory.load(store, em_refs(store, 40, seed=0, task=2), SHAPE, 0)
    classes = em.refs[:, 0].copy()
    reader = SwapReader(store)
    swapped = 0
    for step in range(50):
        plan = plan_swap(np.arange(em.size), em, store, ratio=1.0, seed=3, task=2, task_step=step)
        assert len(plan) == em.size and (plan[:, 1] == classes[plan[:, 0]]).all()
        reader.submit(plan)
        swapped += reader.apply(em)
        assert np.array_equal(em.refs, plan[:, 1:])
    reader.close()
    assert swapped == 50 * 40 and np.array_equal(em.refs[:, 0], classes)
    for slot in range(em.size):  # every swapped-in sample is the stored one, filed under its class
        np.testing.assert_array_equal(em.x[slot], (em.ids[slot] + np.arange(SHAPE[0])).astype(np.float32))
        assert em.y[slot] == (em.ids[slot] % 1000) // 50 + 2 * (em.ids[slot] // 1000)


def test_swap_ratio_counts_distinct_slots(tmp_path: Path) -> None:
    store = _store(tmp_path)
    em = EpisodicMemory.load(store, em_refs(store, 20, seed=0, task=2), SHAPE, 0)
    plan = plan_swap(np.array([3, 1, 3, 7, 9, 1, 0, 2, 4, 5, 6, 8]), em, store, 0.25, seed=0, task=2, task_step=6)
    assert len(plan) == swap_count(0.25, 10) == 3 and (np.diff(plan[:, 0]) > 0).all()
    assert len(plan_swap(np.zeros(0, np.int64), em, store, 1.0, 0, 2, 0)) == 0


def test_full_storage_budget_gives_clear_error(tmp_path: Path) -> None:
    fmt = RecordFormat(SHAPE)
    store = StorageTier(str(tmp_path), fmt, budget_bytes=10 * fmt.record_size)
    x, y, ids = _task([0, 1], 4, 0)
    assert store.append(ids, x, y) == 8
    x, y, ids = _task([2], 4, 100)
    with pytest.raises(StorageFullError, match=r"storage budget full: .* 4 more samples need .*storage_budget_mb"):
        store.append(ids, x, y)
    assert store.append(ids[:2], x[:2], y[:2]) == 2


def test_truncate_to_checkpoint_position_and_no_duplicates(tmp_path: Path) -> None:
    store = StorageTier(str(tmp_path), RecordFormat(SHAPE), budget_bytes=1 << 20)
    x, y, ids = _task([0, 1], 5, 0)
    store.append(ids, x, y)
    store.commit()
    pos = store.position()
    assert store.append(ids, x, y) == 0  # already stored: a re-flushed stream buffer adds nothing
    x2, y2, ids2 = _task([2, 3], 5, 100)
    store.append(ids2, x2, y2)
    store.commit()
    store.truncate_to(pos)
    assert len(store) == 10 and store.labels() == [0, 1] and 100 not in store
