"""Sessions on a STOCK phone (no Python on it): `edgecl run` deploys the native runner for the phone's ABI
(arm64-v8a: the static aarch64 build, run by the virtual phone under qemu like a phone runs it) and its
trace equals the host trainer's, for Split Digits and a reduced Split Fashion-MNIST (2 tasks, 2 epochs), both
with SparCL; an ONNX Runtime session is refused before anything is pushed."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from android_harness.android_device import AndroidDevice
from pipeline.config import ExperimentSpec, parse_spec
from pipeline.errors import SessionError
from pipeline.experiment import run_experiment
from tests._host_conformance import assert_conforms_to_host, run_sessions


def split_digits(runtime: str) -> ExperimentSpec:
    return parse_spec({"name": "split-digits-native", "seed": 0,
                       "data": {"kind": "digits", "tasks": 5, "classes_per_task": 2, "max_train_per_class": 60},
                       "model": {"kind": "mlp", "hidden": [100, 100]},
                       "train": {"method": "derpp", "epochs": 3, "batch_size": 32, "lr": 0.05},
                       "replay": {"em_size": 200, "sb_size": 400, "swap_ratio": 0.5},
                       "sparcl": {"enabled": True, "sparsity": 0.75, "tdm_update_every": 0.34, "ddr_steps": [0.34, 0.67],
                                  "dgm_period": 5},
                       "export": {"runtime": runtime}, "device": {"trace": True}, "power": {"enabled": False}})


def split_fashion_mnist() -> ExperimentSpec:
    """Split Fashion-MNIST with SparCL, reduced to 2 tasks and 2 epochs (Debian's dataset-fashion-mnist)."""
    return parse_spec({"name": "split-fashion-native", "seed": 0,
                       "data": {"kind": "fashion_mnist", "tasks": 2, "classes_per_task": 2, "max_train_per_class": 80,
                                "max_test_per_class": 50},
                       "model": {"kind": "mlp", "hidden": [64]},
                       "train": {"method": "derpp", "epochs": 2, "batch_size": 32, "lr": 0.05},
                       "replay": {"em_size": 64, "sb_size": 160, "swap_ratio": 0.5},
                       "sparcl": {"enabled": True, "sparsity": 0.75, "tdm_update_every": 0.5, "ddr_steps": [0.5],
                                  "dgm_period": 5},
                       "export": {"runtime": "executorch"}, "device": {"trace": True}, "power": {"enabled": False}})


def assert_native_run_completed(folder: Path, tasks: int) -> None:
    env = json.loads((folder / "env.json").read_text())
    sessions = run_sessions(folder)
    assert env["runner"] == "native" and len(sessions) == tasks
    assert all(json.loads((s / "result.json").read_text())["status"] == "ok" for s in sessions)


def test_the_phone_has_no_python(device: AndroidDevice) -> None:
    if not device.profile.simulated:
        pytest.skip("a real phone may have Termux")
    out = device.shell("command -v python3 || command -v python || echo none", check=False).stdout.strip()
    assert out == "none" and device.profile.python_cmd is None


def test_stock_phone_runs_sparcl_natively_and_conforms_to_the_host(device: AndroidDevice, tmp_path: Path) -> None:
    spec = split_digits("executorch")
    folder = run_experiment(spec, device, tmp_path, progress=False)
    assert_native_run_completed(folder, tasks=5)
    assert_conforms_to_host(spec, folder, tmp_path / "host")


def test_stock_phone_runs_split_fashion_mnist_with_sparcl_natively(device: AndroidDevice, tmp_path: Path) -> None:
    spec = split_fashion_mnist()
    folder = run_experiment(spec, device, tmp_path, progress=False)
    assert_native_run_completed(folder, tasks=2)
    assert_conforms_to_host(spec, folder, tmp_path / "host")


def test_ort_on_a_phone_without_python_is_refused_before_any_push(device: AndroidDevice, tmp_path: Path) -> None:
    if device.profile.python_cmd:
        pytest.skip("this phone has Python: ORT sessions run there")
    before = device.shell(f"ls {device.storage_path('models')} 2>/dev/null | wc -l", check=False).stdout.strip()
    with pytest.raises(SessionError, match="has no Python: use export.runtime = 'executorch'") as err:
        run_experiment(split_digits("ort"), device, tmp_path, progress=False)
    assert err.value.phase == "precheck"
    assert device.shell(f"ls {device.storage_path('models')} 2>/dev/null | wc -l", check=False).stdout.strip() == before
