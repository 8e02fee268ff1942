"""``edgecl tune SPEC --compare`` on the phone: each configuration of the spec's Miro grid and its ``[replay]``
default run statically, then Miro; compare.json in Miro's results folder holds every run's figures and
ratios that follow from them, the terminal says them, the report shows them."""
from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

from android_harness.android_device import AndroidDevice
from device_tests._small_run import edgecl_argv

ROOT = Path(__file__).resolve().parents[1]
SPEC = """name = "cmp"
seed = 0
[data]
kind = "digits"
tasks = 2
classes_per_task = 2
max_train_per_class = 40
max_test_per_class = 20
[model]
kind = "mlp"
hidden = [32]
[train]
method = "er"
epochs = 1
[export]
runtime = "ort"
[replay]
em_size = 40
sb_size = 80
swap_ratio = 0.25
[power]
idle_seconds = 0.0
[miro]
start_task = 2
em_sizes = [10, 80]
sb_sizes = [80]
subset_fraction = 0.5
checkpoint_epochs = 1
profile_epochs = 1
search = "grid"
"""


def test_tune_compare_runs_the_statics_then_miro_and_reports_the_ratios(python_device: AndroidDevice, tmp_path: Path) -> None:
    device = python_device
    spec = tmp_path / "cmp.toml"
    spec.write_text(SPEC)
    env = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "300"}
    out = tmp_path / "results"
    done = subprocess.run(edgecl_argv("tune", str(spec), "--compare", "--serial", f"{device.serial}@{device.adb.server}",
                                      "--out", str(out)), capture_output=True, text=True, env=env, cwd=ROOT, timeout=1200)
    text = done.stdout + done.stderr
    assert done.returncode == 0, text
    assert "Traceback" not in text
    (path,) = out.glob("*/compare.json")
    data = json.loads(path.read_text())
    statics, miro, c = data["statics"], data["miro"], data["comparison"]
    keys = set(statics)
    assert len(keys) == 3 and c["default"] in keys and c["oracle"] in keys and c["best_ce"] in keys
    for key, run in statics.items():          # each static ran its own configuration at every task
        tasks = json.loads((Path(run["folder"]) / "summary.json").read_text())["tasks"]
        em, sb = (int(part[2:]) for part in key.split("-")[:2])            # em<EM>-sb<SB>-...
        assert [(t["config"]["em_size"], t["config"]["sb_size"]) for t in tasks] == [(em, sb)] * 2
        assert run["ce"] == run["class_il"] / run["energy_j"]
    assert miro["energy_j"] > miro["profiling_energy_j"] > 0 and miro["folder"] == str(path.parent)
    assert c["vs_oracle"] == miro["ce"] / statics[c["oracle"]]["ce"]
    assert c["vs_default"] == miro["ce"] / statics[c["default"]]["ce"]
    assert c["best_ce"] == max(keys, key=lambda k: statics[k]["ce"])
    flat = " ".join(text.split())
    assert f"miro vs the oracle: CE {c['vs_oracle']:.3f}x" in flat, text
    page = (path.parent / "report" / "index.html").read_text()
    assert "Miro against the static configurations" in page and f"{c['vs_oracle']:.3f}x the oracle" in page
