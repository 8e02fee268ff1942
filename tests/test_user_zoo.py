"""User-style models (tests/user_zoo.py: flatten after a convolution, residual adds, depthwise
convolutions, global pooling, norm layers, a sequence model) export with the fast passes on, checked
against the native runner's operators, and train alike in PyTorch eager, the Python ExecuTorch runtime
and the native runner (the comparisons and their bounds of tests/test_export_parity.py and
tests/test_native_build.py)."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from android_harness.native.build import OPS_FILE
from pipeline.export import ExportRequest, export_program
from tests._native_bins import runner_binary
from tests.export_helpers import random_masks, rel_err, replay_batch
from tests.test_export_parity import run_parity
from tests.test_native_build import REL_TOL, STEPS, _native_run, _python_run

pytestmark = [pytest.mark.slow, pytest.mark.timeout(2400)]

ZOO_FILE = Path(__file__).resolve().parent / "user_zoo.py"
ZOO = [("PlainCNN", (3, 8, 8), {}), ("PlainCNN", (3, 8, 8), {"use_reshape": True}), ("Residual", (3, 8, 8), {}),
       ("Depthwise", (3, 8, 8), {}), ("SeqModel", (6, 20), {}), ("FlatMLP", (1, 8, 8), {})]
IDS = [name + ("-reshape" if args else "") for name, _, args in ZOO]
ABI = "x86_64"
BATCHNORM = {"Residual"}


def zoo_request(name: str, shape: tuple[int, ...], args: dict, batch: int = 6) -> ExportRequest:
    ops = runner_binary(ABI).parent / OPS_FILE   # the operators the run's runner has, as ``edgecl run`` checks
    return ExportRequest(f"{ZOO_FILE}:{name}", shape, 4, batch, runtime="executorch", lr=0.1, args=args,
                         fast_passes=True, operators=ops)


@pytest.mark.parametrize("name,shape,args", ZOO, ids=IDS)
def test_exports_with_the_fast_passes_and_trains_like_eager(tmp_path, name, shape, args):
    req = zoo_request(name, shape, args)
    backend, _ = run_parity(tmp_path, req)
    manifest = json.loads((tmp_path / f"{ZOO_FILE.name}:{name}-executorch" / "manifest.json").read_text())
    records = {r["name"]: r for r in manifest["passes"]}
    convs = name not in ("FlatMLP",)
    assert records["conv_im2col"]["modified"] == convs, records["conv_im2col"]
    assert records["conv_im2col_eval"]["modified"] == convs, records["conv_im2col_eval"]
    assert backend.masks, "the zoo models have maskable layers"


@pytest.mark.parametrize("name,shape,args", ZOO, ids=IDS)
def test_native_runner_trains_like_the_python_runtime(tmp_path, name, shape, args):
    req = zoo_request(name, shape, args)
    req.masks = random_masks(req)
    folder = export_program(req, tmp_path / "export").folder
    batches = [replay_batch(req, seed=s) for s in range(STEPS)]
    (losses, params, logits, masked), raw = _python_run(folder, req, batches)
    (tmp_path / "inputs.bin").write_bytes(raw)
    n_losses, n_params, n_logits = _native_run(ABI, runner_binary(ABI), tmp_path, folder)
    assert np.max(np.abs(n_losses - losses) / np.abs(losses)) < REL_TOL, name
    assert rel_err(n_params, params) < REL_TOL, name
    if name not in BATCHNORM:   # `steps` leaves BatchNorm's running statistics at their start; the backend updates them
        assert rel_err(n_logits, logits) < REL_TOL, name
    assert np.all(n_params[masked] == 0.0) and masked.any()
