"""The native storage tier under kill -9 (issue 13): no committed sample lost, none corrupt.

The writer is the native code (``edgecl-units replay-writer``: StorageTier append + commit in a
loop, printing the ids of every commit once it returned), killed with SIGKILL at 100 random
moments, five times per store so it also appends after a torn tail it cut itself. After every kill
the store is read by the native reader (read-only: torn tail and all) and by the Python
``StorageTier``: both return exactly the same records, every committed id among them, each with the
bytes ``tests._replay_writer.sample`` defines.
"""
from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import time
import zlib
from pathlib import Path

import numpy as np
import pytest

from android_harness.device.replay.storage import RecordFormat, StorageTier
from tests._native_bins import command, units_binary
from tests._replay_writer import N_LOGITS, SHAPE, sample

pytestmark = [pytest.mark.slow, pytest.mark.timeout(2400)]

TRIALS = 100
TRIALS_PER_STORE = 5
ABI = "x86_64"


def _python_records(root: Path) -> list[list[int]]:
    store = StorageTier(str(root), RecordFormat(SHAPE, N_LOGITS), budget_bytes=1 << 30)
    out = []
    for label in store.labels():
        for k in range(store.count(label)):
            sid, x, logits = store.read(label, k)
            want_x, want_y, want_logits = sample(sid)
            assert want_y == label, f"sample {sid} filed under class {label}"
            assert x.tobytes() == want_x.tobytes() and logits.tobytes() == want_logits.tobytes(), f"sample {sid} corrupt"
            out.append([label, k, sid, zlib.crc32(logits.tobytes(), zlib.crc32(x.tobytes()))])
    store.close()
    return out


def test_kill9_of_the_native_writer_loses_no_committed_sample(tmp_path: Path) -> None:
    units = units_binary(ABI)
    rnd = random.Random(4321)
    committed: set[int] = set()
    total = 0
    for trial in range(TRIALS):
        root = tmp_path / f"replay{trial // TRIALS_PER_STORE}"
        if trial % TRIALS_PER_STORE == 0:
            committed = set()
        proc = subprocess.Popen(command(ABI, units, "replay-writer", root, trial * 1_000_000, trial),
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        assert proc.stdout.readline().strip() == "ready", proc.stderr.read()
        time.sleep(rnd.uniform(0.0, 0.05))
        os.kill(proc.pid, signal.SIGKILL)
        out, _ = proc.communicate()
        for line in out.splitlines():
            committed.update(int(t) for t in line.split())
        total += len(committed)
        native = subprocess.run(command(ABI, units, "replay-read", root, N_LOGITS, *SHAPE), capture_output=True, text=True)
        assert native.returncode == 0, native.stderr
        py = _python_records(root)
        assert json.loads(native.stdout) == py, f"trial {trial}: the native and Python readers disagree"
        found = {sid for _, _, sid, _ in py}
        assert len(found) == len(py), f"trial {trial}: a sample stored twice"
        missing = committed - found
        assert not missing, f"trial {trial}: {len(missing)} committed samples lost, e.g. {sorted(missing)[:5]}"
    assert total > TRIALS, "writers were killed before committing anything; the test proved nothing"
