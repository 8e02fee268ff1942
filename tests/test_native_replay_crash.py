"""The native storage tier under kill -9: no committed sample lost, none corrupt.

The writer is the native code (``edgecl-units replay-writer``: StorageTier append + commit in a
loop, printing the ids of every commit once it returned), killed with SIGKILL at 100 random
moments, five times per store so it also appends after a torn tail it cut itself. After every kill
the store is read by the native reader (read-only: torn tail and all) and by the Python
``StorageTier``: both return exactly the same records, every committed id among them, each with the
bytes ``tests._replay_writer.sample`` defines.
"""
from __future__ import annotations

import json
import random
import subprocess
from pathlib import Path

import pytest

from tests._native_bins import command, units_binary
from tests._replay_writer import N_LOGITS, SHAPE, kill_mid_write, stored_records

pytestmark = [pytest.mark.slow, pytest.mark.timeout(2400)]

TRIALS = 100
TRIALS_PER_STORE = 5
ABI = "x86_64"


def test_kill9_of_the_native_writer_loses_no_committed_sample(tmp_path: Path) -> None:
    units = units_binary(ABI)
    rnd = random.Random(4321)
    committed: set[int] = set()
    total = 0
    for trial in range(TRIALS):
        root = tmp_path / f"replay{trial // TRIALS_PER_STORE}"
        if trial % TRIALS_PER_STORE == 0:
            committed = set()
        committed |= kill_mid_write(command(ABI, units, "replay-writer", root, trial * 1_000_000, trial),
                                    rnd.uniform(0.0, 0.05))
        total += len(committed)
        native = subprocess.run(command(ABI, units, "replay-read", root, N_LOGITS, *SHAPE), capture_output=True, text=True)
        assert native.returncode == 0, native.stderr
        py = stored_records(root)
        assert json.loads(native.stdout) == py, f"trial {trial}: the native and Python readers disagree"
        found = {sid for _, _, sid, _ in py}
        missing = committed - found
        assert not missing, f"trial {trial}: {len(missing)} committed samples lost, e.g. {sorted(missing)[:5]}"
    assert total > TRIALS, "writers were killed before committing anything; the test proved nothing"
