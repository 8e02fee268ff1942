"""Your own model: ``kind = "package.module:Class"`` or ``"path/to/file.py:Class"`` with ``[model.args]``,
checked at spec time (import, construct, one forward on the data's shape: errors name the key),
maskable layers inferred or listed, and exported to both runtimes with eager parity."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import torch

from models import ModelArgs, build_model, maskable_layers
from pipeline.config import parse_spec
from pipeline.errors import ConfigError
from pipeline.export import ExportRequest, export_program, prepare_model
from tests.test_export_parity import run_parity

ROOT = Path(__file__).resolve().parents[1]

NETS = '''
import torch
from torch import nn


class SeqNet(nn.Module):
    """(C, T) sequences: three Conv1d layers, global mean over time, a classifier."""

    def __init__(self, in_channels, num_classes, width=8, norm=False):
        super().__init__()
        self.stem = nn.Conv1d(in_channels, width, 3, padding=1)
        self.body = nn.Sequential(nn.Conv1d(width, width, 3, padding=1, bias=not norm), nn.BatchNorm1d(width) if norm else nn.Identity(),
                                  nn.ReLU(), nn.Conv1d(width, width, 3, padding=1))
        self.head = nn.Linear(width, num_classes)

    def forward(self, x):
        h = torch.relu(self.body(torch.relu(self.stem(x))))
        return self.head(h.mean(dim=2))


class FeatNet(nn.Module):
    """Flat features: takes in_features and the class count by the names edgecl fills in."""

    def __init__(self, in_features, num_classes, hidden=(16, 16)):
        super().__init__()
        dims = [in_features, *hidden]
        self.layers = nn.ModuleList(nn.Linear(a, b) for a, b in zip(dims, dims[1:]))
        self.out = nn.Linear(dims[-1], num_classes)

    def forward(self, x):
        h = x.flatten(1)
        for layer in self.layers:
            h = torch.relu(layer(h))
        return self.out(h)


class WrongHead(nn.Module):
    def __init__(self, in_features, num_classes):
        super().__init__()
        self.fc = nn.Linear(in_features, num_classes + 1)

    def forward(self, x):
        return self.fc(x.flatten(1))


class Broken(nn.Module):
    def __init__(self, num_classes, depth):
        super().__init__()
        raise ValueError(f"depth {depth} is not supported")


NOT_A_MODULE = 3
'''


@pytest.fixture()
def nets_file(tmp_path) -> Path:
    path = tmp_path / "my_models" / "nets.py"
    path.parent.mkdir()
    path.write_text(NETS)
    (path.parent / "__init__.py").write_text("")
    return path


def table(model: dict, shape=(6, 20), classes=4, tasks=2):
    return {"data": {"kind": "watch" if shape == (6, 20) else "digits", "tasks": tasks, "classes_per_task": 2,
                     **({"seq_len": 20} if shape == (6, 20) else {})}, "model": model}


def test_model_by_file_path_with_args(nets_file):
    spec = parse_spec(table({"kind": f"{nets_file}:SeqNet", "args": {"width": 6}}))
    model = build_model(spec.model.kind, ModelArgs((6, 20), 7, args=spec.model.args))
    assert model.stem.in_channels == 6 and model.head.out_features == 7 and model.stem.out_channels == 6
    # convs and linears but the first (stem) and the classifier (head)
    assert maskable_layers(model) == ["body.0", "body.3"]


def test_model_by_import_path_from_the_working_folder(nets_file, monkeypatch):
    monkeypatch.chdir(nets_file.parent.parent)
    spec = parse_spec(table({"kind": "my_models.nets:FeatNet", "args": {"hidden": [12, 10, 8]}}, shape=(1, 8, 8)))
    model = build_model(spec.model.kind, ModelArgs((1, 8, 8), 10, args=spec.model.args))
    assert [layer.in_features for layer in model.layers] == [64, 12, 10]
    assert maskable_layers(model) == ["layers.1", "layers.2"]
    assert "my_models" in sys.modules and str(nets_file.parent.parent) not in sys.path   # sys.path left as it was


def test_maskable_layers_listed_in_the_spec(nets_file):
    spec = parse_spec(table({"kind": f"{nets_file}:SeqNet", "maskable": ["stem", "body.0"]}))
    model = build_model(spec.model.kind, ModelArgs((6, 20), 4, maskable=tuple(spec.model.maskable)))
    assert maskable_layers(model) == ["stem", "body.0"]
    (p,) = pytest.raises(ConfigError, parse_spec, table({"kind": f"{nets_file}:SeqNet", "maskable": ["body.2"]})).value.problems
    assert p.startswith("model.maskable[0]: 'body.2' is not a Conv1d/Conv2d/Linear layer") and "body.3" in p


@pytest.mark.parametrize("model, starts", [
    ({"kind": "{f}:SeqNet", "args": {"widht": 4}}, "model.args.widht: SeqNet takes no argument 'widht' (it takes: "
                                                    "in_channels, num_classes, width, norm)"),
    ({"kind": "{f}:Broken"}, "model.args.depth: required by Broken and not given"),
    ({"kind": "{f}:Broken", "args": {"depth": 3}}, "model.args: Broken(num_classes=7, depth=3) failed: ValueError: "
                                                   "depth 3 is not supported"),
    ({"kind": "{f}:Nope"}, "model.kind: {f} has no 'Nope' (nn.Module classes there: Broken, FeatNet, SeqNet, WrongHead)"),
    ({"kind": "{f}:NOT_A_MODULE"}, "model.kind: '{f}:NOT_A_MODULE' is a int, not a torch.nn.Module subclass"),
    ({"kind": "no_such_pkg.nets:SeqNet"}, "model.kind: cannot import 'no_such_pkg.nets'"),
    ({"kind": "{f}:WrongHead"}, "model.kind: '{f}:WrongHead' returns shape (2, 8) for a batch of 2 samples (6, 20); "
                                "expected (2, 7)"),
    ({"kind": "{f}:FeatNet", "args": {"hidden": [8]}, "norm": "batch"}, None),
    ({"kind": "mlp", "args": {"x": 1}}, "model.args: only for your own model"),
    ({"kind": "my.mod:Net-1"}, "model.kind: 'my.mod:Net-1' is not 'package.module:Class'"),
])
def test_model_problems_name_the_key(nets_file, model, starts):
    model = {k: (v.replace("{f}", str(nets_file)) if isinstance(v, str) else v) for k, v in model.items()}
    if starts is None:
        assert parse_spec(table(model)).model.kind == model["kind"]
        return
    problems = pytest.raises(ConfigError, parse_spec, table(model)).value.problems
    assert any(p.startswith(starts.replace("{f}", str(nets_file))) for p in problems), problems


def test_sparcl_on_a_model_with_nothing_to_mask_is_a_spec_error(nets_file):
    small = {"kind": f"{nets_file}:FeatNet", "args": {"hidden": [8]}}       # two Linears: first and classifier
    t = table(small, shape=(1, 8, 8)) | {"sparcl": {"enabled": True}}
    (p,) = pytest.raises(ConfigError, parse_spec, t).value.problems
    assert p.startswith("model.maskable: SparCL is on but") and "layers.0, out" in p
    t["model"]["maskable"] = ["layers.0"]
    assert parse_spec(t).model.maskable == ["layers.0"]


def test_a_file_that_does_not_import_is_named(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("import torch\nclass Net(torch.nn.Module):\n    def __init__(self)\n")
    (p,) = pytest.raises(ConfigError, parse_spec, table({"kind": f"{bad}:Net"})).value.problems
    assert p.startswith(f"model.kind: importing '{bad}' failed: SyntaxError")


@pytest.mark.parametrize("data, model", [
    ({"kind": "digits"}, "cnn1d"),                                     # (1, 8, 8) images into a 1-D CNN
    ({"kind": "watch", "seq_len": 20}, "small_cnn"),                   # (6, 20) sequences into a 2-D CNN
])
def test_builtin_model_on_the_wrong_shape_is_a_spec_error_through_the_cli(tmp_path, data, model):
    spec = tmp_path / "s.toml"
    spec.write_text(f'name = "wrong"\n[data]\nkind = "{data["kind"]}"\n'
                    + "".join(f"{k} = {v}\n" for k, v in data.items() if k != "kind")
                    + f'[model]\nkind = "{model}"\n')
    res = subprocess.run([sys.executable, "-m", "pipeline.cli.app", "train-host", str(spec)], capture_output=True,
                         text=True, cwd=ROOT, timeout=300)
    assert res.returncode == 2, res.stderr
    assert "Traceback" not in res.stderr and f"model.kind: '{model}' takes" in res.stderr


def _user_request(path: Path, runtime: str) -> ExportRequest:
    return ExportRequest(f"{path}:SeqNet", (6, 20), 4, 6, runtime=runtime, lr=0.1, args={"width": 5, "norm": True},
                         fast_passes=False)


@pytest.mark.parametrize("runtime", ["executorch", "ort"])
def test_user_model_exports_with_eager_parity(tmp_path, nets_file, runtime):
    backend, _ = run_parity(tmp_path, _user_request(nets_file, runtime))
    assert set(backend.masks) == {"body.0.weight", "body.3.weight"}
    manifest = export_program(_user_request(nets_file, runtime), tmp_path / "again").manifest
    assert manifest["model"]["kind"] == f"{nets_file}:SeqNet" and manifest["model"]["args"] == {"width": 5, "norm": True}


def test_editing_the_model_file_changes_the_export_cache_key(nets_file):
    req = _user_request(nets_file, "ort")
    key = req.cache_key()
    assert _user_request(nets_file, "ort").cache_key() == key
    head = "self.head = nn.Linear(width, num_classes)"
    nets_file.write_text(NETS.replace(head, head + "\n        self.extra = 1"))
    assert _user_request(nets_file, "ort").cache_key() != key
    prepared = prepare_model(_user_request(nets_file, "ort"))
    assert prepared.model.extra == 1 and np.all(prepared.masks["body.0.weight"] == 1.0)
    assert isinstance(prepared.model(torch.zeros(2, 6, 20)), torch.Tensor)
