"""The host trainer = the engine on torch eager, one session per task: every CL method, costs, FLOPs, files."""
from __future__ import annotations

import copy
import json

import numpy as np
import pytest
import torch
from torch import nn

from models import ModelArgs, build_model
from pipeline.cl.trainer import HostTrainer, train_host
from pipeline.config import parse_spec
from pipeline.export.structured import prune_channels
from pipeline.sparcl.flops import layer_flops


def digits_spec(method: str, tasks: int = 5, **train) -> object:
    return parse_spec({"name": f"t-{method}", "seed": 0, "data": {"kind": "digits", "tasks": tasks},
                       "model": {"kind": "mlp"}, "train": {"method": method, "epochs": 3, "lr": 0.05, **train},
                       "replay": {"em_size": 200, "sb_size": 400}})


@pytest.fixture(scope="module")
def runs():
    return {m: train_host(digits_spec(m), progress=False) for m in ("finetune", "er", "derpp", "joint")}


def test_finetune_forgets_and_replay_remembers(runs):
    s = {m: r.summary for m, r in runs.items()}
    assert s["finetune"]["class_il"] < 25.0                       # only the last task survives
    assert s["finetune"]["forgetting_class_il"] > 85.0
    assert s["derpp"]["class_il"] > s["finetune"]["class_il"] + 30.0
    assert s["er"]["class_il"] > s["finetune"]["class_il"] + 30.0
    assert s["derpp"]["forgetting_class_il"] < s["finetune"]["forgetting_class_il"] - 40.0
    assert s["joint"]["class_il"] > 85.0 and s["joint"]["class_il"] > s["derpp"]["class_il"]
    for r in runs.values():
        assert r.summary["task_il"] > 85.0                        # 2-way task-IL is easy on digits
        assert np.isnan(r.class_il[0, 1]) and not np.isnan(r.class_il[4]).any()


