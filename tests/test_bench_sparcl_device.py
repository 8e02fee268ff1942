"""bench/sparcl_device.py's section: each goal said met or not from the figure, per-layer rows and energy when measured."""
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[1] / "bench"


@pytest.fixture()
def device(monkeypatch):
    monkeypatch.syspath_prepend(str(BENCH))
    import sparcl_device

    yield sparcl_device
    for name in ("sparcl_device", "export_step", "native", "native_runner", "results_io"):
        sys.modules.pop(name, None)


def rows(device, step_u90: float, rss: float) -> list[dict]:
    out = [{"name": "m", "metric": m, "value": 1.0, "unit": "x", "goal": None} for m in
           ("runner_step_ms_dense", "forward_backward_ms_dense", "runner_step_vs_forward_backward_dense")]
    for s in device.SETTINGS:
        for metric, value, goal in (("runner_step_ms", 1.0, None), ("forward_backward_vs_dense", 1.0, None),
                                    ("step_vs_dense", step_u90 if s.key == "u90" else 1.0, device.GOAL_STEP.get(s.key)),
                                    ("runner_step_vs_forward_backward", 1.2, device.GOAL_OVERHEAD),
                                    ("peak_rss_vs_dense", rss, device.GOAL_RSS)):
            out.append({"name": f"m/{s.key}", "metric": metric, "value": value, "unit": "x", "goal": goal})
    return out


def test_goals_are_judged_from_the_figures(device) -> None:
    text = device.markdown("cmd", rows(device, 0.45, 0.7), "env", False, None)
    line = next(ln for ln in text.splitlines() if ln.startswith("| m | unstructured 0.9 |"))
    assert "0.450 (met)" in line and "1.200 (not met)" in line and "0.700 (not met)" in line
    assert "0.75 | 1.00 | 1.00 | 1.000 (no goal)" in text
    assert "not reported" in text and "Energy per task" not in text and "Floor" not in text


def test_per_layer_figures_and_energy_appear_when_measured(device) -> None:
    on = [{"name": "conv", "products": [{"role": "forward", "kernel": "sparse", "density": 0.1, "gflops_nonzero": 2.5,
                                         "in_place": True}]}]
    off = [{"name": "conv", "products": [{"role": "forward", "kernel": "dense", "density": 0.1, "seconds": 0.5,
                                          "dense_gflop": 4.0, "gflops_nonzero": 0.8}]}]
    extra = device.layer_rows("m", device.SETTINGS[1], on, off)
    assert [(r["metric"], r["value"]) for r in extra] == [("gflops_sparse_kernel_nonzero", 2.5), ("gflops_dense_kernel", 8.0)]
    energy = [{"name": f"energy/{k}", "metric": f"{what}_energy_per_task_j_simulated", "value": v * scale, "unit": "J",
               "goal": None}
              for what, scale in (("training", 1.0), ("session", 3.0)) for k, v in (("dense", 2.0), ("sparcl", 1.0))]
    energy += [{"name": "energy/sparcl_vs_dense", "metric": f"{what}_energy_per_task_ratio_simulated", "value": 0.5,
                "unit": "x", "goal": None} for what in ("training", "session")]
    energy += [{"name": "energy/sparcl", "metric": "ddr_fraction_removed", "value": 0.25, "unit": "", "goal": None}]
    arena = [{"name": "m", "metric": m, "value": v, "unit": "MB", "goal": None}
             for m, v in (("arena_mb_planned", 200.0), ("arena_mb_dense", 190.0), ("peak_rss_mb_dense", 250.0))]
    arena += [{"name": f"m/{s.key}", "metric": "arena_mb", "value": 80.0 + i, "unit": "MB", "goal": None}
              for i, s in enumerate(device.SETTINGS)]
    floor = [{"name": "m", "metric": "step_floor_vs_dense", "value": 0.38, "unit": "x", "goal": "diagnostic"}]
    text = device.markdown("cmd", rows(device, 0.45, 0.5) + extra + energy + arena + floor, "env", True, "spec.toml")
    assert "cost next to nothing): m 0.380." in text
    assert "| m | 200.0 | 190.0 | 80.0 | 81.0 | 82.0 | 83.0 | 250.0 |" in text
    assert "| m/u90/conv/forward | 0.100 | sparse, columns in place | 2.50 | 8.00 |" in text
    assert "SIMULATED" in text and "2.000 J vs 1.000 J per task, SparCL / dense 0.500" in text
    assert "whole session (loading, training, evaluation) 6.000 J vs 3.000 J, 0.500" in text
    assert "DDR's removal of 25% of each task's data" in text   # the run's own setting, not a typed figure
