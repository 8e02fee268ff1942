"""``sweep.json``: the one results index of a sweep -- every run, its state, its attempts (which phone,
from when to when, how each ended), its results folder and its headline results.

A run is ``pending`` -> ``running`` -> ``done`` or ``failed``; a phone lost mid-run, or a Ctrl-C,
puts it back to ``pending`` with the attempt recorded (``lost``/``interrupted``), so it continues
later from its last completed task. ``done`` is set once, with one folder: a run is never lost and
never counted twice. Written temp-then-rename after every change.
"""
from __future__ import annotations

import json
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from android_harness.device.fileio import write_text_atomic
from pipeline.errors import ConfigError
from pipeline.sweep.grid import RunPlan

FORMAT = "edgecl-sweep/1"
INDEX_NAME = "sweep.json"
PENDING, RUNNING, DONE, FAILED = "pending", "running", "done", "failed"
TERMINAL = (DONE, FAILED)


@dataclass
class Attempt:
    device: str                  # pool member key SERIAL@HOST:PORT
    started: float
    ended: float | None = None
    outcome: str = ""            # done, failed, lost, interrupted, crashed
    session: str = ""            # the session it was in when it ended (what may continue on the phone)
    note: str = ""


@dataclass
class RunRecord:
    name: str
    config: str
    seed: int
    overrides: dict[str, Any]
    pin: str | None = None
    miro: bool = False
    state: str = PENDING
    folder: str | None = None    # relative to the sweep folder
    attempts: list[Attempt] = field(default_factory=list)
    result: dict[str, Any] | None = None
    error: str | None = None

    @property
    def last_device(self) -> str | None:
        return self.attempts[-1].device if self.attempts else None


@dataclass
class SweepIndex:
    folder: Path
    name: str
    spec_path: str
    spec_digest: str
    runtime: str | None
    grid: dict[str, Any]
    pool: list[dict[str, str]]
    runs: list[RunRecord]
    created: float = field(default_factory=time.time)

    @classmethod
    def new(cls, folder: Path, name: str, spec_path: str, spec_digest: str, plans: list[RunPlan], miro: bool,
            grid: dict[str, Any], runtime: str | None = None) -> "SweepIndex":
        runs = [RunRecord(p.name, p.config, p.seed, p.overrides, p.pin, miro) for p in plans]
        return cls(folder, name, spec_path, spec_digest, runtime, grid, [], runs)

    @classmethod
    def load(cls, folder: Path) -> "SweepIndex":
        path = Path(folder) / INDEX_NAME
        try:
            data = json.loads(path.read_text())
        except (OSError, ValueError) as exc:
            raise ConfigError(f"{path}: not a sweep index ({exc})") from None
        if data.get("format") != FORMAT:
            raise ConfigError(f"{path}: format {data.get('format')!r}, expected {FORMAT!r}")
        runs = [RunRecord(**{**r, "attempts": [Attempt(**a) for a in r["attempts"]]}) for r in data["runs"]]
        return cls(Path(folder), data["name"], data["spec_path"], data["spec_digest"], data["runtime"],
                   data["grid"], data["pool"], runs, data["created"])

    def save(self) -> None:
        data = {"format": FORMAT, "name": self.name, "created": self.created, "spec_path": self.spec_path,
                "spec_digest": self.spec_digest, "runtime": self.runtime, "grid": self.grid,
                "pool": self.pool, "counts": self.counts(), "runs": [asdict(r) for r in self.runs]}
        self.folder.mkdir(parents=True, exist_ok=True)
        write_text_atomic(self.folder / INDEX_NAME, json.dumps(data, indent=1, default=str))

    def counts(self) -> dict[str, int]:
        out = {s: 0 for s in (PENDING, RUNNING, DONE, FAILED)}
        for r in self.runs:
            out[r.state] += 1
        return out

    def run(self, name: str) -> RunRecord:
        return next(r for r in self.runs if r.name == name)

    def finished(self) -> bool:
        return all(r.state in TERMINAL for r in self.runs)

    # -- transitions (each one saves) --------------------------------------------------------------
    def start(self, rec: RunRecord, device: str, folder: str) -> None:
        assert rec.state == PENDING, (rec.name, rec.state)
        rec.state, rec.folder = RUNNING, folder
        rec.attempts.append(Attempt(device, time.time()))
        self.save()

    def end_attempt(self, rec: RunRecord, outcome: str, state: str, note: str = "", session: str = "") -> None:
        assert rec.state == RUNNING, (rec.name, rec.state)
        att = rec.attempts[-1]
        att.ended, att.outcome, att.note = time.time(), outcome, note
        att.session = session or att.session
        rec.state = state
        if state == FAILED:
            rec.error = note
        self.save()

    def complete(self, rec: RunRecord, result: dict[str, Any]) -> None:
        assert rec.state == RUNNING and rec.result is None, (rec.name, rec.state)
        rec.result = result
        self.end_attempt(rec, DONE, DONE)
