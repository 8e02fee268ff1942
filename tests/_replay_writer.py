"""The kill -9 tests' writer and checks: run as ``-m tests._replay_writer`` it appends+commits batches
forever and reports committed ids on stdout; ``kill_mid_write`` kills a writer (Python or native) at
a chosen moment and ``stored_records`` reads a store back, every record checked against ``sample``."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import zlib
from pathlib import Path

import numpy as np

from android_harness.device.replay.storage import RecordFormat, StorageTier

SHAPE, N_LOGITS, N_CLASSES = (3, 5), 4, 4


def sample(sample_id: int) -> tuple[np.ndarray, int, np.ndarray]:
    x = (sample_id * 0.001 + np.arange(15, dtype=np.float32)).reshape(SHAPE).astype(np.float32)
    return x, sample_id % N_CLASSES, (sample_id + np.arange(N_LOGITS)).astype(np.float32)


def kill_mid_write(argv: list[str], delay_s: float, cwd: Path | None = None) -> set[int]:
    """Start the writer ``argv``, SIGKILL it ``delay_s`` after it printed "ready"; the ids it reported
    as committed before it died."""
    proc = subprocess.Popen(argv, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stdout.readline().strip() == "ready", proc.stderr.read()
    time.sleep(delay_s)
    os.kill(proc.pid, signal.SIGKILL)
    out, _ = proc.communicate()
    return {int(t) for line in out.splitlines() for t in line.split()}


def stored_records(root: Path) -> list[list[int]]:
    """[label, k, sample id, crc32 of x then logits] of every record the Python ``StorageTier`` returns,
    each one asserted to be ``sample(id)`` filed under its class, no id twice."""
    store = StorageTier(str(root), RecordFormat(SHAPE, N_LOGITS), budget_bytes=1 << 30)
    out: list[list[int]] = []
    seen: set[int] = set()
    for label in store.labels():
        for k in range(store.count(label)):
            sid, x, logits = store.read(label, k)
            want_x, want_y, want_logits = sample(sid)
            assert want_y == label, f"sample {sid} filed under class {label}"
            assert x.tobytes() == want_x.tobytes() and logits.tobytes() == want_logits.tobytes(), f"sample {sid} corrupt"
            assert sid not in seen, f"sample {sid} returned twice"
            seen.add(sid)
            out.append([label, k, sid, zlib.crc32(logits.tobytes(), zlib.crc32(x.tobytes()))])
    store.close()
    return out


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
