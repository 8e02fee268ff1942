"""Small building blocks shared by the model files."""
from __future__ import annotations

from torch import nn


def norm2d(kind: str, channels: int) -> nn.Module:
    return nn.BatchNorm2d(channels) if kind == "batch" else nn.Identity()


def norm1d(kind: str, channels: int) -> nn.Module:
    return nn.BatchNorm1d(channels) if kind == "batch" else nn.Identity()


def conv3x3(cin: int, cout: int, stride: int = 1) -> nn.Conv2d:
    return nn.Conv2d(cin, cout, 3, stride=stride, padding=1, bias=False)
