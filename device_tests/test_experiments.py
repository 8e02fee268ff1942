"""``edgecl run`` of every spec in ``experiments/`` on the (virtual) phone, on both runtimes, completes
every task: a 2-task, 2-epoch version of each (``--set``-style overrides; Fashion-MNIST capped to 20
training images per class and Miro's search cut to a small grid, so the suite stays minutes)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from android_harness.android_device import AndroidDevice
from pipeline.config import load_spec
from pipeline.experiment import run_experiment
from pipeline.miro.run import run_spec_with_miro

ROOT = Path(__file__).resolve().parents[1]
SPECS = sorted((ROOT / "experiments").glob("*.toml"))


def short_version(path: Path, runtime: str):
    """What ``edgecl run SPEC --runtime R --set ...`` runs here."""
    spec = load_spec(path)
    over = {"data.tasks": 2, "train.epochs": 2, "export.runtime": runtime, "power.idle_seconds": 0.0}
    if spec.data.kind != "digits":
        over |= {"data.max_train_per_class": 20, "data.max_test_per_class": 10, "replay.sb_size": 40}
    if spec.miro.enabled:
        over |= {"miro.start_task": 2, "miro.search": "grid", "miro.profile_epochs": 1, "miro.checkpoint_epochs": 1,
                 "miro.em_sizes": [min(spec.miro.em_sizes), max(spec.miro.em_sizes)], "miro.sb_sizes": [min(spec.miro.sb_sizes)]}
    return load_spec(path, over)


@pytest.mark.parametrize("runtime", ["executorch", "ort"])
@pytest.mark.parametrize("path", SPECS, ids=lambda p: p.stem)
def test_every_shipped_spec_completes_on_the_phone(request: pytest.FixtureRequest, tmp_path: Path, path: Path,
                                                   runtime: str) -> None:
    # ExecuTorch runs natively on the stock phone; ORT Training has no Android build, so it needs Python on the phone
    device: AndroidDevice = request.getfixturevalue("device" if runtime == "executorch" else "python_device")
    if runtime == "ort" and device.profile.python_cmd is None:
        pytest.skip("ANDROID_SERIAL names a phone without Python: ORT sessions need the Python device runner")
    spec = short_version(path, runtime)
    if spec.miro.enabled:
        folder, tuner = run_spec_with_miro(spec, device, tmp_path, progress=False)
        miro = json.loads((folder / "miro.json").read_text())
        assert [t["profiled"] for t in miro["tasks"]] == [False, True] and miro["tasks"][1]["runs"]
    else:
        folder = run_experiment(spec, device, tmp_path, progress=False)
    summary = json.loads((folder / "summary.json").read_text())
    assert summary["runtime"] == runtime and [t["task"] for t in summary["tasks"]] == [0, 1]
    for t in summary["tasks"]:
        result = json.loads((folder / "sessions" / t["session_id"] / "result.json").read_text())
        assert result["status"] == "ok" and result["evals"][-1]["after_task"] == t["task"]
    assert (folder / "accuracy_matrix.csv").read_text().count("\n") == 3
