"""Subprocess body for the crash test: append+commit batches forever, report committed ids on stdout."""
import sys
import time

import numpy as np

from android_harness.device.replay.storage import RecordFormat, StorageTier

SHAPE, N_LOGITS, N_CLASSES = (3, 5), 4, 4


def sample(sample_id: int) -> tuple[np.ndarray, int, np.ndarray]:
    x = (sample_id * 0.001 + np.arange(15, dtype=np.float32)).reshape(SHAPE).astype(np.float32)
    return x, sample_id % N_CLASSES, (sample_id + np.arange(N_LOGITS)).astype(np.float32)


def main(root: str, first_id: int, seed: int) -> None:
    store = StorageTier(root, RecordFormat(SHAPE, N_LOGITS), budget_bytes=1 << 30)
    rng = np.random.default_rng(seed)
    print("ready", flush=True)
    next_id = first_id
    while True:
        ids = np.arange(next_id, next_id + int(rng.integers(1, 9)))
        next_id = int(ids[-1]) + 1
        xs, ys, lg = zip(*(sample(int(i)) for i in ids))
        store.append(ids, np.stack(xs), np.array(ys), np.stack(lg))
        store.commit()
        print(" ".join(map(str, ids.tolist())), flush=True)
        time.sleep(float(rng.uniform(0.0, 0.002)))


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]))
