"""The export-time operator check: every operator of the ExecuTorch programs must be in the device
runtime's list (the Python bindings' registry, or an ops.txt); a missing one names the operator,
the layer that produced it and what to use instead, and leaves no export folder behind."""
from __future__ import annotations

from pathlib import Path

import pytest

from pipeline.errors import ExportError
from pipeline.export import ExportRequest, export_program
from pipeline.export.operator_check import forward_op, missing_operators, runtime_operators

POOL_NETS = '''
import torch
from torch import nn


class AdaptivePool(nn.Module):
    def __init__(self, in_channels, num_classes):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, 4, 3, padding=1)
        self.features = nn.Sequential(nn.ReLU(), nn.AdaptiveAvgPool2d(2))
        self.fc = nn.Linear(16, num_classes)

    def forward(self, x):
        return self.fc(self.features(self.conv(x)).flatten(1))


class AvgPool(nn.Module):
    def __init__(self, in_channels, num_classes):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, 4, 3, padding=1)
        self.pool = nn.AvgPool2d(2)
        self.fc = nn.Linear(64, num_classes)

    def forward(self, x):
        return self.fc(self.pool(torch.relu(self.conv(x))).flatten(1))


class GlobalMean(nn.Module):
    """The replacement the error suggests: global mean pooling."""

    def __init__(self, in_channels, num_classes):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, 4, 3, padding=1)
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(4, num_classes)

    def forward(self, x):
        return self.fc(self.pool(torch.relu(self.conv(x))).flatten(1))
'''


@pytest.fixture()
def nets(tmp_path):
    path = tmp_path / "pool_nets.py"
    path.write_text(POOL_NETS)
    return path


def request(path, cls: str, **kw) -> ExportRequest:
    return ExportRequest(f"{path}:{cls}", (1, 8, 8), 3, 4, **{"fast_passes": False, **kw})


@pytest.mark.parametrize("fast", [False, True])
def test_adaptive_avg_pool_names_the_backward_operator_the_layer_and_the_fix(tmp_path, nets, fast):
    out = tmp_path / "export"
    with pytest.raises(ExportError) as info:
        export_program(request(nets, "AdaptivePool", fast_passes=fast), out)
    msg = str(info.value)
    assert "aten::_adaptive_avg_pool2d_backward.out" in msg and "the training program" in msg
    assert f"layer 'features.1' (AdaptiveAvgPool2d) at {nets}:" in msg
    assert "use global mean pooling" in msg and "pass operator_check" in msg
    assert info.value.node == "aten::_adaptive_avg_pool2d_backward.out"
    assert not out.exists() and not any(p.name.startswith(".export") for p in tmp_path.iterdir())   # nothing half-written


def test_avg_pool_backward_is_refused_with_its_replacement(tmp_path, nets):
    with pytest.raises(ExportError) as info:
        export_program(request(nets, "AvgPool"), tmp_path / "e")
    msg = str(info.value)
    assert "aten::avg_pool2d_backward.grad_input" in msg and "layer 'pool' (AvgPool2d)" in msg
    assert "nn.MaxPool2d" in msg


def test_the_suggested_replacement_exports(tmp_path, nets):
    result = export_program(request(nets, "GlobalMean"), tmp_path / "e")
    assert (result.folder / "training.pte").is_file()


def test_an_ops_txt_list_is_checked_too(tmp_path, nets):
    """The native runner's selected-operator list: a file of names; a name it lacks is refused, and
    the loss's own operators are attributed to edgecl's loss, not to a layer."""
    registry, _ = runtime_operators()
    ops = tmp_path / "ops.txt"
    ops.write_text("# native runner ops\n" + "\n".join(sorted(registry - {"aten::_log_softmax.out"})) + "\n")
    with pytest.raises(ExportError) as info:
        export_program(request(nets, "GlobalMean", operators=ops), tmp_path / "e")
    msg = str(info.value)
    assert "aten::_log_softmax.out (from edgecl's training loss" in msg and str(ops) in msg
    assert f"{len(registry) - 1} operators" in msg
    full = tmp_path / "full.txt"
    full.write_text("\n".join(sorted(registry)))
    assert export_program(request(nets, "GlobalMean", operators=full), tmp_path / "e2").manifest["runtime"] == "executorch"
    assert request(nets, "GlobalMean", operators=full).cache_key() != request(nets, "GlobalMean", operators=ops).cache_key()


def test_operator_names_and_lists():
    assert forward_op("aten::_adaptive_avg_pool2d_backward.out") == "_adaptive_avg_pool2d"
    assert forward_op("aten::avg_pool2d_backward.grad_input") == "avg_pool2d"
    assert forward_op("aten::threshold_backward.grad_input") == "relu"
    assert forward_op("aten::_log_softmax_backward_data.out") == "_log_softmax"
    assert missing_operators(["aten::add.out", "aten::x.out"], {"aten::add.out"}) == ["aten::x.out"]
    registry, source = runtime_operators()
    assert "aten::_adaptive_avg_pool2d.out" in registry and "aten::_adaptive_avg_pool2d_backward.out" not in registry
    assert "Python bindings" in source


def test_an_empty_or_missing_ops_file_is_an_export_error(tmp_path):
    (tmp_path / "empty.txt").write_text("# nothing\n")
    with pytest.raises(ExportError, match="names no operators"):
        runtime_operators(tmp_path / "empty.txt")
    with pytest.raises(ExportError, match="cannot be read"):
        runtime_operators(tmp_path / "absent.txt")


ZOO_FILE = Path(__file__).resolve().parent / "user_zoo.py"


@pytest.mark.parametrize("cls,args,fast,layers", [
    ("AvgPoolCNN", {}, True, ["layer 'pool' (AvgPool2d)"]),                                 # three convolutions
    ("AvgPoolCNN", {}, False, ["layer 'pool' (AvgPool2d)"]),
    ("Residual", {"pool": "avg"}, True, ["layer 'pool' (AvgPool2d)"]),                      # residual adds, BatchNorm
    ("Depthwise", {"pool": "adaptive"}, True, ["layer 'pool.0' (AdaptiveAvgPool2d)",         # depthwise, GroupNorm
                                               "layer 'pool.1' (AvgPool2d)"]),
])
def test_models_with_maskable_layers_are_refused_naming_the_layer_and_the_fix(tmp_path, cls, args, fast, layers):
    """Three or more layers, so some are maskable (their masks are program inputs): the check still
    names each missing operator's layer and its replacement, as an ExportError."""
    out = tmp_path / "export"
    req = ExportRequest(f"{ZOO_FILE}:{cls}", (3, 8, 8), 4, 6, args=args, fast_passes=fast)
    with pytest.raises(ExportError) as info:
        export_program(req, out)
    msg = str(info.value)
    assert info.value.pass_name == "operator_check", msg
    for layer in layers:
        assert f"{layer} at {ZOO_FILE}:" in msg, msg
    assert "instead" in msg and "use nn.MaxPool2d" in msg.replace("use global mean pooling", "use nn.MaxPool2d")
    assert not out.exists()
