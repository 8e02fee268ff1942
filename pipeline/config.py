"""The experiment spec: one TOML file per experiment, validated into typed dataclasses.

Every table maps to a dataclass below; ``train``, ``replay`` and ``sparcl`` extend the session's own
tables (``android_harness.device.spec_tables``), so host and device validate one definition. ``kind``
keys pick from closed registries (methods and runtimes from the device layer, models from
``models``). ``load_spec``
reports every problem at once (as a ``ConfigError``, exit code 2) before any work starts.
"""
from __future__ import annotations

import hashlib
import json
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from android_harness.device.backends.loader import RUNTIMES
from android_harness.device.spec_schema import build, spec_field, to_dict
from android_harness.device.spec_tables import ReplayConfig, SparclConfig, TrainConfig, dgm_optimizer_problem, table_problems
from pipeline.errors import ConfigError
from pipeline.spec_limits import static_problems

DATASETS = ("digits", "fashion_mnist", "mnist", "cifar10", "cifar100", "fsdd", "watch", "arrays", "ts")
REMOVED_KEYS = {   # key of an older spec -> what replaces it
    "train.buffer_size": "replay.em_size (one key sizes the replay buffer)",
    "train.buffer_batch_size": "train.batch_size (a step trains batch_size rows of the epoch's EM ∪ SB pool)",
    "export.optimizer": "train.optimizer",
}


@dataclass
class DataSpec:
    """Which real dataset (a built-in one, or your own: ``arrays`` / ``ts``), and how it is cut into tasks."""

    kind: str = spec_field("digits", choices=DATASETS)
    root: Path | None = spec_field(None, must_exist=True, doc="folder with IDX files or CIFAR pickle batches")
    path: Path | None = spec_field(None, must_exist=True, doc="your data: arrays = an .npz, an .npy or a folder of "
                                   ".npy files; ts = a <Name>_TRAIN.ts file or its folder")
    labels: Path | None = spec_field(None, must_exist=True, doc="arrays: the labels' .npy when data.path is one .npy")
    scale: float = spec_field(1.0, gt=0.0, doc="arrays/ts: raw values are divided by this first (e.g. 255 for 8-bit images)")
    tasks: int = spec_field(5, ge=1, le=100)
    classes_per_task: int = spec_field(2, ge=1, le=100)
    class_order: str = spec_field("natural", choices=("natural", "seeded"))
    test_fraction: float = spec_field(0.25, gt=0.0, lt=1.0, doc="held-out share for sets without a test split")
    max_train_per_class: int = spec_field(0, ge=0, doc="0 = all; caps per-class training samples for quick runs")
    max_test_per_class: int = spec_field(0, ge=0)
    normalize: bool = spec_field(True, doc="standardise per channel with the training set's mean and std (after scale)")
    seq_len: int = spec_field(0, ge=0, le=10000, doc="sequence sets: frames per sample (0 = default: fsdd 40 MFCC "
                              "frames, watch 100 IMU steps, ts the longest series; shorter ones zero-padded)")


@dataclass
class ModelSpec:
    """Backbone: a registry name (``models.model_names()``), or your own ``package.module:Class`` /
    ``path/to/file.py:Class``; options common to every model."""

    kind: str = spec_field("mlp", doc="a registry name (edgecl models), or 'package.module:Class' / 'path/file.py:Class'")
    norm: str = spec_field("none", choices=("none", "batch"))
    width: int = spec_field(0, ge=0, doc="0 = the model's default width (e.g. nf=20 for resnet18_reduced)")
    hidden: list[int] = spec_field(default_factory=lambda: [100, 100])
    args: dict[str, Any] = spec_field(default_factory=dict, doc="your model's constructor arguments (num_classes, "
                                      "in_channels, in_features, input_shape are filled in from the data if it takes them)")
    maskable: list[str] = spec_field(default_factory=list, doc="layers SparCL masks; empty = the model's own list, else "
                                     "every Conv/Linear but the first and the classifier")


@dataclass
class TrainSpec(TrainConfig):
    """The CL recipe: the session's ``train`` table plus the optimizer the export bakes in."""

    optimizer: str = spec_field("sgd", choices=("sgd", "adamw"))
    momentum: float = spec_field(0.0, ge=0.0, lt=1.0)
    weight_decay: float = spec_field(0.0, ge=0.0)


@dataclass
class SparclSpec(SparclConfig):
    """SparCL: the session's ``sparcl`` table plus what only the export uses (masked layers, initial masks)."""

    layers: str = spec_field("auto", doc="'auto' = the model's default maskable layers, else a regex on module names")
    tdm_init_rescale: bool = spec_field(
        False, doc="after the magnitude-pruned init, restore each masked unit's dense weight norm (beyond the "
                   "paper, whose masked convs are followed by BatchNorm; see android_harness/device/sparcl/masks.py)")


ReplaySpec = ReplayConfig   # Miro's memory hierarchy: the session's ``replay`` table as it is


@dataclass
class ExportSpec:
    """How the training program is exported for the device."""

    runtime: str = spec_field("executorch", choices=RUNTIMES)
    fast_passes: bool = spec_field(True, doc="ExecuTorch: rewrite convolutions onto fast kernels")
    out: Path | None = spec_field(None)


