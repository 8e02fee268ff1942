"""The native runner implements docs/semantics.md: conformance with the Python runner, across ABIs,
session layouts and a kill -9.

For ER and DER++, SparCL off and on (TDM + DDR + DGM; sessions long enough for >= 2 TDM updates,
2 DDR removals and several DGM refreshes per task, Miro's swap on), one session per task as
``edgecl run`` does it, on the same exported ExecuTorch program:

(a) native x86_64 against the Python runner (ExecuTorch backend): every discrete line of the trace
    equal — sample ids of every step, EM references, swap plans, removed rows, TDM and DGM mask
    hashes, evaluation counts — and the accuracy rows of result.json equal. Losses agree to
    ``LOSS_TOL`` and not to the bit: the executorch wheel the Python runner uses runs ExecuTorch's
    *optimized* kernels (Eigen sgemm, vectorized log_softmax/sum/div), the native runner the
    portable kernels' summation order (tests/test_native_build.py bounds the per-step difference);
    a mask that flipped on such a last-bit difference would fail this test (none does here).
(b) native arm64 (qemu-aarch64-static) against native x86_64: trace files, result evaluations and
    every final checkpoint array byte-identical.
(c) native in other layouts — all tasks in one session, and a per-task chain whose session is
    killed (SIGKILL) right after a random checkpoint and resumed — trace, evaluations and final
    arrays byte-identical; and a chain that alternates runners (Python, native, Python) hands
    checkpoints over and conforms like (a).
(d) fine-tuning, joint training, Miro's profiling sessions (subset of SB and EM, read-only
    storage tier), structured TDM (channel units, dead channels' biases at 0) and DDR with
    ``ddr_store_removed`` (removed rows stored, drawn into later EMs) and ``ddr_select = "random"``
    (removals drawn from the DDR_DRAW stream) conform like (a).
"""
from __future__ import annotations

import dataclasses
import json
import random
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from android_harness.device.checkpoint import latest_checkpoint, load_checkpoint
from android_harness.device.errors import SessionSpecError
from android_harness.device.events import read_events
from android_harness.device.runner import Runner
from pipeline.conformance import LOSS_TOL, compare_traces, read_trace
from tests._native_bins import command, runner_binary
from tests._runner_env import build_root, evals, final_arrays, kill_after_a_checkpoint, new_session
from tests.test_conformance import conf_spec

pytestmark = [pytest.mark.slow, pytest.mark.timeout(3600)]

CONFIGS = [(m, s) for m in ("er", "derpp") for s in (False, True)]
IDS = [f"{m}-{'sparcl' if s else 'dense'}" for m, s in CONFIGS]
RUNTIME = "executorch"


class Chain:
    """Sessions of one spec under one storage root: each layout has its own replay store."""

    def __init__(self, spec, root: Path) -> None:
        self.spec, self.root, self.sparcl = spec, root, spec.sparcl.enabled
        self.data = build_root(spec, root, RUNTIME)

    def session(self, sid: str, tasks: list[int], layout: str, resume_from: str = "", **overrides) -> Path:
        return new_session(self.spec, self.root, self.data, sid, runtime=RUNTIME, tasks=tasks, trace=True,
                           replay_dir=f"replay/{layout}", resume_from=resume_from, overrides=overrides)

    def per_task(self, layout: str, runners: list[str], kill_task: int | None = None,
                 rng: random.Random | None = None) -> tuple[list[Path], list[dict]]:
        """One session per task (``runners[i]``: "python" or an ABI), resume_from chained."""
        last, folders, results = "", [], []
        for i, t in enumerate(self.data.tasks):
            kill = t == kill_task
            folder = self.session(f"{layout}-t{t}", [t], layout, last, **({"checkpoint_every": 4} if kill else {}))
            if kill:
                _kill_after_a_checkpoint(runners[i], folder, rng)
            result = run_session(runners[i], folder)
            assert result["status"] == "ok", (layout, t, result["error"])
            last = result["checkpoint"]
            folders.append(folder)
            results.append(result)
        return folders, results


def run_session(runner: str, folder: Path) -> dict:
    if runner == "python":
        return Runner(str(folder)).run(handle_sigterm=False)
    out = subprocess.run(command(runner, runner_binary(runner), "run", folder), capture_output=True, text=True, timeout=1800)
    result = json.loads((folder / "result.json").read_text())
    assert out.returncode == (0 if result["status"] == "ok" else 1), out.stderr
    return result


def _kill_after_a_checkpoint(abi: str, folder: Path, rng: random.Random) -> None:
    """Start the native session and SIGKILL it right after a randomly chosen checkpoint."""
    kill_after_a_checkpoint(command(abi, runner_binary(abi), "run", folder), folder, rng.randrange(1, 5),
                            timeout_s=600, poll_s=0.002)


def _trace_bytes(folders: list[Path]) -> list[bytes]:
    return [line for f in folders for line in (f / "trace.jsonl").read_bytes().splitlines()]


