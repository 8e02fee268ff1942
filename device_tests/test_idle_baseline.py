"""A run's idle baseline (``power.idle_seconds``, the demo's 1 s) is measured on battery: after the run's
unplug the fuel gauge reports the charger for up to one refresh, and a baseline taken in that window
would be all "charging" and unusable. On a virtual phone whose gauge refreshes every 2.5 s, so the whole
second after the unplug's settle falls in that window unless the run waits for the gauge."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from android_harness import vphone
from android_harness.adb import Adb
from android_harness.adb_server import ServerAddress
from android_harness.android_device import AndroidDevice
from android_harness.vphone.presets import DEFAULT_PRESET
from pipeline.config import parse_spec
from pipeline.energy import idle_baseline
from pipeline.experiment import run_experiment


@pytest.mark.skipif(bool(os.environ.get("ANDROID_SERIAL")), reason="starts its own virtual phone")
def test_a_one_second_idle_baseline_is_measured_on_battery(tmp_path: Path, adb_server: ServerAddress,
                                                           edgecl_home: Path) -> None:
    info = vphone.start(preset=DEFAULT_PRESET, server=adb_server, base=edgecl_home, home=tmp_path / "phone",
                        overrides={"gauge_period_s": 2.5})
    try:
        device = AndroidDevice(Adb(info.serial, adb_server))
        spec = parse_spec({"name": "idle", "seed": 1, "data": {"kind": "digits", "tasks": 1, "classes_per_task": 2},
                           "model": {"kind": "mlp", "hidden": [16]},
                           "train": {"method": "er", "epochs": 1, "batch_size": 16, "lr": 0.05},
                           "replay": {"em_size": 20, "sb_size": 40, "swap_ratio": 0.0},
                           "power": {"rate_hz": 10, "idle_seconds": 1.0}})
        folder = run_experiment(spec, device, tmp_path / "results", progress=False)
        baseline = idle_baseline(folder / "idle", device.profile)
        assert baseline.power_w > 0
    finally:
        vphone.stop(info, adb_server, base=edgecl_home)
