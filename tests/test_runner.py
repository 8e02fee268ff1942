"""The device runner on the host filesystem (no adb): SIGTERM cancel, events, EM ∪ SB epochs, DDR, the zip."""
from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from android_harness.device.checkpoint import latest_checkpoint, load_checkpoint
from android_harness.device.events import read_events
from android_harness.device.replay import RecordFormat, StorageTier
from android_harness.device.runner import Runner
from pipeline.conformance import read_trace
from tests._runner_env import build_root, new_session, ort_env, small_spec

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def env(tmp_path_factory):
    return ort_env(tmp_path_factory.mktemp("storage"))


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


def _events(session: Path) -> list[dict]:
    events, _ = read_events(str(session / "events.jsonl"))
    assert [e["seq"] for e in events] == list(range(len(events)))
    return events


def test_sigterm_cancels_cleanly_and_the_session_resumes(env) -> None:
    spec, root, data = env
    session = new_session(spec, root, data, "cancelled")
    proc = _start(session)
    _wait_for(session, lambda ev: any(e["type"] == "step" for e in ev), proc)
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(timeout=30) == 3, proc.stderr.read()
    result = json.loads((session / "result.json").read_text())
    assert result["status"] == "cancelled" and result["checkpoint"]
    assert _events(session)[-1] == {**_events(session)[-1], "type": "session_end", "status": "cancelled"}
    (session / "result.json").unlink()
    assert Runner(str(session)).run()["status"] == "ok"


def test_events_follow_the_contract(env) -> None:
    spec, root, data = env
    session = new_session(spec, root, data, "contract")
    result = Runner(str(session)).run()
    events = _events(session)
    types = {e["type"] for e in events}
    assert {"session_start", "task_start", "epoch", "eval", "swap", "checkpoint", "resources", "task_end",
            "session_end", "phase_start", "phase_end"} <= types
    assert all(e["t"] >= events[0]["t"] for e in events)
    probes = [e for e in events if e["type"] == "resources"]
    assert all(e["peak_rss_bytes"] >= e["rss_bytes"] > 0 for e in probes), probes     # VmHWM beside VmRSS
    assert [e["type"] for e in events[-2:]] == ["resources", "session_end"]       # the peak, however short the session
    evals = [e for e in events if e["type"] == "eval" and e["after_task"] == data.tasks[-1]]
    assert len(evals) == len(data.tasks) and result["evals"][-1]["after_task"] == data.tasks[-1]
    assert sum(e["n_swapped"] for e in events if e["type"] == "swap") > 0  # tasks after the first swap from flash
    assert (root / "sessions" / "contract" / "replay" / "store.json").is_file()
    _, arrays = load_checkpoint(latest_checkpoint(str(session / "checkpoints")))
    assert {"param.features.1.weight", "mask.features.1.weight", "grad_prev.features.1.weight", "em_refs", "sb_rows",
            "sb_logits", "ddr_removed"} - set(arrays) == {"ddr_removed"}   # DDR off in this spec


def test_an_epoch_trains_em_union_sb_in_full_steps(tmp_path: Path) -> None:
    """Miro's EM axis matters: an epoch is the active SB plus every EM slot (n_samples = |P|), steps of
    exactly B rows (no padding), and a larger EM trains more rows and holds more classes' samples."""
    spec = small_spec("er")
    data = build_root(spec, tmp_path)
    runs = {}
    for em in (20, 60):
        session = new_session(spec, tmp_path, data, f"em{em}", trace=True,
                              overrides={"replay": type(spec.replay)(em_size=em, sb_size=200, swap_ratio=0.0)})
        assert Runner(str(session)).run()["status"] == "ok"
        runs[em] = (_events(session), read_trace([session / "trace.jsonl"]))
    for em, (events, trace) in runs.items():
        starts = {e["task"]: e["n_train"] for e in events if e["type"] == "task_start"}
        for e in (e for e in events if e["type"] == "epoch"):
            expect = starts[e["task"]] + (min(em, sum(starts[t] for t in data.tasks[:data.tasks.index(e["task"])]))
                                          if e["task"] != data.tasks[0] else 0)
            assert e["n_samples"] == expect
        assert all(len(x["ids"]) == 16 for x in trace if x["k"] == "step")
        last = [x for x in trace if x["k"] == "em"][-1]["refs"]
        assert np.bincount([c for c, _ in last]).max() - np.bincount([c for c, _ in last]).min() <= 1
    steps = {em: sum(x["k"] == "step" for x in trace) for em, (_, trace) in runs.items()}
    assert steps[60] > steps[20]