def _assert_same_arrays(a: dict[str, np.ndarray], b: dict[str, np.ndarray], what: str) -> None:
    assert a.keys() == b.keys(), what
    for key in a:
        assert a[key].dtype == b[key].dtype and a[key].tobytes() == b[key].tobytes(), f"{what}: {key}"


def _check_coverage(trace: list[dict], sparcl: bool, tasks: list[int]) -> None:
    """Long enough: per task >= 2 TDM updates, 2 DDR removals, several DGM refreshes; swaps happen."""
    for i, t in enumerate(tasks):
        kinds = {k: [x for x in trace if x["k"] == k and x["task"] == t] for k in ("step", "em", "swap", "tdm", "ddr", "dgm")}
        assert len(kinds["step"]) >= 20
        if i:
            assert kinds["em"][0]["refs"] and kinds["swap"]
        if sparcl:
            assert len(kinds["tdm"]) >= 2 and len(kinds["ddr"]) == 2 and len(kinds["dgm"]) >= 5


@pytest.fixture(scope="module", params=CONFIGS, ids=IDS)
def chain(request, tmp_path_factory):
    method, sparcl = request.param
    chain = Chain(conf_spec(method, sparcl), tmp_path_factory.mktemp(f"native-{method}-{sparcl}"))
    n = len(chain.data.tasks)
    chain.python = chain.per_task("py", ["python"] * n)
    chain.x86 = chain.per_task("nx", ["x86_64"] * n)
    return chain


def test_native_conforms_to_the_python_runner(chain, record_property) -> None:
    (py_f, py_r), (nx_f, nx_r) = chain.python, chain.x86
    ref, native = read_trace([f / "trace.jsonl" for f in py_f]), read_trace([f / "trace.jsonl" for f in nx_f])
    _check_coverage(ref, chain.sparcl, chain.data.tasks)
    cmp = compare_traces(ref, native, LOSS_TOL)
    record_property("max_loss_diff", cmp.max_loss_diff)     # docs/semantics.md 11 quotes the observed bound
    assert cmp.complete, (cmp.problems, cmp.near_tie_at)
    assert evals(nx_r) == evals(py_r)
    assert [r["iterations"] for r in nx_r] == [r["iterations"] for r in py_r]
    assert final_arrays(nx_f[-1]).keys() == final_arrays(py_f[-1]).keys()


def test_arm64_is_byte_identical_to_x86_64(chain) -> None:
    nx_f, nx_r = chain.x86
    na_f, na_r = chain.per_task("na", ["arm64-v8a"] * len(chain.data.tasks))
    assert _trace_bytes(na_f) == _trace_bytes(nx_f)
    assert evals(na_r) == evals(nx_r)
    _assert_same_arrays(final_arrays(nx_f[-1]), final_arrays(na_f[-1]), "arm64 vs x86_64")


def test_native_layouts_and_kill_resume_are_byte_identical(chain) -> None:
    nx_f, nx_r = chain.x86
    folder = chain.session("n1-all", chain.data.tasks, "n1")
    one = run_session("x86_64", folder)
    assert one["status"] == "ok", one["error"]
    assert _trace_bytes([folder]) == _trace_bytes(nx_f)
    assert evals([one]) == evals(nx_r)
    _assert_same_arrays(final_arrays(nx_f[-1]), final_arrays(folder), "one session")
    rng = random.Random(f"native-kill-{chain.spec.name}")
    nk_f, nk_r = chain.per_task("nk", ["x86_64"] * len(chain.data.tasks), kill_task=rng.choice(chain.data.tasks), rng=rng)
    assert _trace_bytes(nk_f) == _trace_bytes(nx_f)
    assert evals(nk_r) == evals(nx_r)
    _assert_same_arrays(final_arrays(nx_f[-1]), final_arrays(nk_f[-1]), "killed and resumed")
    for f in nk_f:
        events, _ = read_events(str(f / "events.jsonl"))
        assert [e["seq"] for e in events] == list(range(len(events)))


def test_runners_hand_checkpoints_over(chain) -> None:
    """Same files in, same files out: Python, native, Python in one chain conform like (a)."""
    py_f, py_r = chain.python
    n = len(chain.data.tasks)
    mixed_f, mixed_r = chain.per_task("mix", [("python", "x86_64")[i % 2] for i in range(n)])
    cmp = compare_traces(read_trace([f / "trace.jsonl" for f in py_f]), read_trace([f / "trace.jsonl" for f in mixed_f]),
                         LOSS_TOL)
    assert cmp.complete, (cmp.problems, cmp.near_tie_at)
    assert evals(mixed_r) == evals(py_r)


@pytest.mark.parametrize(("method", "kind", "sparcl"), [
    ("finetune", "task", {}), ("joint", "task", {}), ("derpp", "profiling", {}), ("derpp", "task", {"structured": True}),
    ("derpp", "task", {"ddr_store_removed": True}), ("er", "task", {"ddr_select": "random"})],
    ids=["finetune", "joint", "profiling", "structured", "ddr_store_removed", "ddr_random"])
