"""One training semantics, exact on host and device (docs/semantics.md).

For ER and DER++, SparCL off and on (TDM + DDR + DGM), ExecuTorch and ORT, one session per task as
``edgecl run`` does it, on sessions long enough for 5 TDM updates, 2 DDR removals and a dozen DGM
refreshes per task, with Miro's swap on:
(a) the same program in other session layouts — all tasks in one session, and a session killed
    (SIGKILL) after a random checkpoint and resumed — writes the same trace line for line, the same
    accuracy matrix and bit-identical final weights;
(b) the torch-eager host trainer (the same engine on ``TorchBackend``) has the same sample order,
    EM, swaps and removed sets, losses within 1e-5, and any mask difference is a documented near tie.
"""
from __future__ import annotations

import random
import sys
from pathlib import Path

import numpy as np
import pytest

from android_harness.device.runner import Runner
from pipeline.cl.trainer import HostTrainer
from pipeline.config import ExperimentSpec, parse_spec
from pipeline.conformance import LOSS_TOL, MaskRecorder, TopK, compare_traces, near_tie, read_trace
from tests._runner_env import build_root, evals, final_arrays, kill_after_a_checkpoint, new_session

REPO = Path(__file__).resolve().parents[1]
CONFIGS = [(m, s) for m in ("er", "derpp") for s in (False, True)]


def conf_spec(method: str, sparcl: bool) -> ExperimentSpec:
    return parse_spec({
        "name": f"conf-{method}-{'sparcl' if sparcl else 'dense'}", "seed": 5,
        "data": {"kind": "digits", "tasks": 3, "classes_per_task": 2, "max_train_per_class": 40, "max_test_per_class": 30},
        "model": {"kind": "mlp", "hidden": [32, 32]},
        "train": {"method": method, "epochs": 5, "batch_size": 16, "lr": 0.05},
        "replay": {"em_size": 40, "sb_size": 80, "swap_ratio": 0.5},
        "sparcl": {"enabled": sparcl, "sparsity": 0.5, "tdm_update_every": 0.2, "ddr_fraction": 0.2,
                   "ddr_steps": [0.2, 0.4], "dgm_period": 3}}, source="test_conformance")


class Layouts:
    """Sessions of one spec on one runtime under one storage root, in three layouts."""

    def __init__(self, spec: ExperimentSpec, root: Path, runtime: str) -> None:
        self.spec, self.root, self.runtime = spec, root, runtime
        self.data = build_root(spec, root, runtime)

    def session(self, sid: str, tasks: list[int], layout: str, resume_from: str = "", **overrides) -> Path:
        return new_session(self.spec, self.root, self.data, sid, runtime=self.runtime, tasks=tasks, trace=True,
                           replay_dir=f"replay/{layout}", resume_from=resume_from, overrides=overrides)

    def per_task(self, layout: str, observer=None, kill_task: int | None = None, rng: random.Random | None = None):
        """One session per task (resume_from chained); ``kill_task``: that session is killed and resumed."""
        last, folders, results = "", [], []
        for t in self.data.tasks:
            folder = self.session(f"{layout}-t{t}", [t], layout, last, **({"checkpoint_every": 4} if t == kill_task else {}))
            if t == kill_task:
                _kill_after_a_checkpoint(folder, rng)
            result = Runner(str(folder), observer=observer).run(handle_sigterm=False)
            assert result["status"] == "ok", result["error"]
            last = result["checkpoint"]
            folders.append(folder)
            results.append(result)
        return folders, results

    def one_session(self, layout: str):
        folder = self.session(f"{layout}-all", self.data.tasks, layout)
        result = Runner(str(folder)).run(handle_sigterm=False)
        assert result["status"] == "ok", result["error"]
        return [folder], [result]


def _kill_after_a_checkpoint(folder: Path, rng: random.Random) -> None:
    """Start the session as its own process and SIGKILL it right after a randomly chosen checkpoint."""
    kill_after_a_checkpoint([sys.executable, "-m", "android_harness.device", "run", str(folder)], folder,
                            rng.randrange(1, 7), timeout_s=120, cwd=REPO)


def _traces(folders: list[Path]) -> list[dict]:
    return read_trace([f / "trace.jsonl" for f in folders])


