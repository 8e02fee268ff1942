"""The inputs a user brings, checked against each other when the spec is read: the data (a
built-in dataset or their own files) and the model (a registry name or their own class).

``input_problems`` reads only what it must (array headers and labels, one parse of a ``.ts``
file, the catalogue's shapes for built-in datasets), builds the model and runs one forward pass
on the data's sample shape, and returns every problem as a ``key: what is wrong`` line.
"""
from __future__ import annotations

import math
from typing import TYPE_CHECKING

from pipeline.datasets.registry import CATALOG
from pipeline.datasets.user_data import USER_KINDS, probe
from pipeline.errors import ConfigError, DataError

if TYPE_CHECKING:
    from pipeline.config import DataSpec, ExperimentSpec

SEQUENCE_SETS = ("fsdd", "watch")


def data_shape(data: "DataSpec") -> tuple[tuple[int, ...], int, str]:
    """(sample shape, class count, a label for messages) of ``data``, without loading its samples."""
    if data.kind in USER_KINDS:
        info = probe(data)
        return info.input_shape, info.num_classes, f"data.path {str(data.path)!r}"
    info = CATALOG[data.kind]
    shape = info.sample_shape
    if data.kind in SEQUENCE_SETS and data.seq_len:
        shape = (shape[0], data.seq_len)
    return shape, info.num_classes, f"data.kind {data.kind!r}"


def _key_problems(spec: "ExperimentSpec") -> list[str]:
    d, m = spec.data, spec.model
    user = d.kind in USER_KINDS
    out = []
    if user and d.path is None:
        out.append(f"data.path: kind {d.kind!r} needs your data's file or folder")
    if not user and d.path is not None:
        out.append(f"data.path: only for your own data (kind 'arrays' or 'ts'); dataset {d.kind!r} reads data.root")
    if d.labels is not None and d.kind != "arrays":
        out.append("data.labels: only for kind 'arrays' with data.path naming one .npy of samples")
    if d.scale != 1.0 and not user:
        out.append(f"data.scale: only for your own data (kind 'arrays' or 'ts'); {d.kind!r} is already in [0, 1] "
                   "or its own units")
    if d.kind == "arrays" and d.seq_len:
        out.append("data.seq_len: not used by kind 'arrays' (samples keep their stored shape)")
    if ":" not in m.kind and m.args:
        out.append("model.args: only for your own model (kind = 'package.module:Class'); built-in models take "
                   "norm, width and hidden")
    return out


def input_problems(spec: "ExperimentSpec", model: bool = True) -> list[str]:
    """Problems of the data and the model against each other (empty when they fit); ``model=False``
    checks the data alone (the spec's model keys already have problems of their own)."""
    problems = _key_problems(spec)
    if problems:
        return problems
    try:
        shape, classes, label = data_shape(spec.data)
    except DataError as exc:
        return [f"data.path: {exc}"]
    needed = spec.data.tasks * spec.data.classes_per_task
    if needed > classes:
        problems.append(f"data.tasks x data.classes_per_task: {spec.data.tasks} x {spec.data.classes_per_task} = "
                        f"{needed} classes, but {label} has {classes}")
    if math.prod(shape) == 0:
        return problems + [f"{label.split(' ')[0]}: samples of shape {shape} hold no values"]
    if not model:
        return problems
    from models.registry import maskable_layers, prunable_layers
    from pipeline.spec_model import build_spec_model

    try:
        model = build_spec_model(spec.model, shape, classes, label)
    except ConfigError as exc:
        return problems + exc.problems
    if spec.sparcl.enabled and spec.sparcl.layers == "auto" and not maskable_layers(model):
        problems.append(f"model.maskable: SparCL is on but {spec.model.kind!r} has no layer to mask (by default every "
                        f"Conv/Linear but the first and the classifier; it has {', '.join(prunable_layers(model))}); "
                        "list the layers in model.maskable")
    return problems
