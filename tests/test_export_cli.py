"""``edgecl export SPEC --runtime ort --out DIR`` on the Split Digits spec: folder, manifest, summary, cache."""
from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from android_harness.device.backends import load_backend, read_manifest
from pipeline.cli.app import app

SPEC = Path(__file__).resolve().parents[1] / "experiments" / "split-digits.toml"


def test_export_command_writes_a_loadable_export_and_reuses_it(tmp_path):
    runner = CliRunner()
    args = ["export", str(SPEC), "--runtime", "ort", "--out", str(tmp_path / "out"), "--cache", str(tmp_path / "cache")]
    first = runner.invoke(app, args)
    assert first.exit_code == 0, first.output
    assert "parameters 17,610" in first.output and "FLOPs/step" in first.output and "checkpoint" in first.output
    manifest = read_manifest(tmp_path / "out")
    assert manifest["model"]["kind"] == "mlp" and manifest["batch_size"] == 32 and manifest["spec_hash"]   # train.batch_size rows
    assert load_backend(tmp_path / "out").signature.num_classes == 10
    again = runner.invoke(app, args)
    assert again.exit_code == 0 and "cached" in again.output


def test_export_command_rejects_unknown_runtime(tmp_path):
    result = CliRunner().invoke(app, ["export", str(SPEC), "--runtime", "tflite", "--out", str(tmp_path / "o")])
    assert result.exit_code != 0
    assert "tflite" in str(result.exception) or "tflite" in result.output
