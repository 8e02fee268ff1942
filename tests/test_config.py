"""Spec validation: every bad key named, all problems at once, exit code 2 through the CLI, no traceback."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from pipeline.config import load_spec, parse_overrides, parse_spec
from pipeline.errors import ConfigError

ROOT = Path(__file__).resolve().parents[1]


def problems_of(table: dict) -> list[str]:
    with pytest.raises(ConfigError) as info:
        parse_spec(table)
    return info.value.problems


@pytest.mark.parametrize("spec", sorted((ROOT / "experiments").glob("*.toml")), ids=lambda p: p.name)
def test_shipped_specs_validate(spec):
    assert load_spec(spec).name


def test_unknown_key_named():
    (p,) = problems_of({"train": {"epoch": 3}})
    assert p.startswith("train.epoch: unknown key") and "epochs" in p


def test_wrong_type_named():
    (p,) = problems_of({"train": {"lr": "fast"}})
    assert p.startswith("train.lr: expected a number")
    (p,) = problems_of({"data": {"tasks": 2.5}})
    assert p.startswith("data.tasks: expected an integer")


def test_out_of_range_and_choice_named():
    probs = problems_of({"train": {"epochs": 0, "method": "ewc"}, "data": {"test_fraction": 1.5}})
    assert len(probs) == 3
    assert any(p.startswith("train.epochs: expected a value >= 1") for p in probs)
    assert any(p.startswith("train.method: expected one of") and "'derpp'" in p for p in probs)
    assert any(p.startswith("data.test_fraction: expected a value < 1") for p in probs)


def test_missing_file_named(tmp_path):
    (p,) = problems_of({"data": {"kind": "mnist", "root": str(tmp_path / "absent")}})
    assert p.startswith("data.root: file or folder") and "absent" in p


def test_overrides_are_typed_and_checked():
    spec = load_spec(ROOT / "experiments/split-digits.toml", parse_overrides(["train.epochs=2", "train.method=er",
                                                                             "model.hidden=[64]"]))
    assert spec.train.epochs == 2 and spec.train.method == "er" and spec.model.hidden == [64]
    with pytest.raises(ConfigError, match="expected key=value"):
        parse_overrides(["train.epochs"])


def test_removed_keys_name_their_replacement():
    probs = problems_of({"train": {"buffer_size": 200, "buffer_batch_size": 32}, "export": {"optimizer": "sgd"}})
    assert sorted(p.split(":")[0] for p in probs) == ["export.optimizer", "train.buffer_batch_size", "train.buffer_size"]
    assert any("replay.em_size" in p for p in probs) and any("train.batch_size" in p for p in probs)


def test_a_spec_that_validates_exports():
    """Closed registries from one definition: runtimes the exporter has, models the registry has."""
    (p,) = problems_of({"export": {"runtime": "torch"}})
    assert p.startswith("export.runtime: expected one of 'executorch', 'ort'")
    (p,) = problems_of({"model": {"kind": "vgg"}})
    assert p.startswith("model.kind: expected one of") and "'mlp'" in p
    (p,) = problems_of({"export": {"runtime": "ort"}, "train": {"momentum": 0.9}})
    assert p.startswith("train.momentum/weight_decay: ONNX Runtime's SGD")


@pytest.mark.parametrize("train", [{"momentum": 0.9}, {"weight_decay": 1e-4}, {"optimizer": "adamw"}])
def test_dgm_needs_plain_sgd(train):
    """docs/semantics.md 4.7: a gradient-masked weight must not move, which only plain SGD guarantees."""
    (p,) = problems_of({"sparcl": {"enabled": True}, "train": train, "export": {"runtime": "executorch"}})
    assert p.startswith("sparcl.dgm: gradient masking is defined for plain SGD only")
    assert parse_spec({"sparcl": {"enabled": True, "dgm": False}, "train": train, "export": {"runtime": "executorch"}})


def test_session_tables_are_the_spec_tables():
    """The device session's train/replay/sparcl dataclasses ARE the spec's (extended, never mirrored)."""
    import dataclasses

    from android_harness.device.spec_tables import ReplayConfig, SparclConfig, TrainConfig
    from pipeline.config import ReplaySpec, SparclSpec, TrainSpec

    assert ReplaySpec is ReplayConfig and issubclass(TrainSpec, TrainConfig) and issubclass(SparclSpec, SparclConfig)
    for host, device in ((TrainSpec, TrainConfig), (SparclSpec, SparclConfig)):
        base = {f.name: f for f in dataclasses.fields(device)}
        for f in dataclasses.fields(host):
            if f.name in base:
                assert f is base[f.name] or (f.default, f.metadata) == (base[f.name].default, base[f.name].metadata)


def run_cli(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", "from pipeline.cli.app import main; main()", *args],
                          capture_output=True, text=True, cwd=cwd, timeout=120,
                          env={**os.environ, "COLUMNS": "200"})


def test_cli_bad_spec_exits_2_without_traceback(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('[train]\nepochs = "many"\nlearning_rate = 0.1\n[data]\nkind = "mnist"\nroot = "/no/such/dir"\n')
    res = run_cli("train-host", str(bad))
    assert res.returncode == 2, res.stderr
    assert "Traceback" not in res.stderr + res.stdout
    for key in ("train.epochs", "train.learning_rate", "data.root"):
        assert key in res.stderr
    res = run_cli("train-host", str(tmp_path / "missing.toml"))
    assert res.returncode == 2 and "does not exist" in res.stderr and "Traceback" not in res.stderr
    bad.write_text("[train\n")
    res = run_cli("train-host", str(bad))
    assert res.returncode == 2 and "not valid TOML" in res.stderr
    res = run_cli("train-host", str(ROOT / "experiments/split-digits.toml"), "--set", "train.alpha=-1")
    assert res.returncode == 2 and "train.alpha" in res.stderr and "Traceback" not in res.stderr


def test_cli_datasets_lists_sources():
    res = run_cli("datasets")
    assert res.returncode == 0, res.stderr
    assert "digits" in res.stdout and "fashion_mnist" in res.stdout and "sklearn" in res.stdout
