"""Sparse execution in the native runner (``edgecl-runner steps --sparse on``) against the dense kernels.

- Bits: every shipped SparCL experiment spec's program (its initial TDM masks) and a convolutional
  model at high and channel sparsity train STEPS steps with the sparse products and with the dense
  ones: losses, final parameters and eval logits byte-identical (the eval program's products run
  sparse too, and are counted).
- arm64 (under qemu; its timings mean nothing): the convolutional cases' sparse runs are byte-identical
  to x86_64's, so the phone's sparse kernels (no AVX2 gathers there) round as the host's do.
- No silent fallback: every masked layer's products are found (forward, weight gradient and, past
  the first layer, input gradient) and each ran on the kernel its density picks, every step, in
  ``steps`` and in a session (its step profile), which turns sparse execution on by itself.
- In place: a stride-1 convolution whose output rows fill 8-wide vectors reads its columns from its
  padded input (no im2col copy) in every product that runs sparse, in the training and eval
  programs; the dense run reads none in place. The runner lays out the training arena again (the
  export's plan is never kept for these programs), and the sparse run's layout, without the skipped
  copies, is smaller than the dense run's.
"""
from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from android_harness.native import build_runner, run_prefix
from tests._native_bins import runner_binary
from pipeline.export import prepare_model
from tests.export_helpers import replay_batch, small_request

pytestmark = [pytest.mark.slow, pytest.mark.timeout(2400)]

ROOT = Path(__file__).resolve().parents[1]
STEPS = 6
ABI = "x86_64"
# the dense kernel above these densities (android_harness/native/src/sparse_plan.h)
CROSSOVER = {"forward": 0.45, "input_grad": 0.3, "weight_grad": 0.15}


def sparcl_specs() -> list[Path]:
    import tomllib

    return sorted(p for p in (ROOT / "experiments").glob("*.toml")
                  if tomllib.loads(p.read_text()).get("sparcl", {}).get("enabled"))


@pytest.fixture(scope="module")
def runner() -> Path:
    return build_runner(ABI, show_progress=False)


def _inputs(folder: Path, req, root: Path) -> Path:
    """STEPS recorded batches with the export's masks, as ``steps`` reads them."""
    from android_harness.device.backends import load_backend

    backend = load_backend(folder)
    sig = backend.signature
    raw = bytearray()
    for s in range(STEPS):
        batch = replay_batch(req, seed=s)
        full = {**batch, **{sig.mask_input_name(n): backend.masks[n] for n in sig.mask_names}}
        for array in sig.check_inputs(full):
            raw += np.ascontiguousarray(array).tobytes()
    path = root / "inputs.bin"
    path.write_bytes(bytes(raw))
    return path


def _steps(runner: Path, folder: Path, inputs: Path, out: Path, sparse: str,
           prefix: tuple[str, ...] = ()) -> tuple[dict, dict[str, bytes]]:
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    res = subprocess.run([*prefix, str(runner), "steps", str(folder), str(inputs), str(out), "--sparse", sparse],
                         capture_output=True, text=True, timeout=900)
    assert res.returncode == 0, res.stderr
    return json.loads(res.stdout), {n: (out / f"{n}.f32").read_bytes() for n in ("losses", "params", "logits")}