@dataclass
class DeviceSpec:
    """Where the experiment runs."""

    serial: str = spec_field("", doc="adb serial; empty = ANDROID_SERIAL or the only device")
    serials: list[str] = spec_field(default_factory=list, doc="a device pool: runs spread over these serials (SERIAL or SERIAL@HOST:PORT)")
    vphone: bool = spec_field(False, doc="start a virtual phone for this run")
    vphone_preset: str = spec_field("pixel7")
    profile: Path | None = spec_field(None, must_exist=True, doc="TOML overriding probed profile fields")
    checkpoint_every: int = spec_field(0, ge=0, doc="steps between checkpoints, 0 = task end only")
    trace: bool = spec_field(False, doc="sessions write trace.jsonl (docs/semantics.md 11), for conformance checks")


@dataclass
class PowerSpec:
    """Power sampling during device runs."""

    enabled: bool = spec_field(True)
    rate_hz: float = spec_field(10.0, gt=0.0, le=1000.0)
    unplug: bool = spec_field(True, doc="dumpsys battery unplug before, reset after (always)")
    allow_charging: bool = spec_field(False, doc="report energy even where samples show charging")
    idle_seconds: float = spec_field(3.0, ge=0.0, doc="idle baseline measured before the run")


@dataclass
class MiroSpec:
    """Miro's online tuner (host side, from on-device measurements)."""

    enabled: bool = spec_field(False)
    start_task: int = spec_field(2, ge=1, doc="profile from this task on (1-based)")
    em_sizes: list[int] = spec_field(default_factory=lambda: [50, 100, 200, 400])
    sb_sizes: list[int] = spec_field(default_factory=lambda: [100, 200, 400])
    swap_ratios: list[float] = spec_field(default_factory=lambda: [0.25])
    subset_fraction: float = spec_field(0.2, gt=0.0, le=1.0)
    profile_epochs: int = spec_field(1, ge=1)
    profile_batches: int = spec_field(0, ge=0, doc="equal steps: size every candidate's profiling subset to this many "
                                      "batches per epoch (0 = the paper's one subset_fraction for all)")
    sample_fraction: float = spec_field(1.0, gt=0.0, le=1.0)
    search: str = spec_field("grid", choices=("grid", "random", "weighted_random", "halving"))
    scorer: str = spec_field("cutline", choices=("cutline", "weighted", "lowest_energy", "highest_accuracy"))
    cutline: float = spec_field(0.5, gt=0.0, le=1.0)
    cutline_se: float = spec_field(0.0, ge=0.0, doc="also keep candidates within this many standard errors (of the "
                                   "profiling evaluation's accuracy) of the cutline (0 = the authors' rank-only cutline)")
    energy: str = spec_field("measured", choices=("measured", "proxy"))
    battery_low: float = spec_field(20.0, ge=0.0, le=100.0, doc="battery %% below which energy weighs more")
    grid: str = spec_field("custom", choices=("custom", "cifar100", "urbansound8k", "dsads"),
                           doc="'custom' = em_sizes x sb_sizes; else the authors' grid scaled to the task size")
    swap_periods: list[int] = spec_field(default_factory=lambda: [1])
    sparsities: list[float] = spec_field(default_factory=list, doc="SparCL sparsities to tune jointly (empty = not tuned)")
    ddr_fractions: list[float] = spec_field(default_factory=list, doc="SparCL DDR fractions to tune jointly (empty = not tuned)")
    checkpoint_epochs: int = spec_field(1, ge=0, doc="epochs of the shared mini-checkpoint on the subset (0 = none)")
    budget_epochs: int = spec_field(0, ge=0, doc="halving: profiling epochs per task (0 = half of the grid's)")
    halving_eta: int = spec_field(2, ge=2, le=8)
    acc_weight: float = spec_field(0.5, ge=0.0, doc="weighted scorer: accuracy coefficient")
    energy_weight: float = spec_field(0.5, ge=0.0, doc="weighted scorer: energy coefficient")
    battery_critical: float = spec_field(10.0, ge=0.0, le=100.0, doc="battery %% below which the cheapest candidates win")
    thermal_temp_c: float = spec_field(45.0, gt=0.0, doc="temperature treated as thermal throttling")
    mem_pressure: float = spec_field(0.15, gt=0.0, lt=1.0, doc="MemAvailable/MemTotal below which the space shrinks")
    ram_share: float = spec_field(0.25, gt=0.0, le=1.0, doc="share of RAM EM + SB may occupy: a run whose EM + SB exceed it of the phone's total RAM is refused before any push; Miro keeps its candidates within it of MemAvailable at each task")


