"""Deploy: push what changed, skip what matches, verify on the device, redo corrupted files."""
from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import pytest

import android_harness.deploy as deploy_mod
from android_harness.android_device import AndroidDevice
from android_harness.deploy import TMP_SUFFIX, deploy
from pipeline.errors import DataError, DeviceError


def make_export(folder: Path, sizes: dict[str, int]) -> Path:
    """An export folder with random files and an edgecl-manifest/1 manifest."""
    entries = []
    for rel, size in sizes.items():
        p = folder / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(os.urandom(size))
        entries.append({"path": rel, "sha256": hashlib.sha256(p.read_bytes()).hexdigest(), "size": size})
    manifest = folder / "manifest.json"
    manifest.write_text(json.dumps({"format": "edgecl-manifest/1", "files": entries}))
    return manifest


FILES = {"model.pte": 300_000, "weights/part 1.bin": 1_000_000, "meta.txt": 100}


@pytest.fixture()
def export(tmp_path: Path) -> Path:
    return make_export(tmp_path / "exp", FILES)


@pytest.fixture()
def name(device: AndroidDevice, request: pytest.FixtureRequest):
    n = f"t_{request.node.name}"
    yield n
    device.shell(["rm", "-rf", device.storage_path("models", n)], check=False)


def _remote_sha(device: AndroidDevice, path: str) -> str:
    return device.shell(["sha256sum", path]).stdout.split()[0]


def test_deploy_then_redeploy_moves_nothing(device: AndroidDevice, export: Path, name: str) -> None:
    first = deploy(device, export, name=name)
    assert sorted(first.pushed) == sorted([*FILES, "manifest.json"]) and not first.skipped
    assert first.bytes_moved == sum(FILES.values()) + export.stat().st_size
    assert first.simulated == device.profile.simulated
    for rel in FILES:
        local = hashlib.sha256((export.parent / rel).read_bytes()).hexdigest()
        assert _remote_sha(device, f"{first.remote_dir}/{rel}") == local
    again = deploy(device, export, name=name)
    assert again.pushed == [] and again.bytes_moved == 0
    assert sorted(again.skipped) == sorted([*FILES, "manifest.json"])
    leftovers = device.shell(["find", first.remote_dir, "-name", f"*{TMP_SUFFIX}"]).stdout
    assert leftovers == ""


def test_corrupted_and_interrupted_files_are_redone(device: AndroidDevice, export: Path, name: str) -> None:
    r = deploy(device, export, name=name)
    d = r.remote_dir
    device.shell(["sh", "-c", 'printf X >> "$1"', "sh", f"{d}/model.pte"])          # corrupted later
    device.shell(["rm", f"{d}/meta.txt"])                                           # interrupted push:
    device.shell(["sh", "-c", 'printf partial > "$1"', "sh", f"{d}/meta.txt{TMP_SUFFIX}"])  # only a temp left
    again = deploy(device, export, name=name)
    assert sorted(again.pushed) == ["meta.txt", "model.pte"]
    assert again.redone == ["model.pte"]
    assert again.bytes_moved == FILES["model.pte"] + FILES["meta.txt"]
    for rel in ("model.pte", "meta.txt"):
        assert _remote_sha(device, f"{d}/{rel}") == hashlib.sha256((export.parent / rel).read_bytes()).hexdigest()
    assert not device.stat(f"{d}/meta.txt{TMP_SUFFIX}").exists


def test_verify_catches_a_bad_push_and_redoes_it(device: AndroidDevice, export: Path, name: str,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    real_verify = deploy_mod._verify_and_rename
    calls: list[list[str]] = []
    target = "weights/part 1.bin"

    def corrupting_verify(dev, remote_dir, files):          # a temp goes bad once, before its check
        if target in [f.rel for f in files] and not any(target in c for c in calls):
            dev.shell(["sh", "-c", 'printf Y >> "$1"', "sh", f"{remote_dir}/{target}{TMP_SUFFIX}"])
        calls.append([f.rel for f in files])
        return real_verify(dev, remote_dir, files)

    monkeypatch.setattr(deploy_mod, "_verify_and_rename", corrupting_verify)
    r = deploy(device, export, name=name)
    assert calls[-1] == [target] and sum(c.count(target) for c in calls) == 2
    assert r.redone == [target] and sorted(r.pushed) == sorted([*FILES, "manifest.json"])
    local = hashlib.sha256((export.parent / "weights/part 1.bin").read_bytes()).hexdigest()
    assert _remote_sha(device, f"{r.remote_dir}/weights/part 1.bin") == local


def test_free_space_check_refuses_before_pushing(device: AndroidDevice, export: Path, name: str,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(deploy_mod, "SPACE_MARGIN_BYTES", 2 ** 60)
    with pytest.raises(DeviceError, match="not enough space"):
        deploy(device, export, name=name)
    assert device.shell(["ls", device.storage_path("models", name)]).stdout == ""


def test_bad_manifest_is_named(device: AndroidDevice, export: Path, name: str) -> None:
    data = json.loads(export.read_text())
    data["files"][0]["size"] += 1
    data["files"].append({"path": "../escape", "sha256": "0" * 64, "size": 1})
    export.write_text(json.dumps(data))
    with pytest.raises(DataError) as info:
        deploy(device, export, name=name)
    assert "model.pte" in str(info.value) and "../escape" in str(info.value)


def test_local_file_changed_since_export_is_refused(device: AndroidDevice, export: Path, name: str) -> None:
    target = export.parent / "meta.txt"
    target.write_bytes(bytes(b ^ 1 for b in target.read_bytes()))         # same size, other bytes
    with pytest.raises(DataError, match="meta.txt"):
        deploy(device, export, name=name)
    d = device.storage_path("models", name)
    assert device.shell(["find", d, "-name", f"*{TMP_SUFFIX}"]).stdout == ""
    assert not device.stat(f"{d}/meta.txt").exists


def test_cli_push_devices_and_shell(device: AndroidDevice, export: Path, name: str) -> None:
    import typer
    from typer.testing import CliRunner

    from pipeline.cli.device_cmds import register

    app = typer.Typer()
    register(app)
    env = {"ANDROID_ADB_SERVER_PORT": str(device.adb.server.port),
           "ANDROID_ADB_SERVER_HOST": device.adb.server.host, "ADB_SERVER_SOCKET": ""}
    runner = CliRunner()
    res = runner.invoke(app, ["push", str(export), "--serial", device.serial, "--name", name], env=env)
    assert res.exit_code == 0, res.output
    assert "pushed 4, skipped 0" in " ".join(res.output.split())         # rich wraps at 80 columns
    res = runner.invoke(app, ["push", str(export), "--serial", device.serial, "--name", name], env=env)
    out = " ".join(res.output.split())
    assert "pushed 0, skipped 4" in out and "0.0 MB" in out
    res = runner.invoke(app, ["devices"], env=env)
    assert device.serial in res.output and "device" in res.output
    res = runner.invoke(app, ["shell", "--serial", device.serial, "--", "sh", "-c", "echo 'a b'; exit 4"], env=env)
    assert res.exit_code == 4 and "a b" in res.output
