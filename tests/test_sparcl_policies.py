"""SparCL's torch glue: policies on real models, driven through the TrainingPolicy hooks (seeded)."""
from __future__ import annotations

import copy

import numpy as np
import pytest
import torch
from torch import nn

from models import ModelArgs, build_model
from pipeline.cl.policy import PolicyStack, StepInfo
from pipeline.config import parse_spec
from pipeline.export.structured import prune_channels
from pipeline.sparcl.core import TdmEvent
from pipeline.sparcl.policies import (
    DDRPolicy, DGMPolicy, SparclPolicy, TDMPolicy, build_sparcl_policy, channel_masks_by_layer, masks_by_layer,
    removed_samples, select_layers,
)
from pipeline.sparcl.training_flops import FlopsPolicy, layer_flops


def _spec(**sparcl):
    return parse_spec({"seed": 0, "model": {"kind": "small_cnn"}, "sparcl": {"enabled": True, **sparcl}})


def _model(kind="small_cnn", shape=(1, 8, 8)):
    torch.manual_seed(0)
    return build_model(kind, ModelArgs(input_shape=shape, num_classes=4))


def _run(model, policy, epochs=4, n=64, batch=16, tasks=1, seed=0, shape=(1, 8, 8)):
    """Drive the hooks in the order the host trainer calls them (SGD, CE on random data)."""
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, *shape, generator=g)
    y = torch.randint(0, 4, (n,), generator=g)
    opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9, weight_decay=1e-3)
    it = 0
    seen = []
    for task in range(tasks):
        info = StepInfo(task=task, epoch=0, epochs=epochs, iteration=it)
        policy.on_task_start(info, model, n)
        for epoch in range(epochs):
            info = StepInfo(task=task, epoch=epoch, epochs=epochs, iteration=it)
            policy.on_epoch_start(info, model)
            idx = policy.select_data(info, np.arange(n))
            seen.append(idx.copy())
            for start in range(0, len(idx), batch):
                b = torch.as_tensor(idx[start:start + batch])
                info = StepInfo(task=task, epoch=epoch, epochs=epochs, iteration=it)
                opt.zero_grad()
                out = model(x[b])
                nn.functional.cross_entropy(out, y[b]).backward()
                policy.observe_predictions(info, b.numpy(), (out.argmax(1) == y[b]).numpy())
                policy.after_backward(info, model)
                opt.step()
                policy.after_step(info, model)
                with torch.no_grad():
                    model.eval()
                    model(x[:5])                                # an eval forward: not training FLOPs
                    model.train()
                it += 1
        policy.on_task_end(info, model)
    return seen


@pytest.mark.parametrize("structured", [False, True])
def test_masked_weights_stay_exactly_zero_and_hit_sparsity(structured):
    model = _model()
    policy = build_sparcl_policy(_spec(sparsity=0.75, structured=structured, ddr=False), model)
    _run(model, policy, epochs=5, tasks=2)
    modules = dict(model.named_modules())
    masks = masks_by_layer(policy)
    assert set(masks) == set(model.maskable)
    for name, mask in masks.items():
        w = modules[name].weight.detach().numpy()
        assert mask.shape == w.shape
        assert np.all(w[mask == 0] == 0.0)                      # exactly zero despite momentum/decay
        assert np.count_nonzero(w) <= mask.sum()
        units = w.shape[0] if structured else w.size
        assert mask.mean() == pytest.approx(round(0.25 * units) / units)   # frozen at the target after the final drop


def test_tdm_density_trace_follows_schedule():
    model = _model()
    tdm = TDMPolicy(model, select_layers(model), 0.9, update_every=0.2, swap=0.05, freeze_after=0.8)
    _run(model, tdm, epochs=5, tasks=2)
    kinds = [(e["task"], e["epoch"], e["kind"]) for e in tdm.log]
    assert kinds == [(t, e, k) for t in (0, 1) for e, k in ((0, "expand"), (1, "swap"), (2, "swap"), (3, "swap"), (4, "final"))]
    sizes = {n: m.weight.numel() for n, m in model.named_modules() if n in model.maskable}
    for entry in tdm.log:
        target = 0.15 if entry["kind"] == "expand" else 0.10
        for name, d in entry["densities"].items():
            assert d == pytest.approx(round(target * sizes[name]) / sizes[name])


def test_ddr_removes_right_count_at_right_epochs_and_never_again():
    model = _model()
    ddr = DDRPolicy(0.3, [0.1, 0.2, 0.3, 0.4])
    seen = _run(model, ddr, epochs=10, n=80, tasks=2)
    assert [(e["task"], e["epoch"], e["removed"]) for e in ddr.log] == [
        (t, e, 6) for t in (0, 1) for e in (1, 2, 3, 4)
    ]
    per_task = [seen[:10], seen[10:]]
    for epochs in per_task:
        assert [len(s) for s in epochs] == [80, 74, 68, 62, 56, 56, 56, 56, 56, 56]
        removed = set()
        for before, after in zip(epochs, epochs[1:]):
            removed |= set(before) - set(after)
            assert not removed & set(after)                     # never offered again
    assert len(removed_samples(ddr)) == 24
    assert ddr.is_removed(removed_samples(ddr)).all()


