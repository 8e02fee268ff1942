"""Device backends beyond parity: save/load with optimizer state, TDM mask changes, eval batching."""
from __future__ import annotations

import numpy as np
import pytest

from android_harness.device.backends import load_backend
from pipeline.export import export_program
from tests.export_helpers import random_masks, replay_batch, small_request


@pytest.fixture(scope="module", params=["executorch", "ort"])
def adamw_export(request, tmp_path_factory):
    req = small_request("mlp", request.param, optimizer="adamw", weight_decay=0.01)
    req.masks = random_masks(req)
    return req, export_program(req, tmp_path_factory.mktemp("exp") / request.param).folder


def test_state_arrays_restore_parameters_and_optimizer_state(adamw_export, tmp_path):
    """The checkpoint's arrays (param., buffer., mask., opt.) plus ``runtime/`` (ORT's AdamW moments) carry
    everything: a restored backend continues bit-identically."""
    req, folder = adamw_export
    backend = load_backend(folder)
    for s in range(2):
        backend.train_step(replay_batch(req, s), req.lr)
    arrays, opt_step = backend.state_arrays()
    (tmp_path / "runtime").mkdir()
    backend.save_runtime_state(tmp_path / "runtime")
    assert opt_step == 2 and (backend.runtime == "ort" or any(k.startswith("opt.m.") for k in arrays))
    for s in range(2, 4):
        backend.train_step(replay_batch(req, s), req.lr)
    expected = backend.params()
    restored = load_backend(folder)
    restored.load_state_arrays(arrays, opt_step)
    restored.load_runtime_state(tmp_path / "runtime")
    for s in range(2, 4):
        restored.train_step(replay_batch(req, s), req.lr)
    for name, value in expected.items():
        np.testing.assert_array_equal(restored.params()[name], value)


def test_set_masks_zeroes_newly_masked_weights_and_keeps_them_zero(adamw_export):
    req, folder = adamw_export
    backend = load_backend(folder)
    backend.train_step(replay_batch(req, 0), req.lr)
    new = random_masks(req, density=0.3, seed=5)
    backend.set_masks(new)
    for s in range(1, 3):
        backend.train_step(replay_batch(req, s), req.lr)
        grads = backend.raw_grads(list(new))
        for name, m in new.items():
            assert np.all(grads[name][m == 0] == 0.0)
    params = backend.params()
    for name, m in new.items():
        assert np.all(params[name][m == 0] == 0.0) and np.any(params[name][m == 1] != 0.0)
    with pytest.raises(ValueError, match="shape"):
        backend.set_masks({name: np.ones(3) for name in new})


def test_eval_logits_pads_and_chunks_to_the_program_batch(adamw_export):
    req, folder = adamw_export
    backend = load_backend(folder)
    x = replay_batch(req, 0)["x"]
    x = np.concatenate([x, x[:3]])  # 9 rows for a batch-6 program
    logits = backend.eval_logits(x)
    assert logits.shape == (9, req.num_classes)
    np.testing.assert_allclose(logits[6:], logits[:3], rtol=1e-5, atol=1e-6)
    assert backend.eval_logits(x[:0]).shape == (0, req.num_classes)