def _final_params(folder: Path) -> dict[str, np.ndarray]:
    return {k: v for k, v in final_arrays(folder).items() if k.startswith(("param.", "mask.", "buffer."))}


def _check_coverage(trace: list[dict], sparcl: bool, tasks: list[int]) -> None:
    """Long enough: per task >= 2 TDM updates, 2 DDR removals, several DGM refreshes; swaps happen."""
    kinds = lambda k, t: [x for x in trace if x["k"] == k and x["task"] == t]  # noqa: E731
    for i, t in enumerate(tasks):
        assert len(kinds("step", t)) >= 20
        if i:
            assert kinds("em", t)[0]["refs"] and kinds("swap", t)
        if sparcl:
            assert len(kinds("tdm", t)) >= 2 and len(kinds("ddr", t)) == 2 and len(kinds("dgm", t)) >= 5


@pytest.fixture(scope="module", params=["executorch", "ort"])
def runtime(request) -> str:
    return request.param


@pytest.mark.parametrize(("method", "sparcl"), CONFIGS, ids=[f"{m}-{'sparcl' if s else 'dense'}" for m, s in CONFIGS])
def test_one_semantics_on_every_layout_and_on_the_host(tmp_path: Path, runtime: str, method: str, sparcl: bool) -> None:
    spec = conf_spec(method, sparcl)
    env = Layouts(spec, tmp_path, runtime)
    device_masks = MaskRecorder()
    a_folders, a_results = env.per_task("a", observer=device_masks)
    ref = _traces(a_folders)
    _check_coverage(ref, sparcl, env.data.tasks)
    rng = random.Random(f"{runtime}-{method}-{sparcl}")
    layouts = {"one session": env.one_session("b"),
               "killed and resumed": env.per_task("k", kill_task=rng.choice(env.data.tasks), rng=rng)}
    for name, (folders, results) in layouts.items():
        cmp = compare_traces(ref, _traces(folders))
        assert cmp.complete, f"{name}: {cmp.problems}"
        assert evals(results) == evals(a_results), name
        a, b = _final_params(a_folders[-1]), _final_params(folders[-1])
        assert a.keys() == b.keys()
        for key in a:
            assert np.array_equal(a[key], b[key]), f"{name}: {key}"
    host_masks = MaskRecorder()
    host = HostTrainer(spec, progress=False, root=tmp_path / "host", observer=host_masks, trace=True)
    result = host.run()
    cmp = compare_traces(_traces(host.sessions), ref, LOSS_TOL, host_masks, device_masks)
    assert cmp.complete, (cmp.problems, f"stopped at an explained near tie: {cmp.near_tie_at}")
    device_matrix = [[r["class_il"].get(str(t)) for t in env.data.tasks] for r in evals(a_results)]
    assert [[None if np.isnan(v) else v for v in row] for row in result.class_il.tolist()] == device_matrix


def test_the_device_dgm_mask_changes_between_refreshes(tmp_path: Path, runtime: str) -> None:
    """DGM is recomputed from the RAW gradient: its mask moves from one refresh to the next."""
    env = Layouts(conf_spec("derpp", True), tmp_path, runtime)
    folders, _ = env.per_task("a")
    trace = _traces(folders)
    for t in env.data.tasks:
        hashes = [x["masks"] for x in trace if x["k"] == "dgm" and x["task"] == t]
        changed = [a != b for a, b in zip(hashes, hashes[1:])]
        assert len(changed) >= 5 and all(changed), (t, changed)


def test_near_tie_rule() -> None:
    """The host-vs-device mask rule as code: a swap across the k-th score is accepted only within 1e-5."""
    scores = np.array([5.0, 4.0, 3.0, 3.0 * (1 + 2e-6), 1.0])
    a = TopK({"w": np.array([1, 1, 1, 0, 0], bool)}, {"w": scores}, {"w": 3})
    b = TopK({"w": np.array([1, 1, 0, 1, 0], bool)}, {"w": scores}, {"w": 3})
    assert near_tie(a, b) is None and near_tie(a, a) is None
    far = TopK({"w": np.array([1, 1, 0, 0, 1], bool)}, {"w": scores}, {"w": 3})
    assert "not a near tie" in near_tie(a, far)
