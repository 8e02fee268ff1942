"""Malformed programs never crash the native runner (x86_64 build): it verifies a program whole before it
reads it, so a bad export fails its own session with one line and the persistent runner keeps serving.

- 1,000 mutants of a real training.pte, each with a manifest listing its size and sha256 (so the hash
  check passes and the runtime's own checks are what is tested): 900 single-byte changes in the
  flatbuffer (where a byte is an offset, a length or an index; the weights after it take any value)
  and 100 truncations. `edgecl-runner check-program` loads each as a session would (with its trial
  step in a child process), many per process: every mutant gets its one line, no process dies of a
  signal, and some are refused only by the trial (ExecuTorch does not check kernel argument kinds).
- The program whose root offset (its first byte) is changed: one error naming the file, exit 1,
  result.json and a whole log, no reserve left behind.
- The arm64 build (under qemu) gives every tenth mutant the same line as the x86_64 build, trial-step
  crashes included: a bad export is refused alike on the phone and the host.
- A served runner given refused mutants (byte changes, truncations, and programs that crash the runtime's
  trial step) and accepted ones, then a good session: each refused one ends with the one-line error
  check-program gave, every session ends with result.json, the good one ok, the server never died.
"""
from __future__ import annotations

import hashlib
import json
import os
import struct
import subprocess
from pathlib import Path

import numpy as np
import pytest

from android_harness.native import run_prefix
from tests._native_bins import runner_binary
from tests._runner_env import executorch_env, traced_session
from tests._small_disk import events_of

pytestmark = [pytest.mark.slow, pytest.mark.timeout(1800)]
ABI = "x86_64"
BYTE_MUTANTS, TRUNCATIONS = 900, 100
PER_PROCESS = 200
INVALID = "not a valid ExecuTorch program (truncated, corrupt or from another version)"
TRIAL = "the export crashes the runtime on a trial step"


@pytest.fixture(scope="module")
def env(tmp_path_factory):
    return executorch_env(tmp_path_factory.mktemp("fuzz-root"), runner_binary(ABI), epochs=1)


def _flatbuffer_size(pte: bytes) -> int:
    """The flatbuffer's length from the extended header ('eh00' at byte 8: length, program size, ...)."""
    assert pte[8:12] == b"eh00", "the export has no extended header"
    return struct.unpack_from("<Q", pte, 16)[0]


def mutants(pte: bytes, seed: int = 35) -> list[tuple[str, bytes]]:
    """(name, bytes): single-byte changes at distinct flatbuffer offsets, then truncations at distinct lengths."""
    rng = np.random.default_rng(seed)
    out = []
    for pos in sorted(rng.choice(_flatbuffer_size(pte), BYTE_MUTANTS, replace=False).tolist()):
        data = bytearray(pte)
        data[pos] ^= int(rng.integers(1, 256))
        out.append((f"b{pos}", bytes(data)))
    for n in sorted(rng.choice(np.arange(1, len(pte)), TRUNCATIONS, replace=False).tolist()):
        out.append((f"t{n}", pte[:n]))
    return out


def export_with(root: Path, name: str, training: bytes) -> Path:
    """models/<name>: the export with `training` as its training.pte and a manifest that matches it."""
    base, folder = root / "models" / "executorch", root / "models" / name
    folder.mkdir()
    manifest = json.loads((base / "manifest.json").read_text())
    for f in manifest["files"]:
        if f["role"] == "training":
            (folder / f["path"]).write_bytes(training)
            f["size"], f["sha256"] = len(training), hashlib.sha256(training).hexdigest()
        else:
            os.link(base / f["path"], folder / f["path"])
    (folder / "manifest.json").write_text(json.dumps(manifest, indent=1))
    return folder


def check_programs(binary: Path, folders: list[Path], prefix: tuple[str, ...] = ()) -> dict[str, str]:
    """check-program over `folders`, PER_PROCESS a process (run under `prefix`, e.g. qemu): {folder name: 'ok'
    or the error}; no process may die."""
    lines: dict[str, str] = {}
    for i in range(0, len(folders), PER_PROCESS):
        chunk = folders[i:i + PER_PROCESS]
        proc = subprocess.run([*prefix, str(binary), "check-program", *map(str, chunk)], capture_output=True,
                              text=True, errors="replace", timeout=1200)   # the runtime's own log may quote corrupt bytes
        assert proc.returncode in (0, 1), f"check-program died (exit {proc.returncode}) after {proc.stdout[-300:]}"
        for line in proc.stdout.splitlines():
            path, _, outcome = line.partition(": ")
            lines[Path(path).name] = outcome
    assert sorted(lines) == sorted(f.name for f in folders)
    return lines


