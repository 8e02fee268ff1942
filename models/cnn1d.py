"""1-D CNN over (channels, time) sequences: MFCC frames (audio) or 6-axis IMU windows."""
from __future__ import annotations

from torch import nn

from models.layers import norm1d
from models.registry import ModelArgs, register


class CNN1D(nn.Module):
    def __init__(self, in_channels: int, num_classes: int, width: int = 32, norm: str = "none") -> None:
        super().__init__()
        w = width
        self.features = nn.Sequential(
            nn.Conv1d(in_channels, w, 5, padding=2, bias=False), norm1d(norm, w), nn.ReLU(),
            nn.Conv1d(w, 2 * w, 5, padding=2, stride=2, bias=False), norm1d(norm, 2 * w), nn.ReLU(),
            nn.Conv1d(2 * w, 2 * w, 3, padding=1, bias=False), norm1d(norm, 2 * w), nn.ReLU(),
            nn.AdaptiveAvgPool1d(1), nn.Flatten(),
        )
        self.classifier = nn.Linear(2 * w, num_classes)
        self.maskable = ["features.3", "features.6"]

    def forward(self, x):
        return self.classifier(self.features(x))


@register("cnn1d")
def build_cnn1d(args: ModelArgs) -> nn.Module:
    return CNN1D(args.input_shape[0], args.num_classes, args.width or 32, args.norm)
