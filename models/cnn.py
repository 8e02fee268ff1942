"""Small CNN (two 3x3 conv blocks with max-pooling) for 28x28 / 32x32 / 8x8 images."""
from __future__ import annotations

from torch import nn

from models.layers import conv3x3, norm2d
from models.registry import ModelArgs, register


class SmallCNN(nn.Module):
    def __init__(self, in_channels: int, num_classes: int, width: int = 16, norm: str = "none") -> None:
        super().__init__()
        self.features = nn.Sequential(
            conv3x3(in_channels, width), norm2d(norm, width), nn.ReLU(), nn.MaxPool2d(2),
            conv3x3(width, 2 * width), norm2d(norm, 2 * width), nn.ReLU(), nn.MaxPool2d(2),
            nn.AdaptiveAvgPool2d(1), nn.Flatten(),
        )
        self.classifier = nn.Linear(2 * width, num_classes)
        self.maskable = ["features.0", "features.4"]

    def forward(self, x):
        return self.classifier(self.features(x))


@register("small_cnn")
def build_small_cnn(args: ModelArgs) -> nn.Module:
    return SmallCNN(args.input_shape[0], args.num_classes, args.width or 16, args.norm)