@dataclass
class ExperimentSpec:
    """One experiment: data -> model -> recipe (-> SparCL) -> export -> device -> Miro -> report."""

    name: str = spec_field("experiment")
    seed: int = spec_field(0, ge=0, lt=2**63)
    data: DataSpec = field(default_factory=DataSpec)
    model: ModelSpec = field(default_factory=ModelSpec)
    train: TrainSpec = field(default_factory=TrainSpec)
    sparcl: SparclSpec = field(default_factory=SparclSpec)
    export: ExportSpec = field(default_factory=ExportSpec)
    replay: ReplaySpec = field(default_factory=ReplaySpec)
    device: DeviceSpec = field(default_factory=DeviceSpec)
    power: PowerSpec = field(default_factory=PowerSpec)
    miro: MiroSpec = field(default_factory=MiroSpec)

    def to_dict(self) -> dict[str, Any]:
        return to_dict(self)

    def digest(self) -> str:
        """A stable hash of the resolved spec (cache keys, result folders)."""
        blob = json.dumps(self.to_dict(), sort_keys=True).encode()
        return hashlib.sha256(blob).hexdigest()[:16]


def _cross_checks(spec: ExperimentSpec) -> list[str]:
    from models import model_names  # the one model registry (imports torch: only when a spec is checked)
    from models.user_model import is_user_kind

    problems = static_problems(spec) + table_problems(spec.sparcl)
    tr, sp, miro = spec.train, spec.sparcl, spec.miro
    if spec.model.kind not in model_names() and not is_user_kind(spec.model.kind):
        problems.append(f"model.kind: expected one of {', '.join(map(repr, model_names()))}, or your own "
                        f"'package.module:Class' / 'path/to/file.py:Class'; got {spec.model.kind!r}")
    if spec.data.kind in ("cifar10", "cifar100") and spec.data.root is None:
        problems.append(f"data.root: dataset {spec.data.kind!r} needs the folder of its python pickle batches")
    dgm = dgm_optimizer_problem(sp, tr.optimizer, tr.momentum, tr.weight_decay)
    if dgm:
        problems.append(dgm)
    if spec.export.runtime == "ort" and tr.optimizer == "sgd" and (tr.momentum or tr.weight_decay):
        problems.append("train.momentum/weight_decay: ONNX Runtime's SGD has neither; set them to 0, use "
                        "train.optimizer = 'adamw' or export.runtime = 'executorch'")
    if miro.enabled and not miro.em_sizes:
        problems.append("miro.em_sizes: expected at least one candidate EM size")
    if miro.enabled and not miro.sb_sizes:
        problems.append("miro.sb_sizes: expected at least one candidate SB size")
    if miro.sparsities and not sp.tdm_on:
        problems.append("miro.sparsities: tuning the sparsity needs sparcl.enabled = true and sparcl.tdm = true")
    if miro.ddr_fractions and not (sp.enabled and sp.ddr):
        problems.append("miro.ddr_fractions: tuning data removal needs sparcl.enabled = true and sparcl.ddr = true")
    from pipeline.spec_inputs import input_problems  # data files and the model: torch, so imported when needed

    return problems + input_problems(spec, model=not any(p.startswith("model.") for p in problems))


def _removed_keys(table: dict[str, Any]) -> list[str]:
    problems = []
    for dotted, instead in REMOVED_KEYS.items():
        section, key = dotted.split(".")
        if isinstance(table.get(section), dict) and key in table[section]:
            problems.append(f"{dotted}: this key is gone; use {instead}")
            del table[section][key]
    return problems


def parse_spec(table: dict[str, Any], source: str = "spec") -> ExperimentSpec:
    """Validate an already-parsed table; raise ``ConfigError`` listing every problem."""
    table = {k: dict(v) if isinstance(v, dict) else v for k, v in table.items()}
    removed = _removed_keys(table)
    spec, problems = build(ExperimentSpec, table)
    problems = removed + problems
    if spec is not None:
        problems += _cross_checks(spec)
    if problems or spec is None:
        raise ConfigError(problems, source=source)
    return spec


def parse_overrides(pairs: list[str]) -> dict[str, Any]:
    """``key=value`` pairs (``--set``); values are read as TOML (numbers, booleans, lists), else taken as strings."""
    out: dict[str, Any] = {}
    for pair in pairs:
        key, sep, raw = pair.partition("=")
        if not sep or not key.strip():
            raise ConfigError(f"--set {pair!r}: expected key=value, e.g. train.epochs=2")
        try:
            value = tomllib.loads(f"v = {raw}")["v"]
        except tomllib.TOMLDecodeError:
            value = raw
        out[key.strip()] = value
    return out


def load_spec(path: str | Path, overrides: dict[str, Any] | None = None) -> ExperimentSpec:
    """Read and validate a spec file; ``overrides`` are dotted keys (``train.epochs``) set on top."""
    path = Path(path)
    if not path.is_file():
        raise ConfigError(f"spec file {str(path)!r} does not exist", source=str(path))
    try:
        table = tomllib.loads(path.read_text())
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ConfigError(f"not valid TOML: {exc}", source=str(path)) from None
    for dotted, value in (overrides or {}).items():
        node = table
        *parents, leaf = dotted.split(".")
        for p in parents:
            node = node.setdefault(p, {})
            if not isinstance(node, dict):
                raise ConfigError(f"{dotted}: {p!r} is not a table", source=str(path))
        node[leaf] = value
    return parse_spec(table, source=str(path))
