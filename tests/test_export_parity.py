"""Five training steps in each runtime (through the device backend) vs PyTorch eager.

Same initial weights, same DER++-shaped batches: loss and every parameter within 1e-4 relative
error (tensor norm), masked weights exactly 0 after the steps, gradients of masked weights exactly 0.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from android_harness.device.backends import load_backend
from models import model_names
from pipeline.export import export_program
from tests.export_helpers import EagerReference, random_masks, rel_err, replay_batch, small_request

TOL = 1e-4
STEPS = 5


def run_parity(tmp_path, req, grad_mask_density: float | None = None):
    req.masks = random_masks(req)
    result = export_program(req, tmp_path / f"{Path(req.model).name}-{req.runtime}")   # a user kind is a path
    backend = load_backend(result.folder)
    eager = EagerReference(req)
    rng = np.random.default_rng(7)
    for step in range(STEPS):
        batch = replay_batch(req, seed=step)
        gms = None
        if grad_mask_density is not None:
            gms = {n: (rng.random(p.shape) < grad_mask_density).astype(np.float32) for n, p in eager.params().items()}
        loss_ref, logits_ref, grads_ref = eager.step(batch, gms)
        out = backend.train_step(batch, req.lr, grad_masks=gms)
        assert rel_err(out.loss, loss_ref) < TOL, (step, out.loss, loss_ref)
        assert rel_err(out.logits, logits_ref) < TOL
        grads = backend.raw_grads(list(backend.signature.parameter_names))
        grads = {n: g * gms[n] if gms and n in gms else g for n, g in grads.items()}   # what the update used
        for name, m in backend.masks.items():
            assert np.all(grads[name][m == 0] == 0.0), f"{name}: masked weights got a gradient"
        for name in grads:
            assert rel_err(grads[name], grads_ref[name]) < TOL, (step, name)
    params, ref = backend.params(), eager.params()
    assert set(params) == set(ref)
    for name in ref:
        assert rel_err(params[name], ref[name]) < TOL, (name, rel_err(params[name], ref[name]))
    for name, m in backend.masks.items():
        assert np.all(params[name][m == 0] == 0.0), f"{name}: masked weights are not exactly 0"
        assert (m == 0).any()
    for name, value in eager.buffers().items():
        assert rel_err(backend.buffers[name], value) < TOL, name
    return backend, eager


@pytest.mark.parametrize("runtime", ["executorch", "ort"])
@pytest.mark.parametrize("kind", model_names())
def test_parity_every_model(tmp_path, kind, runtime):
    """The export core (speed passes off, see below). The MLP runs with DGM gradient masks too:
    masked grads are exactly 0 and SGD steps still match."""
    req = small_request(kind, runtime, fast_passes=False)
    run_parity(tmp_path, req, grad_mask_density=0.5 if kind == "mlp" else None)


@pytest.mark.parametrize("kind", ["small_cnn", "cnn1d", "mobilenet"])
def test_parity_with_speed_passes(tmp_path, kind):
    """ExecuTorch with ``fast_passes`` (the convolution rewrites): still eager's numbers.
    A subset of models, because the rewrites double export time; they cover 2-D, 1-D, depthwise
    and pointwise convolutions and max-pooling."""
    run_parity(tmp_path, small_request(kind, "executorch", fast_passes=True))


@pytest.mark.parametrize("runtime", ["executorch", "ort"])
@pytest.mark.parametrize("kind", ["small_cnn", "cnn1d"])
def test_parity_batchnorm_and_eval(tmp_path, kind, runtime):
    """BatchNorm trains like eager, running stats follow PyTorch's rule, and eval uses them."""
    req = small_request(kind, runtime, norm="batch", fast_passes=False)
    backend, eager = run_parity(tmp_path, req)
    x = replay_batch(req, seed=99)["x"][:4]
    assert rel_err(backend.eval_logits(x), eager.eval_logits(x)) < TOL


@pytest.mark.parametrize("runtime", ["executorch", "ort"])
def test_parity_adamw(tmp_path, runtime):
    run_parity(tmp_path, small_request("mlp", runtime, optimizer="adamw", weight_decay=0.01, fast_passes=False))