def _check(runner: Path, folder: Path, req, root: Path, arm64: bool = False,
           in_place: tuple[str, ...] = ()) -> None:
    """Sparse == dense (and arm64 == x86_64) bit for bit; the layers named in ``in_place`` read their
    columns in place in every sparse product, and no product does in the dense run."""
    inputs = _inputs(folder, req, root)
    sparse, sparse_out = _steps(runner, folder, inputs, root / "sparse", "on")
    dense, dense_out = _steps(runner, folder, inputs, root / "dense", "off")
    for name in ("losses", "params", "logits"):
        assert sparse_out[name] == dense_out[name], f"{folder.name}: {name} differ between sparse and dense"
    if arm64:
        arm, arm_out = _steps(runner_binary("arm64-v8a"), folder, inputs, root / "arm64", "on", run_prefix("arm64-v8a"))
        kernels = [[(p["role"], p["kernel"], p["sparse_calls"]) for p in layer["products"]] for layer in arm["sparse"]["layers"]]
        assert kernels == [[(p["role"], p["kernel"], p["sparse_calls"]) for p in layer["products"]]
                           for layer in sparse["sparse"]["layers"]]
        for name in ("losses", "params", "logits"):
            assert arm_out[name] == sparse_out[name], f"{folder.name}: {name} differ between arm64 and x86_64 (sparse)"
    layers = sparse["sparse"]["layers"]
    assert [layer["name"] for layer in layers] == [layer["name"] for layer in dense["sparse"]["layers"]]
    for i, layer in enumerate(layers):
        roles = sorted(p["role"] for p in layer["products"])
        want = {"forward", "weight_grad"} | (set() if i == 0 else {"input_grad"})  # no gradient for the input
        assert want <= set(roles), f"{layer['name']}: products found {roles}"
        for p in layer["products"]:
            assert p["kernel"] == ("dense" if _chose_dense(p, True) else "sparse"), (layer["name"], p)
            _assert_ran_on_its_kernel(p, True, STEPS, layer["name"])
    for layer in dense["sparse"]["layers"]:
        for p in layer["products"]:
            _assert_ran_on_its_kernel(p, False, STEPS, layer["name"])
    for on, run in ((True, sparse), (False, dense)):   # the eval program's forward products, after training
        assert [layer["name"] for layer in run["sparse"]["eval_layers"]] == [layer["name"] for layer in layers]
        for layer in run["sparse"]["eval_layers"]:
            assert [p["role"] for p in layer["products"]] == ["forward"], (layer["name"], layer["products"])
            _assert_ran_on_its_kernel(layer["products"][0], on, 1, layer["name"])
        for layer in run["sparse"]["layers"] + run["sparse"]["eval_layers"]:
            for p in layer["products"]:
                if layer["name"] in in_place:
                    assert p["in_place"] == (on and p["kernel"] == "sparse"), (layer["name"], p)
                else:
                    assert not p["in_place"] or (on and p["kernel"] == "sparse"), (layer["name"], p)
    assert not in_place or any(p["in_place"] for layer in layers for p in layer["products"])
    # The runner lays the arena out again (nothing kept), and the skipped copies take no bytes in it.
    assert sparse["arena"]["kept_because"] == dense["arena"]["kept_because"] == "", (sparse["arena"], dense["arena"])
    assert not in_place or sparse["arena"]["laid_out_mb"] < dense["arena"]["laid_out_mb"], (sparse["arena"], dense["arena"])


def _chose_dense(p: dict, on: bool) -> bool:
    """Whether product ``p`` runs on the dense kernel with sparse execution ``on``: off, or denser than its crossover."""
    return not on or (not p["rectangular"] and p["density"] > CROSSOVER[p["role"]])


def _assert_ran_on_its_kernel(p: dict, on: bool, calls: int, layer: str) -> None:
    """At least ``calls`` calls of ``p``, every one on the kernel ``_chose_dense`` picks."""
    ran, other = (p["dense_calls"], p["sparse_calls"]) if _chose_dense(p, on) else (p["sparse_calls"], p["dense_calls"])
    assert ran >= calls and other == 0, (layer, p)


@pytest.mark.parametrize("spec_path", sparcl_specs(), ids=lambda p: p.stem)
def test_shipped_sparcl_specs_sparse_equals_dense(runner, spec_path, tmp_path) -> None:
    from pipeline.config import load_spec
    from pipeline.experiment_prep import export_request, write_shards
    from pipeline.export import export_program

    spec = load_spec(spec_path)
    data = write_shards(spec, tmp_path / "cache")
    req = export_request(spec, data, "executorch")
    folder = export_program(req, tmp_path / "export").folder
    _check(runner, folder, req, tmp_path)


@pytest.mark.parametrize("kind,density,structured", [("small_cnn", 0.03, False), ("small_cnn", 0.1, True)])
def test_conv_sparse_equals_dense(runner, kind, density, structured, tmp_path) -> None:
    from pipeline.export import export_program

    req = small_request(kind, "executorch", batch=8, width=8)
    rng = np.random.default_rng(3)
    masks = {}
    for name, m in prepare_model(req).masks.items():
        if structured:
            rows = (rng.random(m.shape[0]) < density) | (np.arange(m.shape[0]) == 0)
            masks[name] = np.broadcast_to(rows.reshape(-1, *[1] * (m.ndim - 1)), m.shape).astype(np.float32)
        else:
            masks[name] = (rng.random(m.shape) < density).astype(np.float32)
    req.masks = masks
    folder = export_program(req, tmp_path / "export").folder
    _check(runner, folder, req, tmp_path, arm64=True, in_place=("features.0.weight",))   # 8 wide; then 4


