"""MobileNet-style CNN: a 3x3 stem then depthwise-separable blocks (depthwise 3x3 + pointwise 1x1)."""
from __future__ import annotations

from torch import nn

from models.layers import norm2d
from models.registry import ModelArgs, register


def _separable(cin: int, cout: int, stride: int, norm: str) -> nn.Sequential:
    return nn.Sequential(
        nn.Conv2d(cin, cin, 3, stride=stride, padding=1, groups=cin, bias=False), norm2d(norm, cin), nn.ReLU(),
        nn.Conv2d(cin, cout, 1, bias=False), norm2d(norm, cout), nn.ReLU(),
    )


class MobileNetSmall(nn.Module):
    def __init__(self, in_channels: int, num_classes: int, width: int = 16, norm: str = "none") -> None:
        super().__init__()
        w = width
        self.stem = nn.Sequential(nn.Conv2d(in_channels, w, 3, padding=1, bias=False), norm2d(norm, w), nn.ReLU())
        self.blocks = nn.Sequential(
            _separable(w, 2 * w, 1, norm), _separable(2 * w, 4 * w, 2, norm),
            _separable(4 * w, 4 * w, 1, norm), _separable(4 * w, 8 * w, 2, norm),
        )
        self.pool = nn.Sequential(nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.classifier = nn.Linear(8 * w, num_classes)
        self.maskable = [f"blocks.{i}.3" for i in range(4)]

    def forward(self, x):
        return self.classifier(self.pool(self.blocks(self.stem(x))))


@register("mobilenet")
def build_mobilenet(args: ModelArgs) -> nn.Module:
    return MobileNetSmall(args.input_shape[0], args.num_classes, args.width or 16, args.norm)
