"""Bring your own data and model, end to end on a virtual phone: ``edgecl run SPEC --vphone`` with
``data.kind = "arrays"`` (an .npz of 12-class (C, T) sequences) and a model class of the user's,
named by import path (ExecuTorch) and by file (ONNX Runtime); the run trains on the phone, writes
the report and prints its path. Also the session commands a user runs by hand: ``cancel`` on a
running and on a finished session, ``vphone stop`` with and without ``--keep``."""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from android_harness.adb_server import ServerAddress
from android_harness.android_device import AndroidDevice
from android_harness.private_server import running_server, stop_server
from android_harness.session import SessionDriver
from pipeline.cli.app import app
from pipeline.config import parse_spec
from pipeline.device_run import prepare_device_run
from tests.test_user_data import twelve_class_sequences
from tests.test_user_models import NETS

pytestmark = pytest.mark.skipif(bool(os.environ.get("ANDROID_SERIAL")), reason="starts its own virtual phones")


def _python_preset() -> str:
    """The vphone preset that keeps a Python for the Python device runner (stock presets have none)."""
    from android_harness.vphone import presets

    return getattr(presets, "PYTHON_PRESET", presets.DEFAULT_PRESET)


@pytest.fixture()
def runner_device(request: pytest.FixtureRequest) -> AndroidDevice:
    """The device the Python runner can run on: ``python_device`` where the fixtures have one."""
    try:
        return request.getfixturevalue("python_device")
    except pytest.FixtureLookupError:
        return request.getfixturevalue("device")


def _spec(tmp_path: Path, model_kind: str, runtime: str, power: bool) -> Path:
    x, y = twelve_class_sequences(n_per_class=16)
    np.savez(tmp_path / "gestures.npz", x=x, y=np.array([f"g{k:02d}" for k in range(12)])[y])
    spec = tmp_path / "byo.toml"
    spec.write_text(f'''name = "byo-{runtime}"
seed = 0

[data]
kind = "arrays"
path = "{tmp_path / 'gestures.npz'}"
tasks = 2
classes_per_task = 3

[model]
kind = "{model_kind}"
args = {{ width = 6 }}

[train]
method = "er"
epochs = 1
batch_size = 8

[replay]
em_size = 20
sb_size = 40

[export]
runtime = "{runtime}"

[device]
vphone_preset = "{_python_preset()}"

[power]
enabled = {"true" if power else "false"}
idle_seconds = 0.0
''')
    return spec


@pytest.mark.parametrize("runtime, by", [("executorch", "import path"), ("ort", "file")])
def test_run_on_a_vphone_with_your_own_data_and_model(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                      edgecl_home: Path, runtime: str, by: str) -> None:
    package = tmp_path / "my_models"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "nets.py").write_text(NETS)
    kind = "my_models.nets:SeqNet" if by == "import path" else f"{package / 'nets.py'}:SeqNet"
    monkeypatch.chdir(tmp_path)
    spec = _spec(tmp_path, kind, runtime, power=runtime == "executorch")
    res = CliRunner().invoke(app, ["run", str(spec), "--vphone", "--out", str(tmp_path / "results")],
                             env={"COLUMNS": "200"})
    assert res.exit_code == 0, res.output + repr(res.exception)
    (folder,) = (tmp_path / "results").iterdir()
    summary = json.loads((folder / "summary.json").read_text())
    assert summary["runtime"] == runtime and summary["simulated"] is True
    assert [t["task"] for t in summary["tasks"]] == [0, 1] and all(t["iterations"] > 0 for t in summary["tasks"])
    assert 0.0 <= summary["metrics"]["class_il"] <= 100.0
    manifest = json.loads((folder / "export" / "manifest.json").read_text())
    assert manifest["model"]["kind"] == kind and manifest["model"]["input_shape"] == [6, 40]
    assert manifest["model"]["num_classes"] == 12 and manifest["model"]["args"] == {"width": 6}
    assert set(manifest["signature"]["mask_names"]) == {"body.0.weight", "body.3.weight"}
    printed = re.search(r"report: (\S+index\.html)", " ".join(res.output.split()))
    assert printed is not None and Path(printed.group(1)) == folder / "report" / "index.html"
    page = (folder / "report" / "index.html").read_text()
    assert f"arrays {tmp_path / 'gestures.npz'}: 2 tasks x 3 classes" in page and f"{kind} (args width=6" in page
    assert "Miro off" in page and "chosen by Miro" not in page
    # power is on for the ExecuTorch run only: the header names the counter its tables came from (the default
    # preset has ODPM rails), and says when nothing was measured
    assert ("on-device power monitor (ODPM) rails" in page) == (runtime == "executorch")
    assert ("not measured (power.enabled = false)" in page) == (runtime == "ort")
    assert not list((edgecl_home / "vphones").glob("home-*"))      # the run's vphone and its home are gone,
    assert not _processes_under(edgecl_home / "vphones")             # and the phone's persistent runner with them


def _processes_under(folder: Path) -> list[int]:
    """PIDs whose command line names a path under ``folder`` (zombies have none)."""
    pids = []
    for proc in Path("/proc").iterdir():
        try:
            if proc.name.isdigit() and str(folder).encode() in (proc / "cmdline").read_bytes():
                pids.append(int(proc.name))
        except OSError:
            continue
    return pids


def _cli(args: list[str]) -> tuple[int, str]:
    res = CliRunner().invoke(app, args, env={"COLUMNS": "200"})
    return res.exit_code, " ".join(res.output.split())


