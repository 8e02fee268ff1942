"""Every registered model: forward shape for its kind of input, with and without BatchNorm."""
from __future__ import annotations

import pytest
import torch

from models import ModelArgs, build_model, maskable_layers, model_names
from models.user_model import ModelSpecError

INPUTS = {
    "mlp": [(1, 8, 8), (1, 28, 28)],
    "small_cnn": [(1, 8, 8), (1, 28, 28), (3, 32, 32)],
    "resnet18_reduced": [(3, 32, 32), (1, 28, 28)],
    "resnet18": [(3, 32, 32)],
    "mobilenet": [(3, 32, 32), (1, 28, 28)],
    "cnn1d": [(13, 40), (6, 100)],
}


def test_every_registered_model_is_covered():
    build_model("mlp", ModelArgs((1, 8, 8), 10))   # the registry fills on first build
    assert set(model_names()) == set(INPUTS)


@pytest.mark.parametrize("norm", ["none", "batch"])
@pytest.mark.parametrize("kind,shape", [(k, s) for k, shapes in INPUTS.items() for s in shapes])
def test_forward_shape(kind, shape, norm):
    torch.manual_seed(0)
    model = build_model(kind, ModelArgs(shape, 10, norm=norm))
    x = torch.randn(3, *shape)
    assert model(x).shape == (3, 10)
    model.eval()
    with torch.no_grad():
        assert model(x[:1]).shape == (1, 10)
    has_bn = any(isinstance(m, (torch.nn.BatchNorm1d, torch.nn.BatchNorm2d)) for m in model.modules())
    assert has_bn == (norm == "batch")
    names = dict(model.named_modules())
    assert maskable_layers(model) and all(n in names for n in maskable_layers(model))


def test_head_size_and_unknown_kind():
    assert build_model("mlp", ModelArgs((1, 8, 8), 7, hidden=(16,)))(torch.zeros(2, 1, 8, 8)).shape == (2, 7)
    with pytest.raises(ModelSpecError, match="model.kind"):
        build_model("vgg", ModelArgs((1, 8, 8), 10))
