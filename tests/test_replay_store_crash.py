"""Storage tier under kill -9: no committed sample lost, no corrupted sample ever returned."""
from __future__ import annotations

import random
import sys
from pathlib import Path

import numpy as np

from android_harness.device.replay.storage import RecordFormat, StorageTier
from tests._replay_writer import N_LOGITS, SHAPE, kill_mid_write, sample, stored_records

TRIALS = 100
TRIALS_PER_STORE = 10  # appending after a torn tail is exercised; the stores stay small
WRITER = [sys.executable, "-m", "tests._replay_writer"]


def test_kill9_of_writer_loses_no_committed_sample(tmp_path: Path) -> None:
    rnd = random.Random(1234)
    committed: set[int] = set()
    total = 0
    cwd = Path(__file__).resolve().parents[1]
    for trial in range(TRIALS):
        root = tmp_path / f"replay{trial // TRIALS_PER_STORE}"
        if trial % TRIALS_PER_STORE == 0:
            committed = set()
        committed |= kill_mid_write([*WRITER, str(root), str(trial * 1_000_000), str(trial)], rnd.uniform(0.0, 0.06), cwd)
        total += len(committed)
        found = {sid for _, _, sid, _ in stored_records(root)}
        missing = committed - found
        assert not missing, f"trial {trial}: {len(missing)} committed samples lost, e.g. {sorted(missing)[:5]}"
    assert total > TRIALS, "writers were killed before committing anything; the test proved nothing"


def test_flipped_byte_is_skipped_not_returned(tmp_path: Path) -> None:
    store = StorageTier(str(tmp_path), RecordFormat(SHAPE, N_LOGITS), budget_bytes=1 << 20)
    ids = np.arange(8) * 4  # all class 0
    xs, ys, lg = zip(*(sample(int(i)) for i in ids))
    store.append(ids, np.stack(xs), np.array(ys), np.stack(lg))
    store.close()
    path = tmp_path / "class_0.rec"
    data = bytearray(path.read_bytes())
    data[RecordFormat(SHAPE, N_LOGITS).record_size * 3 + 30] ^= 0xFF
    path.write_bytes(bytes(data))
    reopened = StorageTier(str(tmp_path), RecordFormat(SHAPE, N_LOGITS), budget_bytes=1 << 20)
    assert reopened.count(0) == 7 and reopened.skipped_corrupt == 1
    assert 12 not in reopened and {int(reopened.read(0, i)[0]) for i in range(7)} == set(ids.tolist()) - {12}
