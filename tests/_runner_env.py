"""Builds a storage root on the host (shards + export + session.json) for runner tests and bench, and the
session helpers the conformance tests share (evaluation rows, final arrays, a kill after a checkpoint)."""
from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

import numpy as np

from android_harness.device.checkpoint import latest_checkpoint, load_checkpoint
from android_harness.device.events import read_events
from android_harness.device.session_spec import write_spec
from pipeline.config import ExperimentSpec, parse_spec
from pipeline.experiment_prep import DataInfo, export_request, session_spec, write_shards
from pipeline.export import export_program


def small_spec(method: str = "derpp", **train) -> ExperimentSpec:
    return parse_spec({"seed": 3, "data": {"kind": "digits", "tasks": 3, "classes_per_task": 2, "max_train_per_class": 60},
                       "model": {"kind": "mlp", "hidden": [32, 32]},
                       "train": {"method": method, "epochs": 2, "batch_size": 16, "lr": 0.05, **train},
                       "replay": {"em_size": 60, "sb_size": 200, "swap_ratio": 0.5}})


def build_root(spec: ExperimentSpec, root: Path, runtime: str = "ort") -> DataInfo:
    data = write_shards(spec, root)
    export_program(export_request(spec, data, runtime), root / "models" / runtime)
    return data


def new_session(spec: ExperimentSpec, root: Path, data: DataInfo, sid: str, runtime: str = "ort", **kw) -> Path:
    overrides = kw.pop("overrides", {})
    ss = session_spec(spec, sid, kw.pop("tasks", data.tasks), model_dir=f"models/{runtime}",
                      data_dir=str(data.folder.relative_to(root)), replay_dir=kw.pop("replay_dir", f"sessions/{sid}/replay"), **kw)
    for key, value in overrides.items():
        setattr(ss, key, value)
    folder = root / "sessions" / sid
    write_spec(str(folder), ss)
    return folder


def ort_env(root: Path) -> tuple[ExperimentSpec, Path, DataInfo]:
    """(spec, root, data) of ``small_spec``'s ORT root, for the Python runner tests."""
    spec = small_spec()
    return spec, root, build_root(spec, root)


def executorch_env(root: Path, binary: Path, epochs: int) -> tuple[ExperimentSpec, Path, DataInfo, Path]:
    """(spec, root, data, runner binary) of a small DER++ ExecuTorch root, for native runner tests."""
    spec = small_spec("derpp", epochs=epochs)
    return spec, root, build_root(spec, root, "executorch"), binary


def traced_session(env: tuple[ExperimentSpec, Path, DataInfo, Path], sid: str, **overrides) -> Path:
    """A traced ExecuTorch session in ``executorch_env``'s root with its own replay folder."""
    spec, root, data, _ = env
    return new_session(spec, root, data, sid, runtime="executorch", trace=True, replay_dir=f"replay/{sid}",
                       overrides=overrides)


def evals(results: list[dict]) -> list[dict]:
    """The evaluation rows of a chain of sessions' results, in order."""
    return [row for r in results for row in r["evals"]]


def final_arrays(folder: Path) -> dict[str, np.ndarray]:
    """Every array of a session's latest checkpoint."""
    _, arrays = load_checkpoint(latest_checkpoint(str(folder / "checkpoints")))
    return arrays


def kill_after_a_checkpoint(argv: list[str], folder: Path, checkpoints: int, timeout_s: float, cwd: Path | None = None,
                            poll_s: float = 0.005) -> None:
    """Start the session ``argv`` runs as its own process and SIGKILL it right after its ``checkpoints``-th
    checkpoint event; the session must not have finished (no result.json)."""
    proc = subprocess.Popen(argv, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + timeout_s
    try:
        while time.monotonic() < deadline:
            events, _ = read_events(str(folder / "events.jsonl"))
            if sum(e["type"] == "checkpoint" for e in events) >= checkpoints:
                break
            assert proc.poll() is None, f"runner exited before it was killed: {proc.stderr.read()}"
            time.sleep(poll_s)
        else:
            raise AssertionError("no checkpoint in time")
    finally:
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
    assert not (folder / "result.json").exists(), "the session finished before the kill"