def test_epochs_are_em_union_sb_and_joint_trains_the_union(runs):
    ft, er, jt = runs["finetune"].costs, runs["er"].costs, runs["joint"].costs
    b = 32
    for c in ft:
        assert c.steps == 3 * -(-c.train_samples // b) and c.samples == c.steps * b
    seen = 0
    for c in er:                                                  # EM = min(em_size, everything stored so far)
        assert c.steps == 3 * -(-(c.train_samples + min(200, seen)) // b)
        seen += c.train_samples
    assert jt[2].train_samples == sum(c.train_samples for c in ft[:3])


def test_same_seed_same_numbers_other_seed_differs(runs):
    a = runs["derpp"]
    b = train_host(digits_spec("derpp"), progress=False)
    assert np.array_equal(a.class_il, b.class_il, equal_nan=True)
    assert [c.mean_loss for c in a.costs] == [c.mean_loss for c in b.costs]
    spec = digits_spec("derpp")
    spec.seed = 1
    assert not np.array_equal(a.class_il, train_host(spec, progress=False).class_il, equal_nan=True)


def test_current_task_ce_switch_changes_the_run(runs):
    on = train_host(digits_spec("er", current_task_logits_only=True), progress=False)   # the default is off
    assert not np.array_equal(runs["er"].class_il, on.class_il, equal_nan=True)


def test_derpp_without_logit_term_is_er_exactly():
    """DER++ with alpha = 0, beta = 1 weighs every row exactly like ER: bit-identical numbers."""
    er = train_host(digits_spec("er", tasks=3), progress=False)
    der = train_host(digits_spec("derpp", tasks=3, alpha=0.0, beta=1.0), progress=False)
    assert np.array_equal(er.class_il, der.class_il, equal_nan=True)
    assert [c.mean_loss for c in er.costs] == [c.mean_loss for c in der.costs]


def test_result_files(tmp_path):
    result = train_host(digits_spec("derpp", tasks=2), progress=False, out=tmp_path)
    data = json.loads((tmp_path / "result.json").read_text())
    assert data["method"] == "derpp" and len(data["accuracy_class_il"]) == 2
    assert data["extra"]["runtime"] == "torch" and data["extra"]["training_flops"]["total"] == result.extra["training_flops"]["total"]
    assert (tmp_path / "accuracy_task_il.csv").read_text().startswith("after_task,task0,task1")
    assert (tmp_path / "tasks.csv").read_text().splitlines()[0].startswith("task,train_samples,steps,samples,removed")


def test_layer_flops_hand_count():
    class Tiny(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv = nn.Conv2d(1, 4, 3, padding=1, bias=False)   # out 4x8x8
            self.down = nn.Conv2d(4, 6, 3, stride=2, padding=1)     # out 6x4x4
            self.fc = nn.Linear(6 * 4 * 4, 3)

        def forward(self, x):
            return self.fc(self.down(self.conv(x)).flatten(1))

    assert layer_flops(Tiny(), (1, 8, 8)) == {"conv": 2 * 256 * 9, "down": 2 * 96 * 36, "fc": 2 * 3 * 96}
    mlp = build_model("mlp", ModelArgs(input_shape=(64,), num_classes=10))
    assert layer_flops(mlp, (64,)) == {"features.1": 2 * 6400, "features.4": 2 * 10000, "classifier": 2 * 1000}


def test_training_flops_count_sparse_steps_by_hand():
    """One-epoch tasks go straight to the target masks; DGM (period 1000) keeps its first masks."""
    table = {"seed": 0, "data": {"kind": "digits", "tasks": 2, "max_train_per_class": 40},
             "model": {"kind": "mlp", "hidden": [10, 10]}, "train": {"method": "finetune", "epochs": 1, "batch_size": 16},
             "sparcl": {"enabled": True, "sparsity": 0.75, "ddr": False, "dgm_ratio": 0.5, "dgm_period": 1000}}
    sparse = train_host(parse_spec(table), progress=False)
    # features.1: 64x10 = 640 w, keeps 160; features.4: 10x10 = 100 w, keeps 25; grads keep 80 and 13;
    # the classifier (10x10) is dense
    f1, f2, head = 2 * 640, 2 * 100, 2 * 100
    fwd = 160 / 640 * f1 + 25 / 100 * f2 + head
    bwd = fwd + (80 / 640 * f1 + 13 / 100 * f2 + head)
    flops = sparse.extra["training_flops"]
    steps = sum(c.steps for c in sparse.costs)
    assert flops["samples"] == 16 * steps and flops["total"] == pytest.approx(16 * steps * (fwd + bwd))
    dense = train_host(parse_spec({**table, "sparcl": {"enabled": False}}), progress=False).extra["training_flops"]
    assert dense["total"] == pytest.approx(16 * steps * 3 * (f1 + f2 + head))


def test_structured_sparcl_keeps_whole_channels_that_slice_into_an_equivalent_model(tmp_path):
    spec = parse_spec({"seed": 0, "data": {"kind": "digits", "tasks": 2, "max_train_per_class": 40},
                       "model": {"kind": "mlp", "hidden": [40, 30]}, "train": {"method": "er", "epochs": 3},
                       "replay": {"em_size": 40}, "sparcl": {"enabled": True, "sparsity": 0.75, "structured": True}})
    trainer = HostTrainer(spec, progress=False)
    trainer.run()
    masks, params = trainer.backend.masks, trainer.backend.params()
    channels = {n.rsplit(".", 1)[0]: m.reshape(m.shape[0], -1)[:, 0] > 0 for n, m in masks.items()}
    assert all((m == m.reshape(m.shape[0], -1)[:, :1]).all() for m in masks.values())          # whole channels
    assert {k: int(v.sum()) for k, v in channels.items()} == {"features.1": 10, "features.4": 8}
    model = build_model("mlp", ModelArgs((1, 8, 8), 10, hidden=(40, 30)))
    model.load_state_dict({k: torch.from_numpy(v) for k, v in params.items()})
    sliced, _, _ = prune_channels(copy.deepcopy(model), channels, {}, (1, 8, 8))
    x = torch.randn(7, 1, 8, 8)
    with torch.no_grad():
        assert torch.allclose(sliced(x), model(x), atol=1e-5)      # the same function, physically smaller
    assert sliced.features[1].weight.shape == (10, 64) and sliced.features[4].weight.shape == (8, 10)
