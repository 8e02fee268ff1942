"""Seeded numeric tests of the reference trainer on real Split Digits (5 x 2, MLP)."""
from __future__ import annotations

import json

import numpy as np
import pytest
import torch

from pipeline.cl.methods import masked_cross_entropy
from pipeline.cl.policy import TrainingPolicy
from pipeline.cl.trainer import train_host
from pipeline.config import parse_spec


def digits_spec(method: str, **train) -> object:
    return parse_spec({"name": f"t-{method}", "seed": 0, "data": {"kind": "digits"},
                       "model": {"kind": "mlp"}, "train": {"method": method, "epochs": 2, **train}})


@pytest.fixture(scope="module")
def runs():
    return {m: train_host(digits_spec(m), progress=False) for m in ("finetune", "er", "derpp", "joint")}


def test_finetune_forgets_and_replay_remembers(runs):
    s = {m: r.summary for m, r in runs.items()}
    assert s["finetune"]["class_il"] < 25.0                       # only the last task survives
    assert s["finetune"]["forgetting_class_il"] > 85.0
    assert s["derpp"]["class_il"] > s["finetune"]["class_il"] + 30.0
    assert s["er"]["class_il"] > s["finetune"]["class_il"] + 30.0
    assert s["derpp"]["forgetting_class_il"] < s["finetune"]["forgetting_class_il"] - 50.0
    assert s["joint"]["class_il"] > 85.0 and s["joint"]["class_il"] > s["derpp"]["class_il"]
    for r in runs.values():
        assert r.summary["task_il"] > 85.0                        # 2-way task-IL is easy on digits
        assert np.isnan(r.class_il[0, 1]) and not np.isnan(r.class_il[4]).any()


def test_sample_counts_for_flops_accounting(runs):
    ft, der, jt = runs["finetune"].costs, runs["derpp"].costs, runs["joint"].costs
    n0 = ft[0].train_samples
    assert ft[0].forward_samples == ft[0].backward_samples == 2 * n0
    # DER++: the first step of the run has an empty buffer, every other step draws 2 x 32
    assert der[0].forward_samples == 2 * n0 + 2 * 32 * (der[0].steps - 1)
    assert der[1].forward_samples == 2 * der[1].train_samples + 2 * 32 * der[1].steps
    assert jt[2].train_samples == sum(c.train_samples for c in ft[:3])   # joint trains on the union


def test_same_seed_same_numbers_other_seed_differs(runs):
    a = runs["derpp"]
    b = train_host(digits_spec("derpp"), progress=False)
    assert np.array_equal(a.class_il, b.class_il, equal_nan=True)
    assert [c.forward_samples for c in a.costs] == [c.forward_samples for c in b.costs]
    spec = digits_spec("derpp")
    spec.seed = 1
    c = train_host(spec, progress=False)
    assert not np.array_equal(a.class_il, c.class_il, equal_nan=True)


def test_current_task_ce_switch_changes_the_loss(runs):
    logits = torch.tensor([[2.0, 0.0, 1.0, 3.0]])
    y = torch.tensor([2])
    full = torch.nn.functional.cross_entropy(logits, y)
    masked = masked_cross_entropy(logits, y, torch.tensor([2, 3]))
    assert masked.item() == pytest.approx(torch.nn.functional.cross_entropy(logits[:, 2:], torch.tensor([0])).item())
    assert masked.item() < full.item()
    on = runs["er"]                                                # the default: task logits only
    off = train_host(digits_spec("er", current_task_logits_only=False), progress=False)
    assert not np.array_equal(on.class_il, off.class_il, equal_nan=True)


class Recorder(TrainingPolicy):
    """Records hook order and prunes half the data, to check the trainer honours every hook."""

    name = "recorder"

    def __init__(self) -> None:
        self.calls: list[tuple] = []

    def on_task_start(self, info, model, n_samples):
        self.calls.append(("task_start", info.task, n_samples))

    def on_epoch_start(self, info, model):
        self.calls.append(("epoch_start", info.task, info.epoch))

    def select_data(self, info, indices):
        self.calls.append(("select", info.task, info.epoch))
        return indices[: len(indices) // 2]

    def observe_predictions(self, info, indices, correct):
        assert len(indices) == len(correct) and correct.dtype == bool
        self.calls.append(("pred", info.iteration))

    def after_backward(self, info, model):
        assert any(p.grad is not None and p.grad.abs().sum() > 0 for p in model.parameters())
        self.calls.append(("backward", info.iteration))

    def after_step(self, info, model):
        self.calls.append(("step", info.iteration))

    def on_task_end(self, info, model):
        self.calls.append(("task_end", info.task))


def test_policy_hooks_called_in_documented_order(tmp_path):
    spec = digits_spec("derpp")
    spec.data.tasks = 2
    rec = Recorder()
    result = train_host(spec, policy=rec, progress=False, out=tmp_path)
    kinds = [c[0] for c in rec.calls]
    assert kinds[:4] == ["task_start", "epoch_start", "select", "backward"]
    assert kinds[4:6] == ["step", "pred"] and kinds.count("task_end") == 2
    steps = [c[1] for c in rec.calls if c[0] == "step"]
    assert steps == list(range(len(steps))) and len(steps) == sum(c.steps for c in result.costs)
    # select_data halves each epoch: half the samples, rounded up to whole batches
    n0 = result.costs[0].train_samples
    assert result.costs[0].steps == 2 * -(-(n0 // 2) // 32)
    data = json.loads((tmp_path / "result.json").read_text())
    assert data["method"] == "derpp" and len(data["accuracy_class_il"]) == 2
    assert (tmp_path / "accuracy_task_il.csv").read_text().startswith("after_task,task0,task1")
    assert (tmp_path / "tasks.csv").read_text().splitlines()[0].startswith("task,train_samples")


def test_derpp_without_logit_term_is_er_exactly():
    """DER++ with alpha = 0 and beta = 1 draws and weighs exactly like ER (task-only current CE):
    the same seed must give the same numbers, step for step."""
    def spec(method, **kw):
        s = digits_spec(method, epochs=1, **kw)
        s.data.tasks = 3
        return s

    er = train_host(spec("er"), progress=False)
    der = train_host(spec("derpp", alpha=0.0, beta=1.0), progress=False)
    assert np.array_equal(er.class_il, der.class_il, equal_nan=True)
    assert [c.mean_loss for c in er.costs] == pytest.approx([c.mean_loss for c in der.costs], rel=1e-6)
