"""Sweep planning, the results index and the combined report (host only; the scheduler on phones is
in device_tests/test_pool.py)."""
from __future__ import annotations

import json
import statistics
from pathlib import Path

import pytest

from android_harness.adb_server import ServerAddress
from android_harness.device.paths import name_problem
from android_harness.pool import parse_selector
from pipeline.errors import ConfigError, DeviceError, EdgeclError
from pipeline.sweep.grid import MAX_RUN_NAME, expand, parse_seeds, parse_set, parse_value, pinned
from pipeline.sweep.index import DONE, FAILED, PENDING, RUNNING, SweepIndex
from pipeline.sweep.report import ALL_MODELS, report_rows, write_report
from pipeline.sweep.results import run_result

REPO = Path(__file__).resolve().parents[1]


def test_set_and_seeds_parse() -> None:
    assert parse_set("sparcl.sparsity=0.5,0.75") == ("sparcl.sparsity", [0.5, 0.75])
    assert parse_set("export.runtime=ort,executorch") == ("export.runtime", ["ort", "executorch"])
    assert parse_set("model.hidden=[100,100],[64]") == ("model.hidden", [[100, 100], [64]])
    assert parse_set('train.method="er",derpp') == ("train.method", ["er", "derpp"])
    assert parse_set("sparcl.enabled=true,false") == ("sparcl.enabled", [True, False])
    assert parse_value("3") == 3 and parse_value("x y") == "x y"
    assert parse_seeds("0..4") == [0, 1, 2, 3, 4] and parse_seeds("0,2,5") == [0, 2, 5] and parse_seeds("3") == [3]
    for bad in ("lr", "=1", "a..b=1", "train.lr=", "train.lr=1,,2", "seed=1,2", "name=a"):
        with pytest.raises(ConfigError, match="--set"):
            parse_set(bad)
    for bad in ("a..b", "4..2", "1,1", "-1", ""):
        with pytest.raises(ConfigError, match="--seeds"):
            parse_seeds(bad)


def test_grid_expands_into_uniquely_named_runs() -> None:
    plans = expand("split-digits", [("sparcl.sparsity", [0.5, 0.75]), ("export.runtime", ["ort", "et"])], [0, 1, 2])
    assert len(plans) == 12
    assert [p.name for p in plans[:3]] == ["split-digits-sparsity0.5-runtimeort-s0", "split-digits-sparsity0.5-runtimeort-s1",
                                           "split-digits-sparsity0.5-runtimeort-s2"]
    assert plans[3].config == "sparcl.sparsity=0.5, export.runtime=et"
    assert plans[3].overrides == {"sparcl.sparsity": 0.5, "export.runtime": "et", "seed": 0,
                                  "name": "split-digits-sparsity0.5-runtimeet-s0"}
    assert len({p.name for p in plans}) == 12 and len({p.config for p in plans}) == 4
    assert all(name_problem(p.name, "name") is None and len(p.name) <= MAX_RUN_NAME for p in plans)
    long = expand("a-very-long-experiment-name-indeed", [("model.hidden", [[512, 512, 512], [256, 256]])], None, 7)
    assert [p.name for p in long] == ["a-very-long-experiment-name-c000-s7", "a-very-long-experiment-name-c001-s7"]
    assert [p.seed for p in long] == [7, 7]
    assert [p.name for p in expand("x", [], None)] == ["x-s0"] and expand("x", [], None)[0].config == "(spec)"
    with pytest.raises(ConfigError, match="twice"):
        expand("x", [("train.lr", [1]), ("train.lr", [2])], None)
    pins = pinned("demo", 0, ["a@127.0.0.1:5037", "b@10.0.0.5:5037"])
    assert [(p.name, p.pin) for p in pins] == [("demo-d0", "a@127.0.0.1:5037"), ("demo-d1", "b@10.0.0.5:5037")]


