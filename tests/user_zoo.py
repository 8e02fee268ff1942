"""User-style models, written as a newcomer would write them (plain torch, any tensor idiom torch.export
accepts), that every export must handle with the fast passes on. Each takes the arguments edgecl
fills in (``in_channels`` / ``in_features``, ``num_classes``) and is loaded by file path."""
from __future__ import annotations

import torch
from torch import nn


def _pool(kind: str) -> nn.Module:
    """The last 4 x 4 feature map to 1 x 1: "global" (AdaptiveAvgPool2d(1), lowered to a mean), "avg"
    (AvgPool2d(4)) or "adaptive" (AdaptiveAvgPool2d(2) then a sum); the last two have no backward kernel
    in ExecuTorch's runtime."""
    if kind == "global":
        return nn.AdaptiveAvgPool2d(1)
    if kind == "avg":
        return nn.AvgPool2d(4)
    return nn.Sequential(nn.AdaptiveAvgPool2d(2), nn.AvgPool2d(2))


class PlainCNN(nn.Module):
    """conv-ReLU-conv-ReLU-maxpool-conv-ReLU, then ``flatten(1)`` straight into a Linear."""

    def __init__(self, in_channels: int, num_classes: int, side: int = 8, use_reshape: bool = False) -> None:
        super().__init__()
        self.conv1 = nn.Conv2d(in_channels, 8, 3, padding=1)
        self.conv2 = nn.Conv2d(8, 8, 3, padding=1)
        self.pool = nn.MaxPool2d(2)
        self.conv3 = nn.Conv2d(8, 8, 3, padding=1)
        self.fc = nn.Linear(8 * (side // 2) ** 2, num_classes)
        self.use_reshape = use_reshape

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = torch.relu(self.conv1(x))
        x = self.pool(torch.relu(self.conv2(x)))
        x = torch.relu(self.conv3(x))
        x = x.reshape(x.shape[0], -1) if self.use_reshape else x.flatten(1)
        return self.fc(x)


class AvgPoolCNN(nn.Module):
    """Three convolutions and an ``nn.AvgPool2d``, ``view`` into the classifier."""

    def __init__(self, in_channels: int, num_classes: int) -> None:
        super().__init__()
        self.conv1 = nn.Conv2d(in_channels, 6, 3, padding=1)
        self.conv2 = nn.Conv2d(6, 12, 3, stride=2, padding=1)
        self.conv3 = nn.Conv2d(12, 12, 3, padding=1)
        self.pool = nn.AvgPool2d(2)
        self.fc = nn.Linear(12 * 2 * 2, num_classes)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = torch.relu(self.conv1(x))
        x = torch.relu(self.conv2(x))
        x = self.pool(torch.relu(self.conv3(x)))
        return self.fc(x.view(x.size(0), -1))


class Residual(nn.Module):
    """Two residual blocks (identity adds, a strided 1x1 shortcut), BatchNorm, global average pool."""

    def __init__(self, in_channels: int, num_classes: int, width: int = 8, pool: str = "global") -> None:
        super().__init__()
        self.stem = nn.Conv2d(in_channels, width, 3, padding=1, bias=False)
        self.bn0 = nn.BatchNorm2d(width)
        self.a1 = nn.Conv2d(width, width, 3, padding=1)
        self.a2 = nn.Conv2d(width, width, 3, padding=1)
        self.b1 = nn.Conv2d(width, 2 * width, 3, stride=2, padding=1)
        self.b2 = nn.Conv2d(2 * width, 2 * width, 3, padding=1)
        self.short = nn.Conv2d(width, 2 * width, 1, stride=2)
        self.pool = _pool(pool)
        self.fc = nn.Linear(2 * width, num_classes)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = torch.relu(self.bn0(self.stem(x)))
        x = torch.relu(x + self.a2(torch.relu(self.a1(x))))
        x = torch.relu(self.short(x) + self.b2(torch.relu(self.b1(x))))
        return self.fc(torch.flatten(self.pool(x), 1))


class Depthwise(nn.Module):
    """Depthwise-separable blocks with GroupNorm, global mean pooling by ``mean(dim=(2, 3))``."""

    def __init__(self, in_channels: int, num_classes: int, pool: str = "mean") -> None:
        super().__init__()
        self.stem = nn.Conv2d(in_channels, 8, 3, padding=1)
        self.dw = nn.Conv2d(8, 8, 3, padding=1, groups=8)
        self.pw = nn.Conv2d(8, 16, 1)
        self.norm = nn.GroupNorm(4, 16)
        self.dw2 = nn.Conv2d(16, 16, 3, stride=2, padding=1, groups=16)
        self.pw2 = nn.Conv2d(16, 16, 1)
        self.pool = None if pool == "mean" else _pool(pool)
        self.fc = nn.Linear(16, num_classes)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = torch.relu(self.stem(x))
        x = torch.relu(self.norm(self.pw(self.dw(x))))
        x = torch.relu(self.pw2(self.dw2(x)))
        return self.fc(x.mean(dim=(2, 3)) if self.pool is None else self.pool(x).flatten(1))


class SeqModel(nn.Module):
    """A sequence model on (C, T): Conv1d features, then a per-step Linear applied through
    ``transpose`` + ``reshape``, LayerNorm, and the last step's features into the classifier."""

    def __init__(self, in_channels: int, num_classes: int, width: int = 8) -> None:
        super().__init__()
        self.conv1 = nn.Conv1d(in_channels, width, 3, padding=1)
        self.conv2 = nn.Conv1d(width, width, 5, padding=2)
        self.step = nn.Linear(width, width)
        self.norm = nn.LayerNorm(width)
        self.fc = nn.Linear(width, num_classes)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = torch.relu(self.conv2(torch.relu(self.conv1(x))))      # (N, W, T)
        n, w, t = h.shape
        steps = h.transpose(1, 2).reshape(n * t, w)                  # one row per time step
        steps = self.norm(torch.relu(self.step(steps))).view(n, t, w)
        return self.fc(steps[:, -1])


class FlatMLP(nn.Module):
    """A wide MLP whose hidden output is viewed back into (N, 4, -1) and summed: a view of a Linear
    output after the transposed-matmul rewrite."""

    def __init__(self, in_features: int, num_classes: int) -> None:
        super().__init__()
        self.l1 = nn.Linear(in_features, 256)
        self.l2 = nn.Linear(256, 256)
        self.out = nn.Linear(64, num_classes)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = torch.relu(self.l1(x.flatten(1)))
        h = torch.relu(self.l2(h))
        return self.out(h.view(h.shape[0], 4, 64).sum(dim=1))
