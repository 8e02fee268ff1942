"""A run's results folder is its own: made exclusively by the run (a name that exists gets a numbered
suffix), so a folder made in advance, an earlier run's folder, or a run started in the same second is
never written into; only ``--resume`` opens an existing folder."""
from __future__ import annotations

import multiprocessing
from pathlib import Path

import pytest

from pipeline import run_journal
from pipeline.run_journal import RunJournal

STAMP = "20261204-203000"


@pytest.fixture
def pinned_clock(monkeypatch):
    """Every run starts in the same second: the name alone cannot tell two runs apart."""
    monkeypatch.setattr(run_journal.time, "strftime", lambda fmt: STAMP)


def test_a_folder_that_exists_is_never_reused(tmp_path: Path, pinned_clock) -> None:
    old = tmp_path / f"exp-{STAMP}"
    (old / "sessions" / f"exp-{STAMP}-task0").mkdir(parents=True)
    (old / "sessions" / f"exp-{STAMP}-task0" / "task.json").write_text('{"task": 0}')
    journal = RunJournal.create(tmp_path, "exp")
    assert journal.folder == tmp_path / f"exp-{STAMP}-2" and journal.folder.is_dir()
    assert journal.records() == {} and journal.run_id == f"exp-{STAMP}-2"
    assert RunJournal.create(tmp_path, "exp").folder.name == f"exp-{STAMP}-3"
    assert sorted(p.name for p in old.rglob("*")) == [f"exp-{STAMP}-task0", "sessions", "task.json"]


def _create(out: str, gate, names) -> None:
    run_journal.time.strftime = lambda fmt: STAMP
    gate.wait()                              # both processes ask for the folder at once
    names.put(RunJournal.create(out, "exp").folder.name)


def test_two_runs_of_one_spec_started_together_get_two_folders(tmp_path: Path) -> None:
    ctx = multiprocessing.get_context("fork")
    gate, names = ctx.Barrier(2), ctx.Queue()
    procs = [ctx.Process(target=_create, args=(str(tmp_path), gate, names)) for _ in range(2)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(timeout=60)
        assert p.exitcode == 0
    got = sorted(names.get(timeout=10) for _ in procs)
    assert got == [f"exp-{STAMP}", f"exp-{STAMP}-2"]
    assert sorted(p.name for p in tmp_path.iterdir()) == got