def test_cancel_a_running_then_a_finished_session(runner_device: AndroidDevice, adb_server: ServerAddress,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ANDROID_ADB_SERVER_PORT", str(adb_server.port))
    monkeypatch.delenv("ADB_SERVER_SOCKET", raising=False)
    spec = parse_spec({"name": "cli-cancel", "data": {"kind": "digits", "tasks": 1, "classes_per_task": 2},
                       "train": {"method": "er", "epochs": 200}, "power": {"enabled": False}})
    run = prepare_device_run(spec, runner_device, "cli-cancel", runtime="ort", progress=False)
    driver = SessionDriver(runner_device)
    sid = f"cli-cancel-{int(time.time())}"
    handle = driver.start(run.session_spec(sid, [0]))
    while not any(e["type"] == "epoch" for e in driver.poll(handle).events + handle.events):
        time.sleep(0.2)
    code, out = _cli(["cancel", sid, "--serial", runner_device.serial])
    assert code == 0 and f"{sid}: cancel requested (SIGTERM to pid {handle.pid})" in out
    assert driver.stream(handle, progress=False)["status"] == "cancelled"
    code, out = _cli(["cancel", sid, "--serial", runner_device.serial])
    assert code == 1 and f"{sid}: already ended with status 'cancelled'; nothing to cancel" in out
    assert "SIGTERM" not in out


def test_vphone_stop_removes_its_home_unless_keep(adb_server: ServerAddress, edgecl_home: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ANDROID_ADB_SERVER_PORT", str(adb_server.port))
    monkeypatch.delenv("ADB_SERVER_SOCKET", raising=False)
    server_before = running_server(edgecl_home)
    for keep in (False, True):
        code, out = _cli(["vphone", "start"])
        serial = out.split()[-1] if out.split() else ""   # the last line is the serial (after the adb server's)
        assert code == 0 and serial.startswith("127.0.0.1:")
        home = edgecl_home / "vphones" / f"home-{serial.rsplit(':', 1)[1]}"
        assert (home / "props.json").is_file()
        code, out = _cli(["vphone", "stop", serial] + (["--keep"] if keep else []))
        assert code == 0 and out.startswith(f"stopped {serial}")
        assert home.exists() == keep and (f"kept {home}" in out) == keep and (f"removed {home}" in out) != keep
    import shutil

    shutil.rmtree(home)
    if server_before is None:                          # `vphone start` started edgecl's vphone adb server: ours to stop
        stop_server(edgecl_home)


def test_a_model_the_runner_cannot_run_is_refused_before_anything_moves(tmp_path: Path, device: AndroidDevice) -> None:
    """Three convolutions and an AvgPool2d, whose backward the native runner has no kernel for: exit 4
    naming the layer, checked against the runner's own ops.txt; no data, runner or model pushed and no
    results folder."""
    from android_harness.cache_dir import edgecl_home
    from pipeline.config import load_spec
    from pipeline.experiment_prep import write_shards

    zoo = Path(__file__).resolve().parents[1] / "tests" / "user_zoo.py"
    spec = tmp_path / "avgpool.toml"
    spec.write_text(f'name = "avgpool-refused"\nseed = 11\n[data]\nkind = "digits"\ntasks = 2\nclasses_per_task = 3\n'
                    f'[model]\nkind = "{zoo}:AvgPoolCNN"\n[train]\nepochs = 1\n[power]\nenabled = false\n')
    data_dir = write_shards(load_spec(spec), edgecl_home() / "cache").folder.name
    before = device.shell(["ls", device.storage_path("data"), device.storage_path("models")], check=False).stdout
    root = Path(__file__).resolve().parents[1]
    res = subprocess.run([sys.executable, "-m", "pipeline.cli.app", "run", str(spec), "--serial",
                          f"{device.serial}@{device.adb.server}", "--out", str(tmp_path / "results")],
                         capture_output=True, text=True, cwd=root, timeout=1200,
                         env={**os.environ, "PYTHONPATH": str(root), "COLUMNS": "400"})
    out = " ".join((res.stdout + res.stderr).split())
    assert res.returncode == 4 and "Traceback" not in out, out
    assert "aten::avg_pool2d_backward" in out and "layer 'pool' (AvgPool2d)" in out and "ops.txt" in out, out
    assert not (tmp_path / "results").exists() or not any((tmp_path / "results").iterdir())
    after = device.shell(["ls", device.storage_path("data"), device.storage_path("models")], check=False).stdout
    assert after == before and data_dir not in after


def test_doctor_finds_a_vphone_on_its_own_adb_server(edgecl_home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`edgecl vphone start` puts the phone on edgecl's vphone adb server; `doctor --serial` finds it there
    as `run` and `devices` do, with no server named in the environment."""
    monkeypatch.delenv("ADB_SERVER_SOCKET", raising=False)
    monkeypatch.delenv("ANDROID_ADB_SERVER_PORT", raising=False)
    server_before = running_server(edgecl_home)
    code, out = _cli(["vphone", "start"])
    serial = out.split()[-1] if out.split() else ""
    assert code == 0 and serial.startswith("127.0.0.1:"), out
    try:
        res = CliRunner().invoke(app, ["doctor", "--serial", serial, "--json"])
        found = json.loads(res.output)
        assert found["serial"] == serial and found["checks"][0]["verdict"] != "fail", found["checks"][0]
    finally:
        assert _cli(["vphone", "stop", serial])[0] == 0
        if server_before is None:
            stop_server(edgecl_home)