@pytest.mark.parametrize("store_removed", [False, True], ids=["not-stored", "ddr_store_removed"])
def test_ddr_removed_rows_leave_training_and_are_stored_only_when_asked(tmp_path: Path, store_removed: bool) -> None:
    """Removed rows leave training at once; the storage tier gets them only with ``ddr_store_removed``."""
    spec = small_spec("derpp")
    spec.sparcl.enabled, spec.sparcl.tdm, spec.sparcl.dgm = True, False, False
    spec.sparcl.ddr_steps = [0.5]
    spec.sparcl.ddr_store_removed = store_removed
    spec.train.epochs = 4
    data = build_root(spec, tmp_path)
    session = new_session(spec, tmp_path, data, "ddr", trace=True)
    assert Runner(str(session)).run()["status"] == "ok"
    trace = read_trace([session / "trace.jsonl"])
    fmt = json.loads((session / "replay" / "store.json").read_text())
    store = StorageTier(str(session / "replay"), RecordFormat(tuple(fmt["x_shape"]), fmt["n_logits"]), 1 << 30, read_only=True)
    later_em = set()
    for t in data.tasks:
        (ddr,) = [x for x in trace if x["k"] == "ddr" and x["task"] == t]
        gone = {(t << 32) | int(r) for r in ddr["removed"]}   # SB rows = task rows here (SB holds the whole task)
        after = [x for x in trace if x["k"] == "step" and x["task"] == t and x["epoch"] >= ddr["epoch"]]
        assert gone and after and not gone & {i for x in after for i in x["ids"]}
        assert all((sid in store) == store_removed for sid in gone)
        em_refs = [x for x in trace if x["k"] == "em" and x["task"] > t]
        stored_ids = {store.read(c, k)[0] for line in em_refs for c, k in line["refs"]}
        later_em |= gone & stored_ids
        if not store_removed:
            assert not gone & stored_ids
    assert bool(later_em) == store_removed   # stored removed rows are drawn into later EMs
    store.close()


def test_ddr_random_removes_the_drawn_rows_at_the_same_counts(tmp_path: Path) -> None:
    """``ddr_select = "random"`` removes as many rows at the same epochs as forgetting does: the
    active rows at ``stream(seed, DDR_DRAW, task, epoch).sample`` (one removal a task: all active)."""
    from android_harness.device.rng import DDR_DRAW, Stream

    removals, sizes = {}, {}
    for select in ("forgetting", "random"):
        spec = small_spec("er")
        spec.sparcl.enabled, spec.sparcl.tdm, spec.sparcl.dgm = True, False, False
        spec.sparcl.ddr_steps, spec.sparcl.ddr_select, spec.train.epochs = [0.5], select, 4
        data = build_root(spec, tmp_path / select)
        session = new_session(spec, tmp_path / select, data, "ddr", trace=True)
        assert Runner(str(session)).run()["status"] == "ok"
        removals[select] = [x for x in read_trace([session / "trace.jsonl"]) if x["k"] == "ddr"]
        events, _ = read_events(str(session / "events.jsonl"))
        sizes[select] = [e["removed"] + e["remaining"] for e in events if e["type"] == "ddr"]
    assert sizes["forgetting"] == sizes["random"] and len(removals["random"]) == len(data.tasks)
    for fo, ra, n_sb in zip(removals["forgetting"], removals["random"], sizes["random"], strict=True):
        assert (fo["task"], fo["epoch"], len(fo["removed"])) == (ra["task"], ra["epoch"], len(ra["removed"]))
        drawn = Stream(spec.seed, DDR_DRAW, ra["task"], ra["epoch"]).sample(n_sb, len(ra["removed"]))
        assert ra["removed"] == sorted(drawn.tolist())
    assert [x["removed"] for x in removals["random"]] != [x["removed"] for x in removals["forgetting"]]


def test_bad_session_json_is_a_clear_error(tmp_path: Path) -> None:
    from android_harness.device.errors import SessionSpecError
    from android_harness.device.session_spec import read_spec

    (tmp_path / "session.json").write_text(json.dumps({"session_id": "x", "model_dir": "m", "data_dir": "d",
                                                       "replay_dir": "r", "tasks": [0], "train": {"method": "ewc",
                                                                                                  "buffer_batch_size": 3}}))
    with pytest.raises(SessionSpecError, match="train.method") as info:
        read_spec(str(tmp_path))
    assert "train.buffer_batch_size: unknown key" in str(info.value)