def test_adb_server_addresses_and_selectors() -> None:
    assert ServerAddress.parse("10.0.0.5:5037") == ServerAddress("10.0.0.5", 5037)
    assert ServerAddress.parse("tcp:lab-host:5038") == ServerAddress("lab-host", 5038)
    assert ServerAddress.parse("tcp:6000") == ServerAddress("127.0.0.1", 6000)
    assert not ServerAddress.parse("127.0.0.1:5037").autostart          # named explicitly: never started for you
    assert ServerAddress.from_env({}).autostart                           # the user's own local server: like adb
    assert not ServerAddress.from_env({"ADB_SERVER_SOCKET": "tcp:10.0.0.2:5037"}).autostart
    assert str(ServerAddress("10.0.0.5", 5037)) == "10.0.0.5:5037"
    for bad in ("lab", "lab:", ":5037", "lab:99999", "lab:port"):
        with pytest.raises(DeviceError, match="expected HOST:PORT"):
            ServerAddress.parse(bad)
    assert parse_selector("R58M12ABC") == ("R58M12ABC", None)
    assert parse_selector("192.168.1.7:5555@10.0.0.5:5037") == ("192.168.1.7:5555", ServerAddress("10.0.0.5", 5037))


def _index(tmp_path: Path) -> SweepIndex:
    plans = expand("s", [("train.lr", [0.03, 0.05])], [0, 1, 2])
    return SweepIndex.new(tmp_path / "sw", "sw", "spec.toml", "d1", plans, False, {"set": {"train.lr": [0.03, 0.05]}})


def test_index_transitions_are_recorded_and_survive_a_reload(tmp_path: Path) -> None:
    index = _index(tmp_path)
    rec = index.runs[0]
    index.start(rec, "A@h:1", "runs/s-a")
    index.end_attempt(rec, "lost", PENDING, "A offline for 31 s", "s-a-task1")
    index.start(rec, "B@h:1", "runs/s-a")
    with pytest.raises(AssertionError):
        index.start(rec, "C@h:1", "runs/s-a")                          # one attempt at a time
    index.complete(rec, {"class_il": 50.0})
    with pytest.raises(AssertionError):
        index.complete(rec, {"class_il": 60.0})                        # never counted twice
    loaded = SweepIndex.load(index.folder)
    got = loaded.run(rec.name)
    assert got.state == DONE and got.folder == "runs/s-a" and got.result == {"class_il": 50.0}
    assert [(a.device, a.outcome, a.session) for a in got.attempts] == [("A@h:1", "lost", "s-a-task1"), ("B@h:1", "done", "")]
    assert loaded.counts() == {PENDING: 5, RUNNING: 0, DONE: 1, FAILED: 0}
    (index.folder / "sweep.json").write_text(json.dumps({"format": "other"}))
    with pytest.raises(ConfigError, match="format"):
        SweepIndex.load(index.folder)


def _done(index: SweepIndex, i: int, model: str, class_il: float, energy: float | None, gauge: str = "battery|uA|charging") -> None:
    rec = index.runs[i]
    index.start(rec, f"{model}@h:1", f"runs/{rec.name}")
    index.complete(rec, {"class_il": class_il, "task_il": class_il + 10, "energy_j": energy, "idle_w": None, "model": model,
                         "gauge": gauge if "+" not in model else None, "seconds": 2.0, "simulated": True})