# Inputs as wide as the shipped data: rows 32, 28, 16, 14 and 8 wide are read in place, rows 4
# (resnet's last stage) and strided convolutions keep their im2col copies; resnet's later stages take
# the batch inside the columns. The first masked layer keeps every weight: its products run the dense
# kernel on the whole rectangle, and read the copy.
@pytest.mark.parametrize("kind,shape,in_place", [
    ("small_cnn", (1, 28, 28), ("features.4.weight",)),
    ("resnet18_reduced", (3, 32, 32), ("layer1.0.conv2.weight", "layer1.1.conv1.weight",
                                        "layer1.1.conv2.weight", "layer2.0.conv2.weight", "layer2.1.conv1.weight",
                                        "layer2.1.conv2.weight", "layer3.0.conv2.weight", "layer3.1.conv1.weight",
                                        "layer3.1.conv2.weight")),
    ("cnn1d", (3, 64), ("features.6.weight",)),
])
def test_convolutions_read_their_columns_in_place(runner, kind, shape, in_place, tmp_path) -> None:
    from pipeline.export import ExportRequest, export_program

    req = ExportRequest(kind, shape, 4, 4, runtime="executorch", hidden=(8, 8), lr=0.1, width=8)
    rng = np.random.default_rng(5)
    masks = prepare_model(req).masks
    first = next(iter(masks))
    req.masks = {name: np.ones(m.shape, np.float32) if name == first else (rng.random(m.shape) < 0.1).astype(np.float32)
                 for name, m in masks.items()}
    folder = export_program(req, tmp_path / "export").folder
    _check(runner, folder, req, tmp_path, arm64=True, in_place=in_place)
    # The full layer's forward (8 rows, every column) runs the dense kernel compacted, on the copy.
    inputs = _inputs(folder, req, tmp_path)
    out, _ = _steps(runner, folder, inputs, tmp_path / "full", "on")
    forward = next(p for layer in out["sparse"]["layers"] if layer["name"] == first for p in layer["products"])
    assert forward["role"] == "forward" and forward["rectangular"] and not forward["in_place"], forward


def test_a_sparcl_session_runs_its_masked_layers_sparse_every_step(runner, tmp_path) -> None:
    """A session (``run``, as a phone runs it) turns sparse execution on by itself: its step profile names
    each masked layer's products, and each product ran every step on the kernel its density picks."""
    import os

    from pipeline.config import parse_spec
    from tests._runner_env import build_root, new_session

    spec = parse_spec({"seed": 3, "data": {"kind": "digits", "tasks": 2, "classes_per_task": 2, "max_train_per_class": 40},
                       "model": {"kind": "mlp", "hidden": [64, 64]},
                       "train": {"method": "er", "epochs": 2, "batch_size": 16, "lr": 0.05},
                       "replay": {"em_size": 40, "sb_size": 100},
                       "sparcl": {"enabled": True, "sparsity": 0.9, "ddr": False, "dgm": True}})
    data = build_root(spec, tmp_path, runtime="executorch")
    folder = new_session(spec, tmp_path, data, "sparse", runtime="executorch", tasks=data.tasks[:1])
    profile = tmp_path / "profile.json"
    res = subprocess.run([str(runner), "run", str(folder)], capture_output=True, text=True, timeout=600,
                         env={**os.environ, "EDGECL_PROFILE": str(profile)})
    assert res.returncode == 0, res.stderr
    result = json.loads((folder / "result.json").read_text())
    prof = json.loads(profile.read_text())
    steps = prof["steps"]
    assert steps == result["iterations"] > 0
    layers = prof["sparse_layers"]
    masked = json.loads((tmp_path / "models" / "executorch" / "manifest.json").read_text())["signature"]["mask_names"]
    assert [layer["name"] for layer in layers] == masked
    ran_sparse = 0
    for i, layer in enumerate(layers):
        roles = {p["role"] for p in layer["products"]}
        assert {"forward", "weight_grad"} <= roles and (i == 0 or "input_grad" in roles), layer
        for p in layer["products"]:
            assert p["kernel"] == ("dense" if _chose_dense(p, True) else "sparse"), (layer["name"], p)
            _assert_ran_on_its_kernel(p, True, steps, layer["name"])
            ran_sparse += p["sparse_calls"]
    assert ran_sparse > 0   # at 0.9 sparsity the forward products run sparse
