"""SparCL inside the real host trainer (Split Digits, tiny and seeded): masks, DDR, FLOPs, checkpoints."""
from __future__ import annotations

import numpy as np
import pytest

from pipeline.cl.policy import PolicyStack
from pipeline.cl.trainer import HostTrainer
from pipeline.config import parse_spec
from pipeline.sparcl.policies import build_sparcl_policy, masks_by_layer
from pipeline.sparcl.training_flops import FlopsPolicy


def _spec(method: str, structured: bool, enabled: bool = True):
    return parse_spec({
        "seed": 0, "data": {"kind": "digits", "tasks": 2, "max_train_per_class": 40, "max_test_per_class": 20},
        "model": {"kind": "mlp", "hidden": [32, 32]},
        "train": {"method": method, "epochs": 5, "buffer_size": 40, "batch_size": 16, "buffer_batch_size": 16},
        "sparcl": {"enabled": enabled, "sparsity": 0.9, "structured": structured, "dgm_period": 3},
    })


@pytest.mark.parametrize(("method", "structured"), [("derpp", False), ("er", True)])
def test_sparcl_in_host_trainer(method, structured):
    spec = _spec(method, structured)
    sparcl = build_sparcl_policy(spec)
    flops = FlopsPolicy(sparcl)
    trainer = HostTrainer(spec, PolicyStack([sparcl, flops]), progress=False)
    result = trainer.run()
    modules = dict(trainer.model.named_modules())
    masks = masks_by_layer(sparcl)
    assert set(masks) == set(trainer.model.maskable)
    for name, mask in masks.items():
        w = modules[name].weight.detach().numpy()
        assert np.all(w[mask == 0] == 0.0)
        units = w.shape[0] if structured else w.size
        assert mask.mean() == pytest.approx(max(1, round(0.1 * units)) / units)
    # DDR: 30% of each task's 80 samples removed at epochs 1..2 (points 0.1..0.4 of 5 epochs -> 1, 1, 2, 2)
    assert [(e["task"], e["epoch"], e["removed"]) for e in sparcl.ddr.log] == [(0, 1, 12), (0, 2, 12), (1, 1, 12), (1, 2, 12)]
    # FLOPs: every training forward counted (current after DDR + every buffer draw), evaluation excluded
    assert flops.counter.samples == sum(c.forward_samples for c in result.costs)
    dense = FlopsPolicy()
    dense_result = HostTrainer(_spec(method, structured, enabled=False), dense, progress=False).run()
    per_sample_dense = dense.total / dense.counter.samples
    assert per_sample_dense == pytest.approx(3 * dense.counter.dense_forward)
    assert flops.total / flops.counter.samples < 0.5 * per_sample_dense
    assert np.isfinite(dense_result.class_il[-1, :]).all()


def test_checkpoint_state_restores_masks_into_fresh_policy():
    spec = _spec("derpp", False)
    sparcl = build_sparcl_policy(spec)
    trainer = HostTrainer(spec, sparcl, progress=False)
    trainer.run()
    state = sparcl.state_dict()
    again = build_sparcl_policy(spec)                      # unbound: masks load when the model appears
    again.load_state_dict(state)
    again.tdm.bind(trainer.model)
    for name, mask in masks_by_layer(sparcl).items():
        assert np.array_equal(mask, masks_by_layer(again)[name])
    assert np.array_equal(again.ddr.removed_indices(), sparcl.ddr.removed_indices())