def test_report_is_mean_sd_over_seeds_and_compares_energy_within_a_model_only(tmp_path: Path) -> None:
    index = _index(tmp_path)
    _done(index, 0, "Pixel 7", 80.0, 10.0)
    _done(index, 1, "Pixel 7", 84.0, 12.0)
    _done(index, 2, "SM-G998B", 70.0, 30.0, gauge="battery|mA|charging")
    _done(index, 3, "Pixel 7", 60.0, 5.0)
    _done(index, 4, "Pixel 7 + SM-G998B", 62.0, None)                 # moved between models mid-run
    rows = {(r.config, r.model): r for r in report_rows(index)}
    p7 = rows[("train.lr=0.03", "Pixel 7")]
    assert p7.runs == 2 and p7.seeds == [0, 1]
    assert p7.class_il == (82.0, statistics.stdev([80.0, 84.0])) and p7.energy_j == (11.0, statistics.stdev([10.0, 12.0]))
    gx = rows[("train.lr=0.03", "SM-G998B")]
    assert gx.energy_j == (30.0, None) and gx.class_il == (70.0, None)  # one seed: no sd
    pooled = rows[("train.lr=0.03", ALL_MODELS)]
    assert pooled.runs == 3 and pooled.class_il[0] == pytest.approx(78.0, abs=0) and pooled.energy_j is None
    mixed = rows[("train.lr=0.05", "Pixel 7 + SM-G998B")]
    assert mixed.energy_j is None and mixed.class_il == (62.0, None)
    md, csv_path = write_report(index)
    text = md.read_text()
    assert "compared within one device model" in text and "simulated" in text
    assert "| train.lr=0.03 | Pixel 7 | 2 | 0,1 | 82.00 ± 2.83 | 92.00 ± 2.83 | 11.000 ± 1.414 |" in text
    assert "## Runs without results" in text and index.runs[5].name in text
    assert csv_path.read_text().splitlines()[0].startswith("configuration,device_model,gauge,runs")


def test_run_result_refuses_a_folder_with_missing_task_records(tmp_path: Path) -> None:
    run = tmp_path / "r"
    (run / "sessions" / "r-task0").mkdir(parents=True)
    summary = {"metrics": {"class_il": 50.0, "task_il": 90.0}, "energy_j": 3.0, "simulated": True,
               "tasks": [{"task": 0, "seconds": 1.5, "notes": []}, {"task": 1, "seconds": 2.5, "notes": []}]}
    (run / "summary.json").write_text(json.dumps(summary))
    dev = {"key": "A@h:1", "serial": "A", "model": "Pixel 7", "gauge": "battery|uA|charging", "simulated": True}
    (run / "sessions" / "r-task0" / "task.json").write_text(json.dumps({"task": 0, "device": dev}))
    with pytest.raises(EdgeclError, match="2 tasks in summary.json but 1 task records"):
        run_result(run, 4.2)
    (run / "sessions" / "r-task1").mkdir()
    other = {**dev, "key": "B@h:1", "serial": "B", "model": "SM-G998B", "gauge": "battery|mA|charging"}
    (run / "sessions" / "r-task1" / "task.json").write_text(json.dumps({"task": 1, "device": other}))
    res = run_result(run, 4.2)
    assert res["energy_j"] is None and "different device models" in res["energy_note"]
    assert res["model"] == "Pixel 7 + SM-G998B" and res["seconds"] == 4.0 and res["run_wall_s"] == 4.2
    (run / "sessions" / "r-task1" / "task.json").write_text(json.dumps({"task": 1, "device": {**dev, "key": "C@h:2"}}))
    same = run_result(run, 4.2)
    assert same["energy_j"] == 3.0 and same["model"] == "Pixel 7" and [d["key"] for d in same["devices"]] == ["A@h:1", "C@h:2"]


def test_sweep_cli_rejects_a_bad_grid_before_any_device(tmp_path: Path) -> None:
    """Every run's problems at once, exit 2, no sweep folder; the adb server named does not exist."""
    import os
    import subprocess
    import sys

    env = {**os.environ, "EDGECL_HOME": str(tmp_path / "home"), "PYTHONPATH": str(REPO)}
    proc = subprocess.run([sys.executable, "-m", "pipeline.cli.app", "sweep", str(REPO / "experiments" / "split-digits.toml"),
                           "--set", "train.lr=0.05,-1", "--set", "train.nosuch=1", "--seeds", "0..1",
                           "--adb-server", "127.0.0.1:9", "--out", str(tmp_path / "out")],
                          capture_output=True, text=True, env=env, timeout=300)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 2, out
    assert "train.nosuch: unknown key" in out and "train.lr: expected a value > 0" in out
    assert not (tmp_path / "out").exists()