def test_runner_from_the_zip_alone(env, tmp_path: Path) -> None:
    """The zip is self-contained (the repo is off the path); the ORT backend imports the training API
    torch-free (ort_runtime), and the session leaves torch unimported."""
    from android_harness.bundle import build_device_zip

    spec, root, data = env
    session = new_session(spec, root, data, "zipped", tasks=data.tasks[:1])
    z = build_device_zip(tmp_path)
    code = ("import sys; "
            "import os; sys.path[:] = [p for p in sys.path if not os.path.isdir(os.path.join(p or '.', 'android_harness'))]; "
            f"sys.path.insert(0, {str(z)!r}); from android_harness.device.__main__ import main; "
            f"assert main(['run', {str(session)!r}]) == 0; "
            "assert sys.modules.get('torch') is None, 'torch was imported'; "
            f"assert sys.modules['android_harness.device.runner'].__file__.startswith({str(z)!r})")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd="/", timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert json.loads((session / "result.json").read_text())["status"] == "ok"


def test_a_checkpoint_of_another_runtime_or_mid_task_is_refused(env, tmp_path: Path) -> None:
    spec, root, data = env
    first = new_session(spec, root, data, "first", tasks=data.tasks[:1], overrides={"checkpoint_every": 3})
    assert Runner(str(first)).run()["status"] == "ok"
    ckpts = sorted((first / "checkpoints").iterdir())
    mid = [c for c in ckpts if not json.loads((c / "state.json").read_text())["task_finished"]]
    end = latest_checkpoint(str(first / "checkpoints"))
    if mid:
        bad = new_session(spec, root, data, "from-mid", tasks=data.tasks[1:2], resume_from=str(mid[0]))
        assert "must be a checkpoint at a task end" in Runner(str(bad)).run()["error"]
    state = json.loads((Path(end) / "state.json").read_text())
    other = tmp_path / "ckpt"
    other.mkdir()
    (other / "arrays").symlink_to(Path(end) / "arrays")
    (other / "state.json").write_text(json.dumps({**state, "runtime": "executorch"}))
    wrong = new_session(spec, root, data, "wrong-runtime", tasks=data.tasks[1:2], resume_from=str(other))
    assert "written by the executorch runtime" in Runner(str(wrong)).run()["error"]


@pytest.mark.parametrize("rescale", [False, True])
def test_tdm_init_rescale_restores_unit_norms_on_the_runner(tmp_path: Path, rescale: bool) -> None:
    """``sparcl.tdm_init_rescale`` reaches the device (through the exported initial state, which the
    host prunes): each masked unit keeps its dense norm; without it pruning shrinks the units.
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
    _, arrays = load_checkpoint(latest_checkpoint(str(session / "checkpoints")))
    for name in ("features.1.weight", "features.4.weight"):
        final = arrays[f"param.{name}"]
        assert np.mean(final == 0) >= 0.85, name
        kept, full = np.linalg.norm(final, axis=1), np.linalg.norm(dense[name], axis=1)
        if rescale:
            alive = kept > 0                        # a unit pruned to nothing has no norm to restore
            assert alive.mean() > 0.9, name
            np.testing.assert_allclose(kept[alive], full[alive], rtol=1e-4, err_msg=name)
        else:
            assert np.median(kept / full) < 0.8, name      # pruning alone shrinks units (about 0.5 here)


def test_a_session_at_another_sparsity_moves_there_by_its_expand_event(tmp_path: Path) -> None:
    """Miro's sparsity candidates train at their own sparsity on the run's one export (semantics 5.4)."""
    from android_harness.device.sparcl import keep_count
    from pipeline.task_config import TaskConfig

    spec = small_spec("er")
    spec.sparcl.enabled, spec.sparcl.sparsity, spec.sparcl.ddr, spec.sparcl.dgm = True, 0.5, False, False
    data = build_root(spec, tmp_path)
    first = new_session(spec, tmp_path, data, "at-0.5", tasks=data.tasks[:1], replay_dir="replay/s")
    before = Runner(str(first)).run()
    denser = TaskConfig(spec.replay, 0.9, 0.0)
    second = new_session(spec, tmp_path, data, "at-0.9", tasks=data.tasks[1:2], replay_dir="replay/s",
                         resume_from=before["checkpoint"], task=denser)
    assert Runner(str(second)).run()["status"] == "ok"
    for session, s in ((first, 0.5), (second, 0.9)):
        _, arrays = load_checkpoint(latest_checkpoint(str(session / "checkpoints")))
        for name in ("features.1.weight", "features.4.weight"):
            m = arrays[f"mask.{name}"]
            assert int(m.sum()) == keep_count(m.size, s), (s, name)
            assert np.all(arrays[f"param.{name}"][m == 0] == 0)
