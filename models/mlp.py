"""MLP: the CL literature's 2x100 baseline for small inputs (Split Digits, MNIST)."""
from __future__ import annotations

import math

from torch import nn

from models.layers import norm1d
from models.registry import ModelArgs, register


class MLP(nn.Module):
    def __init__(self, in_features: int, hidden: tuple[int, ...], num_classes: int, norm: str = "none") -> None:
        super().__init__()
        layers: list[nn.Module] = [nn.Flatten()]
        prev = in_features
        for i, h in enumerate(hidden):
            layers += [nn.Linear(prev, h), norm1d(norm, h), nn.ReLU()]
            prev = h
        self.features = nn.Sequential(*layers)
        self.classifier = nn.Linear(prev, num_classes)
        self.maskable = [f"features.{1 + 3 * i}" for i in range(len(hidden))]

    def forward(self, x):
        return self.classifier(self.features(x))


@register("mlp")
def build_mlp(args: ModelArgs) -> nn.Module:
    hidden = args.hidden if not args.width else tuple(args.width for _ in args.hidden)
    return MLP(math.prod(args.input_shape), tuple(hidden), args.num_classes, args.norm)
