"""Manifest, cache and bad-input behaviour of ``export_program`` (fast: the MLP exports in ~1 s)."""
from __future__ import annotations

import json

import numpy as np
import pytest
from torch import nn

from android_harness.device.backends import ManifestError, load_backend, read_manifest
from pipeline.errors import ConfigError, EdgeclError, ExportError
from pipeline.export import export_program
from pipeline.export.pass_manager import PassManager, PassResult
from tests.export_helpers import random_masks, small_request


@pytest.mark.parametrize("runtime", ["executorch", "ort"])
def test_manifest_lists_files_signature_and_versions(tmp_path, runtime):
    req = small_request("mlp", runtime)
    req.masks = random_masks(req, density=0.25)
    res = export_program(req, tmp_path / "out")
    m = read_manifest(res.folder)
    assert m["format"] == "edgecl-manifest/1" and m["runtime"] == runtime
    roles = {f["role"] for f in m["files"]}
    assert {"training", "eval", "initial_state"} <= roles
    if runtime == "ort":
        assert {"optimizer", "checkpoint"} <= roles
    assert all(len(f["sha256"]) == 64 and f["size"] > 0 for f in m["files"])
    sig = m["signature"]
    assert [i["name"] for i in sig["inputs"]][:6] == ["x", "y", "logit_mask", "ce_weight", "target_logits", "mse_weight"]
    assert sig["outputs"][:2] == ["loss", "logits"]
    assert sig["mask_names"] == ["features.1.weight", "features.4.weight"]
    assert m["versions"]["torch"] and m["model"]["kind"] == "mlp" and m["optimizer"]["name"] == "sgd"
    assert 0.6 < m["sparsity"] < 0.9
    assert m["cache_key"]
    expected_pass = "reject_unsupported_layers" if runtime == "ort" else "decompose_maxpool_backward"
    assert expected_pass in {p["name"] for p in m["passes"]} or runtime == "executorch"  # MLP has no max-pool


def test_unchanged_request_reuses_cache_and_changed_one_does_not(tmp_path):
    req = small_request("mlp", "ort")
    first = export_program(req, tmp_path / "out")
    assert not first.reused
    again = export_program(small_request("mlp", "ort"), tmp_path / "out")
    assert again.reused and again.manifest["cache_key"] == first.manifest["cache_key"]
    changed = small_request("mlp", "ort")
    changed.masks = random_masks(changed)
    assert not export_program(changed, tmp_path / "out").reused


@pytest.mark.parametrize("damage", ["flip_byte", "delete"])
def test_corrupted_cache_is_detected_and_reexported(tmp_path, damage):
    req = small_request("mlp", "ort")
    res = export_program(req, tmp_path / "out")
    pte = res.folder / "training_model.onnx"
    if damage == "delete":
        pte.unlink()
    else:
        blob = bytearray(pte.read_bytes())
        blob[len(blob) // 2] ^= 0xFF
        pte.write_bytes(bytes(blob))
    with pytest.raises(ManifestError):
        read_manifest(res.folder)
    with pytest.raises(ManifestError):
        load_backend(res.folder)
    again = export_program(req, tmp_path / "out")
    assert not again.reused
    read_manifest(again.folder)
    assert load_backend(again.folder).train_step is not None


def test_unknown_model_is_a_config_error(tmp_path):
    req = small_request("mlp", "ort")
    req.model = "transformer"
    with pytest.raises(ConfigError, match="unknown model 'transformer'"):
        export_program(req, tmp_path / "out")
    assert not (tmp_path / "out").exists()


def test_unwritable_output_folder(tmp_path):
    blocker = tmp_path / "a_file"
    blocker.write_text("not a folder")
    with pytest.raises(ExportError, match="not writable"):
        export_program(small_request("mlp", "ort"), blocker / "out")


def test_unknown_runtime_and_bad_mask(tmp_path):
    with pytest.raises(ExportError, match="runtime"):
        export_program(small_request("mlp", "tflite"), tmp_path / "o1")
    req = small_request("mlp", "ort")
    req.masks = {"features.9": np.ones((3, 3))}
    with pytest.raises(ExportError, match="no such layer"):
        export_program(req, tmp_path / "o2")
    req.masks = {"features.1": np.ones((3, 3))}
    with pytest.raises(ExportError, match="shape"):
        export_program(req, tmp_path / "o3")


def test_unsupported_op_names_the_layer(tmp_path, monkeypatch):
    """GroupNorm has no ORT gradient builder: the error names the layer and the alternative."""
    import models.layers as layers

    monkeypatch.setattr(layers, "norm2d", lambda kind, c: nn.GroupNorm(2, c) if kind == "batch" else nn.Identity())
    import models.cnn as cnn

    monkeypatch.setattr(cnn, "norm2d", layers.norm2d)
    req = small_request("small_cnn", "ort", norm="batch")
    with pytest.raises(ExportError) as info:
        export_program(req, tmp_path / "out")
    msg = str(info.value)
    assert "features.1" in msg and "norm" in msg and info.value.pass_name == "reject_unsupported_layers"
    assert not (tmp_path / "out").exists()


def test_pass_manager_names_failing_pass_and_records_modified():
    class Noop:
        name, stage = "noop", "onnx_model"

        def __call__(self, g):
            return PassResult(g, False)

    class Boom:
        name, stage = "boom", "onnx_model"

        def __call__(self, g):
            raise KeyError("node 7")

    pm = PassManager([Noop(), Boom()])
    with pytest.raises(ExportError) as info:
        pm.run("onnx_model", object())
    assert info.value.pass_name == "boom" and "node 7" in str(info.value)
    assert pm.summary()[0]["name"] == "noop" and pm.summary()[0]["modified"] is False


def test_backend_rejects_inputs_that_break_the_signature(tmp_path):
    res = export_program(small_request("mlp", "ort"), tmp_path / "out")
    backend = load_backend(res.folder)
    with pytest.raises(ValueError, match="x"):
        backend.train_step({"x": np.zeros((2, 1, 8, 8), np.float32)}, 0.1)
    manifest = json.loads((res.folder / "manifest.json").read_text())
    assert issubclass(ManifestError, ValueError) and issubclass(ExportError, EdgeclError)
    assert manifest["signature"]["batch_size"] == 6
