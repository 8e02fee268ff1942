"""ResNet-18, CIFAR variant (3x3 stem, no max-pool), as in mammoth/SparCL.

``resnet18_reduced`` is the CL literature's nf=20 variant; ``resnet18`` uses nf=64. SparCL masks
the 3x3 convs inside residual blocks; the stem, 1x1 shortcuts, norms and classifier stay dense.
"""
from __future__ import annotations

import torch.nn.functional as F
from torch import nn

from models.layers import conv3x3, norm2d
from models.registry import ModelArgs, register


class BasicBlock(nn.Module):
    def __init__(self, cin: int, cout: int, stride: int, norm: str) -> None:
        super().__init__()
        self.conv1 = conv3x3(cin, cout, stride)
        self.bn1 = norm2d(norm, cout)
        self.conv2 = conv3x3(cout, cout)
        self.bn2 = norm2d(norm, cout)
        self.shortcut = nn.Sequential()
        if stride != 1 or cin != cout:
            self.shortcut = nn.Sequential(nn.Conv2d(cin, cout, 1, stride=stride, bias=False), norm2d(norm, cout))

    def forward(self, x):
        out = F.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        return F.relu(out + self.shortcut(x))


class ResNet18(nn.Module):
    def __init__(self, in_channels: int, num_classes: int, nf: int, norm: str = "none") -> None:
        super().__init__()
        self.conv1 = conv3x3(in_channels, nf)
        self.bn1 = norm2d(norm, nf)
        widths, strides = (nf, 2 * nf, 4 * nf, 8 * nf), (1, 2, 2, 2)
        cin = nf
        stages = []
        for w, s in zip(widths, strides):
            stages.append(nn.Sequential(BasicBlock(cin, w, s, norm), BasicBlock(w, w, 1, norm)))
            cin = w
        self.layer1, self.layer2, self.layer3, self.layer4 = stages
        self.classifier = nn.Linear(8 * nf, num_classes)
        self.maskable = [
            f"layer{i}.{b}.conv{c}" for i in range(1, 5) for b in range(2) for c in (1, 2)
        ]

    def forward(self, x):
        out = F.relu(self.bn1(self.conv1(x)))
        out = self.layer4(self.layer3(self.layer2(self.layer1(out))))
        out = F.adaptive_avg_pool2d(out, 1).flatten(1)
        return self.classifier(out)


@register("resnet18_reduced")
def build_resnet18_reduced(args: ModelArgs) -> nn.Module:
    return ResNet18(args.input_shape[0], args.num_classes, args.width or 20, args.norm)


@register("resnet18")
def build_resnet18(args: ModelArgs) -> nn.Module:
    return ResNet18(args.input_shape[0], args.num_classes, args.width or 64, args.norm)
