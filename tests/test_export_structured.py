"""Structured-sparse export (channels physically removed) and the max-pool backward workaround."""
from __future__ import annotations

import numpy as np
import pytest

from android_harness.device.backends import load_backend
from pipeline.errors import ExportError
from pipeline.export import export_program, prepare_model
from tests.export_helpers import EagerReference, rel_err, replay_batch, small_request


@pytest.mark.parametrize("runtime", ["executorch", "ort"])
def test_channel_masks_shrink_the_program_and_train_like_eager(tmp_path, runtime):
    keep0 = np.zeros(8, bool)
    keep0[[0, 3, 5]] = True
    keep1 = np.arange(16) % 2 == 0
    req = small_request("small_cnn", runtime, width=8, channel_masks={"features.0": keep0, "features.4": keep1})
    sparse = export_program(req, tmp_path / "sparse")
    kept = sparse.manifest["structured"]["kept_channels"]
    assert kept == {"features.0": [0, 3, 5], "features.4": list(range(0, 16, 2))}
    if runtime == "ort":  # one dense export is enough to show the files shrink (ExecuTorch exports are slow)
        dense = export_program(small_request("small_cnn", runtime, width=8), tmp_path / "dense")
        assert sparse.manifest["parameter_count"] < dense.manifest["parameter_count"] / 3
        size = lambda r: sum(f["size"] for f in r.manifest["files"])  # noqa: E731
        assert size(sparse) < size(dense)
    prepared = prepare_model(req)
    assert prepared.model.features[0].weight.shape[0] == 3 and prepared.model.features[4].weight.shape[1] == 3
    assert prepared.model.classifier.weight.shape[1] == 8
    backend, eager = load_backend(sparse.folder), EagerReference(req)
    for step in range(3):
        batch = replay_batch(req, seed=step)
        loss_ref, _, _ = eager.step(batch)
        assert rel_err(backend.train_step(batch, req.lr).loss, loss_ref) < 1e-4
    for name, value in eager.params().items():
        assert rel_err(backend.params()[name], value) < 1e-4


def test_kept_channels_map_back_to_the_dense_weights():
    dense = prepare_model(small_request("cnn1d", "ort", width=4)).model
    keep = np.array([True, False, True, True])
    pruned = prepare_model(small_request("cnn1d", "ort", width=4, channel_masks={"features.0": keep})).model
    idx = np.flatnonzero(keep)
    np.testing.assert_array_equal(pruned.features[0].weight.detach().numpy(), dense.features[0].weight.detach().numpy()[idx])
    np.testing.assert_array_equal(pruned.features[3].weight.detach().numpy(), dense.features[3].weight.detach().numpy()[:, idx])


def test_channels_feeding_a_residual_add_are_refused():
    keep = np.ones(4, bool)
    keep[1] = False
    req = small_request("resnet18_reduced", "ort", channel_masks={"layer1.0.conv2": keep})
    with pytest.raises(ExportError, match="layer1.0.conv2.*residual"):
        prepare_model(req)


def test_maxpool_backward_is_wrong_without_the_decomposition(tmp_path):
    """ExecuTorch's max_pool2d_with_indices_backward kernel gives wrong gradients; the pass fixes them."""
    errors = {}
    for decompose in (True, False):  # speed passes off: one of them rewrites the pooling backward itself
        req = small_request("small_cnn", "executorch", decompose_maxpool_backward=decompose, fast_passes=False)
        res = export_program(req, tmp_path / f"d{decompose}")
        names = {p["name"]: p["modified"] for p in res.manifest["passes"]}
        assert names.get("decompose_maxpool_backward", False) is decompose
        backend, eager = load_backend(res.folder), EagerReference(req)
        batch = replay_batch(req, seed=0)
        _, _, grads_ref = eager.step(batch)
        backend.train_step(batch, req.lr)
        errors[decompose] = rel_err(backend.raw_grads(["features.0.weight"])["features.0.weight"], grads_ref["features.0.weight"])
    assert errors[True] < 1e-4
    assert errors[False] > 1e-2, errors