def test_dgm_zeroes_intended_fraction_of_surviving_grads():
    model = _model()
    layers = select_layers(model)
    tdm = TDMPolicy(model, layers, 0.9)
    dgm = DGMPolicy(model, layers, ratio=0.3, period=5, tdm=tdm)
    stack = SparclPolicy(tdm, None, dgm)
    info = StepInfo(task=0, epoch=0, epochs=5, iteration=0)
    stack.on_task_start(info, model, 16)
    stack.on_epoch_start(info, model)
    out = model(torch.randn(16, 1, 8, 8))
    out.sum().backward()
    stack.after_backward(info, model)
    modules = dict(model.named_modules())
    for name in layers:
        wm = tdm.weight_masks()[name]
        grad = modules[name].weight.grad.numpy()
        gm = dgm.masker.masks[name]
        alive = int(wm.sum())
        assert gm.sum() == alive - round(0.3 * alive) and np.all(gm[wm == 0] == 0)
        assert np.all(grad[gm == 0] == 0)                       # masked gradients are exactly zero
        assert np.count_nonzero(grad) > 0
        assert stack.grad_density()[name] == pytest.approx((alive - round(0.3 * alive)) / wm.size)


def test_layer_flops_hand_count():
    class Tiny(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv = nn.Conv2d(1, 4, 3, padding=1, bias=False)   # out 4x8x8
            self.down = nn.Conv2d(4, 6, 3, stride=2, padding=1)     # out 6x4x4
            self.fc = nn.Linear(6 * 4 * 4, 3)

        def forward(self, x):
            return self.fc(self.down(self.conv(x)).flatten(1))

    f = layer_flops(Tiny(), (1, 8, 8))
    assert f == {"conv": 2 * 256 * 9, "down": 2 * 96 * 36, "fc": 2 * 3 * 96}
    mlp = build_model("mlp", ModelArgs(input_shape=(64,), num_classes=10))
    assert layer_flops(mlp, (64,)) == {"features.1": 2 * 6400, "features.4": 2 * 10000, "classifier": 2 * 1000}


def test_training_flops_counts_sparse_steps_by_hand():
    torch.manual_seed(0)
    model = build_model("mlp", ModelArgs(input_shape=(1, 8, 8), num_classes=4, hidden=(10, 10)))
    spec = parse_spec({"model": {"kind": "mlp"}, "sparcl": {"enabled": True, "sparsity": 0.75, "ddr": False,
                                                            "dgm_ratio": 0.5, "dgm_period": 100}})
    sparcl = build_sparcl_policy(spec)                           # layers bound at the first hook
    flops = FlopsPolicy(sparcl)
    _run(model, PolicyStack([sparcl, flops]), epochs=1, n=32, batch=16)   # one-epoch task: straight to the target
    # features.1: 64x10 = 640 w, keeps 160; features.4: 10x10 = 100 w, keeps 25; grads keep half of those
    F1, F2, H = 2 * 640, 2 * 100, 2 * 40
    fwd = 160 / 640 * F1 + 25 / 100 * F2 + H
    bwd = fwd + (80 / 640 * F1 + 13 / 100 * F2 + H)        # round(0.5 * 25) = 12 masked -> 13 kept
    assert flops.counter.samples == 32 and flops.counter.steps == 2
    assert flops.total == pytest.approx(32 * (fwd + bwd))
    dense = FlopsPolicy()
    _run(model, dense, epochs=2, n=32, batch=16)
    assert dense.total == pytest.approx(64 * 3 * (F1 + F2 + H)) and dense.per_task == [dense.total]
    assert not model._forward_pre_hooks                         # detached at task end


def test_state_round_trip_resumes_identically():
    spec = _spec(sparsity=0.9, ddr_steps=[0.2, 0.4])
    a_model = _model()
    a = build_sparcl_policy(spec, a_model)
    _run(a_model, a, epochs=5, tasks=1)
    state = a.state_dict()
    assert set(state) == {"tdm", "ddr", "dgm"}
    b_model = _model()
    b_model.load_state_dict(a_model.state_dict())
    b = build_sparcl_policy(spec, b_model)
    b.load_state_dict(state)
    for name, m in masks_by_layer(a).items():
        assert np.array_equal(m, masks_by_layer(b)[name])
    assert np.array_equal(removed_samples(a), removed_samples(b))
    info = StepInfo(task=0, epoch=4, epochs=5, iteration=100)
    for p, model in ((a, a_model), (b, b_model)):
        p.tdm.events = {4: TdmEvent(4, "swap", 0.92, 0.9)}      # force one more drop+grow after resuming
        p.tdm.frozen = False
        p.on_epoch_start(info, model)
    for name, m in masks_by_layer(a).items():
        assert np.array_equal(m, masks_by_layer(b)[name])     # same rng, same grads -> same swap


def test_build_policy_respects_switches_and_bad_layers():
    model = _model()
    assert build_sparcl_policy(parse_spec({}), model) is None
    p = build_sparcl_policy(_spec(tdm=False, dgm=False), model)
    assert [q.name for q in p.policies] == ["ddr"]
    p = build_sparcl_policy(_spec(layers=r"features\.4"), model)
    assert list(masks_by_layer(p)) == []                          # masks exist only once a task starts
    p.on_task_start(StepInfo(0, 0, 3, 0), model, 10)
    assert list(masks_by_layer(p)) == ["features.4"]
    from pipeline.errors import ConfigError
    with pytest.raises(ConfigError, match="selects no"):
        build_sparcl_policy(_spec(layers="nothing_here"), model)


def test_structured_masks_slice_into_an_equivalent_smaller_model():
    torch.manual_seed(0)
    model = build_model("mlp", ModelArgs(input_shape=(1, 8, 8), num_classes=4, hidden=(40, 30)))
    policy = build_sparcl_policy(_spec(sparsity=0.75, structured=True, ddr=False), model)
    _run(model, policy, epochs=3)
    channels = channel_masks_by_layer(policy)
    assert {k: int(v.sum()) for k, v in channels.items()} == {"features.1": 10, "features.4": 8}
    sliced, kept, _ = prune_channels(copy.deepcopy(model), channels, {}, (1, 8, 8))
    x = torch.randn(7, 1, 8, 8)
    with torch.no_grad():
        assert torch.allclose(sliced(x), model(x), atol=1e-5)      # same function, physically smaller
    assert sliced.features[1].weight.shape == (10, 64) and sliced.features[4].weight.shape == (8, 10)
    unstructured = build_sparcl_policy(_spec(ddr=False), _model())
    assert channel_masks_by_layer(unstructured) == {}


def test_tdm_keeps_the_last_batch_gradient_unmasked_for_the_drop_score():
    model = _model()
    tdm = TDMPolicy(model, select_layers(model), 0.75)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    x, y = torch.randn(48, 1, 8, 8), torch.randint(0, 4, (48,))
    info = StepInfo(task=0, epoch=0, epochs=5, iteration=0, iters_per_epoch=3)
    tdm.on_task_start(info, model, 48)
    tdm.on_epoch_start(info, model)
    for step in range(3):
        opt.zero_grad()
        nn.functional.cross_entropy(model(x[16 * step:16 * step + 16]), y[16 * step:16 * step + 16]).backward()
        raw = {n: m.weight.grad.clone() for n, m in model.named_modules() if n in tdm.layers}
        tdm.after_backward(info, model)
        opt.step()
        tdm.after_step(info, model)
    for name, g in raw.items():
        assert np.array_equal(tdm.prev_grads[name], g.numpy())     # the last batch's, before grad masking


def test_checkpoint_for_another_model_is_a_clear_error():
    from pipeline.errors import DataError

    a = build_sparcl_policy(_spec(ddr=False), _model())
    a.on_task_start(StepInfo(0, 0, 3, 0), _model(), 10)
    wide = build_model("small_cnn", ModelArgs(input_shape=(1, 8, 8), num_classes=4, width=8))
    b = build_sparcl_policy(_spec(ddr=False), wide)
    with pytest.raises(DataError, match="does not fit"):
        b.load_state_dict(a.state_dict())


@pytest.mark.parametrize("rescale", [False, True])
def test_tdm_init_rescale_restores_unit_norms_once(rescale):
    model = _model("mlp")
    dense = {n: m.weight.detach().clone() for n, m in model.named_modules() if n in model.maskable}
    policy = build_sparcl_policy(_spec(sparsity=0.9, ddr=False, dgm=False, tdm_init_rescale=rescale), model)
    policy.on_task_start(StepInfo(task=0, epoch=0, epochs=5, iteration=0), model, 16)
    modules = dict(model.named_modules())
    for name, mask in masks_by_layer(policy).items():
        w = modules[name].weight.detach()
        assert torch.all(w[torch.from_numpy(mask) == 0] == 0)
        kept = (dense[name] * torch.from_numpy(mask)).norm(dim=1)
        expected = dense[name].norm(dim=1) if rescale else kept
        assert torch.allclose(w.norm(dim=1), expected, rtol=1e-5)
    before = {n: modules[n].weight.detach().clone() for n in dense}
    policy.on_task_start(StepInfo(task=1, epoch=0, epochs=5, iteration=0), model, 16)   # later tasks: no rescale
    assert all(torch.equal(before[n], modules[n].weight) for n in dense)
