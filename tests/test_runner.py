"""The device runner on the host filesystem (no adb): resume after kill -9, SIGTERM cancel, events."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from android_harness.device.backends import load_backend
from android_harness.device.checkpoint import latest_checkpoint
from android_harness.device.events import read_events
from android_harness.device.runner import Runner
from tests._runner_env import build_root, new_session, small_spec

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def env(tmp_path_factory):
    root = tmp_path_factory.mktemp("storage")
    spec = small_spec()
    return spec, root, build_root(spec, root)


def _final_params(root: Path, session: Path) -> dict[str, np.ndarray]:
    backend = load_backend(root / "models" / "ort")
    backend.load(os.path.join(latest_checkpoint(str(session / "checkpoints")), "backend"))
    return backend.params()


def _start(session: Path) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "android_harness.device", "run", str(session)], cwd=REPO,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)


def _wait_for(session: Path, pred, proc: subprocess.Popen, timeout: float = 60.0) -> list[dict]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        events, _ = read_events(str(session / "events.jsonl"))
        if pred(events):
            return events
        assert proc.poll() is None, f"runner exited early: {proc.stderr.read()}"
        time.sleep(0.02)
    raise AssertionError("runner did not reach the expected point in time")


def _check_seq(session: Path) -> list[dict]:
    events, _ = read_events(str(session / "events.jsonl"))
    assert [e["seq"] for e in events] == list(range(len(events)))
    return events


def test_resume_after_kill9_gives_the_same_final_weights(env) -> None:
    spec, root, data = env
    straight = new_session(spec, root, data, "straight", overrides={"checkpoint_every": 4})
    result = Runner(str(straight)).run()
    assert result["status"] == "ok", result["error"]
    killed = new_session(spec, root, data, "killed", overrides={"checkpoint_every": 4})
    proc = _start(killed)
    _wait_for(killed, lambda ev: any(e["type"] == "checkpoint" and e["step"] >= 12 for e in ev), proc)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    assert not (killed / "result.json").exists()
    resumed = Runner(str(killed)).run()
    assert resumed["status"] == "ok", resumed["error"]
    events = _check_seq(killed)
    assert sum(e["type"] == "session_start" for e in events) == 2 and events[-1]["type"] == "session_end"
    a, b = _final_params(root, straight), _final_params(root, killed)
    for name in a:
        np.testing.assert_array_equal(a[name], b[name], err_msg=name)
    assert resumed["evals"] == result["evals"] and resumed["iterations"] == result["iterations"]


def test_resume_with_sparcl_ddr_and_dgm_is_exact(tmp_path: Path) -> None:
    """Data removal and gradient masks are checkpointed too: a resumed run matches an uninterrupted one."""
    spec = small_spec()
    spec.sparcl.enabled, spec.sparcl.sparsity, spec.train.epochs = True, 0.5, 5
    data = build_root(spec, tmp_path)
    straight = new_session(spec, tmp_path, data, "straight")
    assert Runner(str(straight)).run()["status"] == "ok"
    killed = new_session(spec, tmp_path, data, "killed", overrides={"checkpoint_every": 3})
    proc = _start(killed)
    _wait_for(killed, lambda ev: any(e["type"] == "checkpoint" and e["step"] >= 9 for e in ev), proc)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    assert Runner(str(killed)).run()["status"] == "ok"
    events = _check_seq(killed)
    assert any(e["type"] == "ddr" for e in events)
    a, b = _final_params(tmp_path, straight), _final_params(tmp_path, killed)
    for name in a:
        np.testing.assert_array_equal(a[name], b[name], err_msg=name)


def test_sigterm_cancels_cleanly_and_the_session_resumes(env) -> None:
    spec, root, data = env
    session = new_session(spec, root, data, "cancelled")
    proc = _start(session)
    _wait_for(session, lambda ev: any(e["type"] == "step" for e in ev), proc)
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(timeout=30) == 3, proc.stderr.read()
    result = json.loads((session / "result.json").read_text())
    assert result["status"] == "cancelled" and result["checkpoint"]
    assert _check_seq(session)[-1] == {**_check_seq(session)[-1], "type": "session_end", "status": "cancelled"}
    (session / "result.json").unlink()
    assert Runner(str(session)).run()["status"] == "ok"


def test_events_follow_the_contract(env) -> None:
    spec, root, data = env
    session = new_session(spec, root, data, "contract")
    result = Runner(str(session)).run()
    events = _check_seq(session)
    types = {e["type"] for e in events}
    assert {"session_start", "task_start", "epoch", "eval", "swap", "checkpoint", "resources", "task_end",
            "session_end", "phase_start", "phase_end"} <= types
    assert all(e["t"] >= events[0]["t"] for e in events)
    evals = [e for e in events if e["type"] == "eval" and e["after_task"] == data.tasks[-1]]
    assert len(evals) == len(data.tasks) and result["evals"][-1]["after_task"] == data.tasks[-1]
    assert sum(e["n_swapped"] for e in events if e["type"] == "swap") > 0  # tasks after the first swap from flash
    assert (root / "sessions" / "contract" / "replay" / "store.json").is_file()


def test_bad_session_json_is_a_clear_error(tmp_path: Path) -> None:
    from android_harness.device.errors import SessionSpecError
    from android_harness.device.session_spec import read_spec

    (tmp_path / "session.json").write_text(json.dumps({"session_id": "x", "model_dir": "m", "data_dir": "d",
                                                       "replay_dir": "r", "tasks": [0], "train": {"method": "joint"}}))
    with pytest.raises(SessionSpecError, match="train.method"):
        read_spec(str(tmp_path))


def test_runner_from_the_zip_alone(env, tmp_path: Path) -> None:
    """The zip is self-contained (the repo is off the path); the ORT backend imports the training API
    torch-free (ort_runtime), and the session leaves torch unimported."""
    from android_harness.bundle import build_device_zip

    spec, root, data = env
    session = new_session(spec, root, data, "zipped", tasks=data.tasks[:1])
    z = build_device_zip(tmp_path)
    code = ("import sys; "
            "sys.path[:] = [p for p in sys.path if not p.rstrip('/').endswith('/work/main')]; "
            f"sys.path.insert(0, {str(z)!r}); from android_harness.device.__main__ import main; "
            f"assert main(['run', {str(session)!r}]) == 0; "
            "assert sys.modules.get('torch') is None, 'torch was imported'; "
            f"assert sys.modules['android_harness.device.runner'].__file__.startswith({str(z)!r})")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd="/", timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert json.loads((session / "result.json").read_text())["status"] == "ok"


def test_sparcl_on_the_runner_matches_the_host_trainer(tmp_path: Path) -> None:
    """SparCL-DER++ (TDM + DDR + DGM) on Split Digits: runner vs host reference, same spec and seed."""
    from pipeline.cl.trainer import train_host
    from pipeline.config import parse_spec
    from pipeline.sparcl.policies import build_sparcl_policy

    spec = parse_spec({"seed": 0, "data": {"kind": "digits", "tasks": 5, "classes_per_task": 2},
                       "model": {"kind": "mlp", "hidden": [100, 100]},
                       "train": {"method": "derpp", "epochs": 3, "lr": 0.03, "buffer_size": 200},
                       "sparcl": {"enabled": True, "sparsity": 0.75}, "replay": {"em_size": 200, "sb_size": 400}})
    data = build_root(spec, tmp_path)
    result = Runner(str(new_session(spec, tmp_path, data, "sparcl", em_policy="reservoir"))).run()
    assert result["status"] == "ok", result["error"]
    device_acc = float(np.mean(list(result["evals"][-1]["class_il"].values())))
    host = train_host(spec, build_sparcl_policy(spec), progress=False)
    assert abs(device_acc - float(np.nanmean(host.class_il[-1]))) <= 2.0
    events = _check_seq(tmp_path / "sessions" / "sparcl")
    assert {"mask", "ddr"} <= {e["type"] for e in events}


@pytest.mark.parametrize("rescale", [False, True])
def test_tdm_init_rescale_restores_unit_norms_on_the_runner(tmp_path: Path, rescale: bool) -> None:
    """``sparcl.tdm_init_rescale`` reaches the device (through the exported initial state, which the
    host policy prunes): each masked unit keeps its dense norm; without it pruning shrinks the units.
    Training at a vanishing learning rate leaves the init in place."""
    from pipeline.config import parse_spec
    from pipeline.experiment_prep import initial_model

    spec = parse_spec({"seed": 0, "data": {"kind": "digits", "tasks": 1, "classes_per_task": 2},
                       "model": {"kind": "mlp", "hidden": [32, 32]},
                       "train": {"method": "finetune", "epochs": 1, "lr": 1e-12},
                       "sparcl": {"enabled": True, "sparsity": 0.9, "ddr": False, "dgm": False,
                                  "tdm_freeze_after": 0.01, "tdm_init_rescale": rescale}})
    data = build_root(spec, tmp_path)
    dense = {k: v.numpy() for k, v in initial_model(spec, data).state_dict().items()}
    session = new_session(spec, tmp_path, data, "rescale")
    assert Runner(str(session)).run()["status"] == "ok"
    final = _final_params(tmp_path, session)
    for name in ("features.1.weight", "features.4.weight"):
        assert np.mean(final[name] == 0) >= 0.85, name
        kept, full = np.linalg.norm(final[name], axis=1), np.linalg.norm(dense[name], axis=1)
        if rescale:
            alive = kept > 0                        # a unit pruned to nothing has no norm to restore
            assert alive.mean() > 0.9, name
            np.testing.assert_allclose(kept[alive], full[alive], rtol=1e-4, err_msg=name)
        else:
            assert np.median(kept / full) < 0.8, name      # pruning alone shrinks units (about 0.5 here)
