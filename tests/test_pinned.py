"""Pinned seeded numbers (not thresholds) of every CL method and SparCL part on the host trainer, so a
change to the semantics, the engine or the data changes a number here and fails.

The setting is small on purpose (Split Digits 3 x 2, 60 training samples per class, MLP 2x32, 4 epochs,
EM 40 with swap 0.25, full-logit CE): the numbers are what one seed of the documented semantics gives,
not a claim about accuracy. Regenerate them only for a change that is meant to change results, and say
so in the commit.
"""
from __future__ import annotations

import pytest

from pipeline.cl.trainer import HostTrainer
from pipeline.config import ExperimentSpec, parse_spec


def pinned_spec(method: str, sparcl: dict | None = None) -> ExperimentSpec:
    return parse_spec({
        "name": "pinned", "seed": 1,
        "data": {"kind": "digits", "tasks": 3, "classes_per_task": 2, "max_train_per_class": 60, "max_test_per_class": 40},
        "model": {"kind": "mlp", "hidden": [32, 32]},
        "train": {"method": method, "epochs": 4, "batch_size": 16, "lr": 0.05, "current_task_logits_only": False},
        "replay": {"em_size": 40, "sb_size": 120, "swap_ratio": 0.25},
        "sparcl": {"enabled": sparcl is not None, "sparsity": 0.75, "tdm_update_every": 0.25, "ddr_steps": [0.25, 0.5],
                   "dgm_period": 5, **(sparcl or {})}}, source="test_pinned")


ONLY = {"tdm": {"ddr": False, "dgm": False}, "ddr": {"tdm": False, "dgm": False}, "dgm": {"tdm": False, "ddr": False},
        "ddr_random": {"tdm": False, "dgm": False, "ddr_select": "random"}, "sparcl": {}}
DENSE, QUARTER = {"features.1.weight": 1.0, "features.4.weight": 1.0}, {"features.1.weight": 0.25, "features.4.weight": 0.25}
PINNED = {  # final class-IL row (%), DDR removed per task, final weight-mask density, steps per task, mean loss per task
    "finetune": ([0.0, 0.0, 98.75], [0, 0, 0], DENSE, [32, 32, 32], [0.7997587, 1.0708489, 1.0536146]),
    "er": ([77.5, 12.5, 98.75], [0, 0, 0], DENSE, [32, 40, 40], [0.7997587, 1.069378, 1.2212679]),
    "derpp": ([43.75, 0.0, 98.75], [0, 0, 0], DENSE, [32, 40, 40], [0.7997587, 1.0895998, 1.1855637]),
    "joint": ([98.75, 96.25, 95.0], [0, 0, 0], DENSE, [32, 60, 92], [0.7997587, 0.781645, 0.6788879]),
    "tdm": ([0.0, 0.0, 91.25], [0, 0, 0], QUARTER, [32, 40, 40], [1.5067054, 1.5143698, 1.6917318]),
    "ddr": ([47.5, 0.0, 93.75], [36, 36, 36], DENSE, [27, 35, 35], [0.9356454, 1.1641534, 1.2884228]),
    "ddr_random": ([50.0, 0.0, 98.75], [36, 36, 36], DENSE, [27, 35, 35], [0.9346581, 1.1520485, 1.2767147]),
    "dgm": ([43.75, 0.0, 98.75], [0, 0, 0], DENSE, [32, 40, 40], [0.8022667, 1.0913926, 1.1870082]),
    "sparcl": ([0.0, 0.0, 90.0], [36, 36, 36], QUARTER, [27, 35, 35], [1.619394, 1.5764962, 1.7727999]),
}


@pytest.mark.parametrize("case", sorted(PINNED))
def test_pinned_numbers(case: str) -> None:
    spec = pinned_spec(case, None) if case not in ONLY else pinned_spec("derpp", ONLY[case])
    trainer = HostTrainer(spec, progress=False)
    result = trainer.run()
    class_il, removed, density, steps, losses = PINNED[case]
    assert [round(float(v), 4) for v in result.class_il[-1]] == class_il
    assert [c.removed for c in result.costs] == removed
    assert {n: round(float(m.mean()), 6) for n, m in trainer.backend.masks.items()} == density
    assert [c.steps for c in result.costs] == steps
    assert [c.mean_loss for c in result.costs] == pytest.approx(losses, rel=1e-6, abs=0)
