"""Replay store: RAM-tier budgets, class balance under swapping, storage budget, resume position."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from android_harness.device.errors import StorageFullError
from android_harness.device.replay import EpisodicMemory, RecordFormat, StorageTier, StreamBuffer, SwapWorker

SHAPE = (8,)


def _task(labels: list[int], per_class: int, first_id: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    y = np.repeat(labels, per_class)
    ids = first_id + np.arange(len(y))
    x = (ids[:, None] + np.arange(SHAPE[0])).astype(np.float32)
    return x, y, ids


def test_ram_tier_never_exceeds_sample_or_byte_budget() -> None:
    per = EpisodicMemory.sample_bytes(SHAPE, 10)
    em = EpisodicMemory(1000, SHAPE, n_logits=10, max_bytes=50 * per + 7)
    sb = StreamBuffer(30, SHAPE, n_logits=10, max_bytes=10_000_000)
    assert em.capacity == 50 and em.nbytes <= 50 * per + 7
    rng = np.random.default_rng(0)
    for t in range(5):
        x, y, ids = _task([2 * t, 2 * t + 1], 40, 1000 * t)
        kept = sb.fill(x, y, ids, rng)
        assert sb.size == 30 == len(kept) and sb.nbytes == sb.x.nbytes + sb.y.nbytes + sb.logits.nbytes + sb.ids.nbytes
        em.rebalance(sb, rng)
        assert em.size <= em.capacity and em.nbytes <= 50 * per + 7
        counts = em.class_counts()
        assert max(counts.values()) - min(counts.values()) <= 1 or sum(counts.values()) < em.capacity
    assert sorted(em.class_counts()) == list(range(10))


def test_swapping_keeps_class_balance_and_reads_real_records(tmp_path: Path) -> None:
    store = StorageTier(str(tmp_path), RecordFormat(SHAPE), budget_bytes=1 << 20)
    em, sb = EpisodicMemory(40, SHAPE), StreamBuffer(100, SHAPE)
    rng = np.random.default_rng(1)
    for t in range(2):
        x, y, ids = _task([2 * t, 2 * t + 1], 50, 1000 * t)
        sb.fill(x, y, ids, rng)
        em.rebalance(sb, rng)
        store.append(sb.ids[: sb.size], sb.x[: sb.size], sb.y[: sb.size])
        store.commit()
    before = em.class_counts()
    worker = SwapWorker(store, em, ratio=1.0, period=1, seed=3)
    swapped = 0
    ids_before = set(em.ids[: em.size].tolist())
    for it in range(50):
        slots = em.sample(16, rng)
        assert worker.submit(it, slots)
        result = worker.apply()
        swapped += result.n_swapped
        assert result.n_swapped == 16
    worker.close()
    assert em.class_counts() == before
    assert swapped == 800 and set(em.ids[: em.size].tolist()) != ids_before
    for slot in range(em.size):  # every swapped-in sample is the stored one, filed under its class
        np.testing.assert_array_equal(em.x[slot], (em.ids[slot] + np.arange(SHAPE[0])).astype(np.float32))
        assert em.y[slot] == (em.ids[slot] % 1000) // 50 + 2 * (em.ids[slot] // 1000)


def test_swap_ratio_and_period() -> None:
    em = EpisodicMemory(20, SHAPE)
    em.size = 20
    em.y[:] = np.arange(20) % 2

    class _Store:
        def count(self, label):
            return 5

        def read_many(self, label, idx):
            return 10_000 + idx, np.zeros((len(idx), *SHAPE), np.float32), None

    worker = SwapWorker(_Store(), em, ratio=0.25, period=3, seed=0)
    assert not worker.submit(1, np.arange(10))
    assert worker.submit(3, np.arange(10))
    assert worker.apply().n_swapped == 3  # ceil(0.25 * 10)
    worker.close()


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