@pytest.fixture(scope="module")
def fuzzed(env) -> dict[str, str]:
    """The x86_64 runner's line for each of the 1,000 mutants (folders models/fuzz-<name>)."""
    _, root, _, binary = env
    pte = (root / "models" / "executorch" / "training.pte").read_bytes()
    folders = [export_with(root, f"fuzz-{name}", data) for name, data in mutants(pte)]
    assert len(folders) == BYTE_MUTANTS + TRUNCATIONS == 1000
    return check_programs(binary, folders)


def test_a_thousand_malformed_programs_are_each_one_error_and_crash_nothing(env, fuzzed) -> None:
    _, root, _, _ = env
    outcomes = fuzzed
    refused = {n: o for n, o in outcomes.items() if o != "ok"}
    assert all(n in refused for n in outcomes if n.startswith("fuzz-t")), outcomes  # every truncation
    assert all(o.startswith(f"{root / 'models' / n}") for n, o in refused.items()), refused
    trial = [n for n, o in refused.items() if TRIAL in o]          # accepted by the checks, crashed in the trial
    assert all("\n" not in o for o in outcomes.values())
    # the structural checks refuse most; the rest are bytes any value of which is a valid program
    assert len(refused) > len(outcomes) // 2 and trial, refused


def test_the_arm64_runner_gives_each_malformed_program_the_same_line(env, fuzzed) -> None:
    _, root, _, _ = env
    names = sorted(fuzzed)
    picked = list(dict.fromkeys(names[::10] + [n for n in names if TRIAL in fuzzed[n]][:10]))
    assert any(TRIAL in fuzzed[n] for n in picked) and any(fuzzed[n] == "ok" for n in picked)
    arm64 = check_programs(runner_binary("arm64-v8a"), [root / "models" / n for n in picked], run_prefix("arm64-v8a"))
    assert arm64 == {n: fuzzed[n] for n in picked}


def test_a_changed_root_offset_is_one_error_naming_the_file(env) -> None:
    _, root, _, binary = env
    pte = bytearray((root / "models" / "executorch" / "training.pte").read_bytes())
    pte[0] ^= 0xFF
    folder = export_with(root, "root-offset", bytes(pte))
    session = traced_session(env, "root-offset", model_dir="models/root-offset")
    proc = subprocess.run([str(binary), "run", str(session)], capture_output=True, text=True, errors="replace",
                          timeout=120)
    assert proc.returncode == 1, proc.stderr
    result = json.loads((session / "result.json").read_text())
    assert result["status"] == "error"
    assert result["error"] == f"{folder / 'training.pte'}: {INVALID}"
    assert [e["type"] for e in events_of(session)] == ["error", "session_end"]
    assert not (session / "runner.reserve").exists() and not (session / "checkpoints").exists()


def test_the_served_runner_serves_on_after_malformed_programs(env) -> None:
    _, root, _, binary = env
    pte = (root / "models" / "executorch" / "training.pte").read_bytes()
    chosen = mutants(pte)
    outcomes = check_programs(binary, [export_with(root, f"served-{name}", data) for name, data in chosen])
    refused = [n for n, _ in chosen if outcomes[f"served-{n}"] != "ok"]
    accepted = [n for n, _ in chosen if outcomes[f"served-{n}"] == "ok"]
    trial = [n for n in refused if TRIAL in outcomes[f"served-{n}"]]
    picked = refused[:6] + [n for n in refused if n.startswith("t")][:3] + trial[:3] + accepted[:4]
    sessions = [traced_session(env, f"s-{n}", model_dir=f"models/served-{n}") for n in picked]
    good = traced_session(env, "s-good")
    queue = root / "runner" / "queue"
    queue.mkdir(parents=True, exist_ok=True)
    for folder in [*sessions, good]:
        (queue / f".{folder.name}.tmp").write_text(str(folder))
        os.replace(queue / f".{folder.name}.tmp", queue / folder.name)
    # idle exit 0 s: it serves every queued session, then ends by itself; its exit is the verdict
    server = subprocess.run([str(binary), "serve", str(queue), "0"], capture_output=True, text=True, errors="replace",
                            timeout=900)
    assert server.returncode == 0, server.stderr[-2000:]
    for name, folder in zip(picked, sessions):
        result = json.loads((folder / "result.json").read_text())
        if name in refused:
            assert result["status"] == "error" and result["error"] == outcomes[f"served-{name}"], result
            assert [e["type"] for e in events_of(folder)] == ["error", "session_end"]
        else:                                        # accepted: trained, or failed with the runtime's own error
            assert result["status"] in ("ok", "error") and events_of(folder)[-1]["type"] == "session_end"
    assert json.loads((good / "result.json").read_text())["status"] == "ok"
    assert json.loads((root / "runner" / "server.json").read_text())["served"] == len(sessions) + 1