def test_more_session_kinds_conform(tmp_path: Path, method: str, kind: str, sparcl: dict) -> None:
    spec = conf_spec("er", True)
    spec = dataclasses.replace(spec, train=dataclasses.replace(spec.train, method=method),
                               sparcl=dataclasses.replace(spec.sparcl, **sparcl))
    chain = Chain(spec, tmp_path)
    runs = {}
    for runner in ("python", "x86_64"):
        last, folders, results = "", [], []
        for t in chain.data.tasks:
            folder = new_session(chain.spec, chain.root, chain.data, f"{runner}-t{t}", runtime=RUNTIME, tasks=[t], trace=True,
                                 replay_dir=f"replay/{runner}", resume_from=last, kind=kind,
                                 subset_fraction=0.5 if kind == "profiling" else 1.0)
            result = run_session(runner, folder)
            assert result["status"] == "ok", result["error"]
            last = result["checkpoint"]
            folders.append(folder)
            results.append(result)
        runs[runner] = (read_trace([f / "trace.jsonl" for f in folders]), evals(results))
    cmp = compare_traces(runs["python"][0], runs["x86_64"][0], LOSS_TOL)
    assert cmp.complete, (cmp.problems, cmp.near_tie_at)
    assert runs["python"][1] == runs["x86_64"][1]


@pytest.mark.parametrize("runner", ["python", "x86_64"])
def test_a_fresh_session_starts_on_an_empty_store(chain, runner: str) -> None:
    """A task session from the export's initial state on a store an earlier chain filled (every
    task's samples) trains as the chain's first session did and leaves S as that one did: nothing
    of the earlier run is replayed or stored twice (docs/semantics.md 10)."""
    first = chain.python[0][0]
    layout = f"again-{runner}"
    shutil.copytree(chain.root / "replay" / "py", chain.root / "replay" / layout)
    folder = chain.session(f"{layout}-t{chain.data.tasks[0]}", [chain.data.tasks[0]], layout)
    result = run_session(runner, folder)
    assert result["status"] == "ok", result["error"]
    cmp = compare_traces(read_trace([first / "trace.jsonl"]), read_trace([folder / "trace.jsonl"]), LOSS_TOL)
    assert cmp.complete, (cmp.problems, cmp.near_tie_at)
    nonzero = _stored_bytes(first)
    assert _stored_bytes(folder) == nonzero
    sizes = {p.stem.rsplit("_", 1)[-1]: p.stat().st_size for p in (chain.root / "replay" / layout).glob("class_*.rec")}
    assert {k: v for k, v in sizes.items() if v} == nonzero


def _stored_bytes(session: Path) -> dict[str, int]:
    """The non-empty class files' byte ends in the session's latest checkpoint (its storage position)."""
    state, _ = load_checkpoint(latest_checkpoint(str(session / "checkpoints")))
    return {k: v for k, v in state["storage_position"].items() if v}


def test_a_profiling_candidate_skips_its_task_end_checkpoint(chain) -> None:
    """``checkpoint_at_task_end = false`` (Miro's candidates): both runners train and evaluate as with
    it, write no checkpoint and return a null one; a task session asking it is refused by both."""
    start = chain.python[1][0]["checkpoint"]
    t = chain.data.tasks[1]
    runs = {}
    for runner, at_end in (("python", True), ("python", False), ("x86_64", False)):
        folder = chain.session(f"cand-{runner}-{at_end}", [t], f"cand-{runner}-{at_end}", start, kind="profiling",
                               subset_fraction=0.5, checkpoint_at_task_end=at_end)
        result = run_session(runner, folder)
        assert result["status"] == "ok", result["error"]
        assert (result["checkpoint"] is None) == (not at_end)
        assert any((folder / "checkpoints").glob("ckpt-*")) == at_end
        runs[(runner, at_end)] = (read_trace([folder / "trace.jsonl"]), result["evals"])
    for other in (("python", False), ("x86_64", False)):
        cmp = compare_traces(runs[("python", True)][0], runs[other][0], LOSS_TOL)
        assert cmp.complete, (other, cmp.problems)
        assert runs[other][1] == runs[("python", True)][1]
    refused = "checkpoint_at_task_end: false only for profiling"
    folders = {}
    for runner in ("python", "x86_64"):
        folders[runner] = chain.session(f"refused-{runner}", [t], "refused", start)
        path = folders[runner] / "session.json"
        path.write_text(json.dumps({**json.loads(path.read_text()), "checkpoint_at_task_end": False}))
    with pytest.raises(SessionSpecError, match=refused):
        run_session("python", folders["python"])
    result = run_session("x86_64", folders["x86_64"])
    assert result["status"] == "error" and refused in result["error"]
