"""The native runner build (both ABIs, cached) and its numerics against the Python ExecuTorch runtime.

Parity: the same exported program trained on the same inputs for STEPS float32 SGD steps.
- x86_64 build vs arm64 build (under qemu-aarch64-static): losses, final parameters and eval
  logits byte-identical (same kernels, -ffp-contract=off).
- native vs the Python binding (what the Python device runner runs): byte-identical is not
  possible, because the executorch wheel runs ExecuTorch's *optimized* kernels (Eigen sgemm for
  mm/bmm, vectorized log_softmax, sum and div) whose summation orders differ from the portable
  kernels' in the last bit; the difference is bounded here at REL_TOL (observed ~1e-7 after 30 steps).
A missing toolchain skips these tests on a workstation and fails them in CI (CI=true).
"""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from android_harness.native import ABIS, NativeBuildError, ToolchainMissing, build_runner, run_prefix, runner_ops
from android_harness.native import build as native_build
from android_harness.native.build import operators_file, output_dir, work_dir
from tests.export_helpers import random_masks, rel_err, replay_batch, small_request

pytestmark = [pytest.mark.slow, pytest.mark.timeout(2400)]  # a first build from scratch takes minutes

STEPS = 30
REL_TOL = 1e-6  # native vs the Python binding (optimized kernels): see the module docstring
MODELS = ("mlp", "small_cnn")


@pytest.fixture(scope="module", params=ABIS)
def runner(request) -> tuple[str, Path]:
    abi = request.param
    try:
        return abi, build_runner(abi, show_progress=False)
    except ToolchainMissing as exc:
        if os.environ.get("CI") == "true":
            raise
        pytest.skip(str(exc))


def run(abi: str, binary: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([*run_prefix(abi), str(binary), *args], capture_output=True, text=True, timeout=600)


def test_check_prints_build_and_operators(runner) -> None:
    abi, binary = runner
    out = run(abi, binary, "check")
    assert out.returncode == 0, out.stderr
    info = json.loads(out.stdout)
    assert info["abi"] == abi and info["runner"] == "edgecl-runner"
    assert "-ffp-contract=off" in info["cxxflags"] and "-O3" in info["cxxflags"]
    assert info["operator_count"] == len(info["operators"]) == len(set(info["operators"]))
    assert info["operators"] == runner_ops(abi)  # ops.txt is what the binary registered
    ops = set(info["operators"])
    # every portable kernel (functions.yaml) and the prim ops: far more than any one program needs
    assert {"aten::mm.out", "aten::bmm.out", "aten::convolution.out", "aten::_log_softmax.out",
            "aten::sym_size.int", "executorch_prim::add.Scalar"} <= ops
    assert len(ops) > 200
    assert info["source_hash"] == binary.parent.parent.name


def test_cached_build_is_reused(runner) -> None:
    abi, binary = runner
    before = binary.stat().st_mtime_ns
    assert build_runner(abi, show_progress=False) == binary == output_dir(abi) / "edgecl-runner"
    assert binary.stat().st_mtime_ns == before


def test_each_checkout_compiles_in_its_own_work_folder(monkeypatch, tmp_path) -> None:
    """Two checkouts sharing one EDGECL_HOME: make must never see the other's newer objects as its own."""
    here = work_dir("x86_64")
    monkeypatch.setattr(native_build, "ROOT", tmp_path / "other-clone")
    there = work_dir("x86_64")
    assert here.parent == there.parent and here != there and there.name.startswith("x86_64-")
    assert work_dir("arm64-v8a") != there


def test_a_copied_edgecl_home_compiles_afresh(monkeypatch, tmp_path) -> None:
    """Dependency files name their objects by absolute path: in a copy of EDGECL_HOME they would name the
    original's objects, and make would keep the copy's stale ones whatever header changed."""
    here = work_dir("x86_64")
    monkeypatch.setenv("EDGECL_HOME", str(tmp_path / "copied-home"))
    there = work_dir("x86_64")
    assert there.name != here.name and there.name.startswith("x86_64-")


def test_missing_toolchain_names_the_debian_package(monkeypatch, tmp_path) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))  # no compilers at all
    with pytest.raises(ToolchainMissing, match=r"install the Debian package (make|g\+\+-aarch64-linux-gnu)"):
        build_runner("arm64-v8a", show_progress=False)
    with pytest.raises(NativeBuildError, match="unknown ABI"):
        build_runner("mips", show_progress=False)


def test_bad_model_dir_is_one_clear_error(runner, tmp_path) -> None:
    abi, binary = runner
    out = run(abi, binary, "bench-step", str(tmp_path / "nowhere"), "--steps", "1")
    assert out.returncode == 1 and "nowhere/manifest.json: cannot open" in out.stderr
    (tmp_path / "manifest.json").write_text(json.dumps({"format": "edgecl-manifest/1", "runtime": "executorch",
                                                         "files": [], "signature": {"format": "edgecl-signature/1"}}))
    out = run(abi, binary, "bench-step", str(tmp_path), "--steps", "1")
    assert out.returncode == 1 and "manifest.json: signature.inputs: missing" in out.stderr


def _python_run(folder: Path, req, batches: list[dict]) -> tuple[tuple[np.ndarray, ...], bytes]:
    """STEPS steps through the Python device backend: (losses, params, logits, masked-weight flags), raw inputs."""
    from android_harness.device.backends import load_backend

    backend = load_backend(folder)
    sig = backend.signature
    raw = bytearray()
    for batch in batches:
        full = {**batch, **{sig.mask_input_name(n): backend.masks[n] for n in sig.mask_names}}
        for array in sig.check_inputs(full):
            raw += np.ascontiguousarray(array).tobytes()
    losses = np.array([backend.train_step(b, req.lr).loss for b in batches], np.float32)
    params = np.concatenate([v.ravel() for v in backend.params().values()]).astype(np.float32)
    logits = backend.eval_logits(batches[0]["x"]).astype(np.float32).ravel()
    current = backend.params()
    masked = np.concatenate([(backend.masks[n] == 0).ravel() if n in backend.masks else np.zeros(v.size, bool)
                             for n, v in current.items()])
    return (losses, params, logits, masked), bytes(raw)


@pytest.fixture(scope="module", params=MODELS)
def trained(request, tmp_path_factory):
    from pipeline.export import export_program

    kind = request.param
    root = tmp_path_factory.mktemp(f"native-{kind}")
    req = small_request(kind, "executorch")
    req.masks = random_masks(req)
    folder = export_program(req, root / "export").folder
    batches = [replay_batch(req, seed=s) for s in range(STEPS)]
    reference, raw = _python_run(folder, req, batches)
    (root / "inputs.bin").write_bytes(raw)
    return kind, root, folder, reference


def _native_run(abi: str, binary: Path, root: Path, folder: Path) -> tuple[np.ndarray, ...]:
    out_dir = root / f"out-{abi}"
    shutil.rmtree(out_dir, ignore_errors=True)
    out_dir.mkdir()
    res = run(abi, binary, "steps", str(folder), str(root / "inputs.bin"), str(out_dir))
    assert res.returncode == 0, res.stderr
    assert json.loads(res.stdout)["steps"] == STEPS
    return tuple(np.fromfile(out_dir / f"{n}.f32", np.float32) for n in ("losses", "params", "logits"))


def test_native_matches_python_runtime(runner, trained) -> None:
    abi, binary = runner
    kind, root, folder, (losses, params, logits, masked) = trained
    n_losses, n_params, n_logits = _native_run(abi, binary, root, folder)
    assert n_losses.shape == losses.shape and n_params.shape == params.shape and n_logits.shape == logits.shape
    assert np.max(np.abs(n_losses - losses) / np.abs(losses)) < REL_TOL, (kind, abi)
    assert rel_err(n_params, params) < REL_TOL and rel_err(n_logits, logits) < REL_TOL, (kind, abi)
    assert np.all(n_params[masked] == 0.0) and masked.any(), f"{kind}: masked weights are not exactly 0"


def test_arm64_is_byte_identical_to_x86_64(trained) -> None:
    kind, root, folder, _ = trained
    outs = {}
    for abi in ABIS:
        try:
            binary = build_runner(abi, show_progress=False)
        except ToolchainMissing as exc:
            if os.environ.get("CI") == "true":
                raise
            pytest.skip(str(exc))
        outs[abi] = _native_run(abi, binary, root, folder)
    for name, a, b in zip(("losses", "params", "logits"), outs["x86_64"], outs["arm64-v8a"]):
        assert a.tobytes() == b.tobytes(), f"{kind}: {name} differ between x86_64 and arm64-v8a"


def test_a_selective_build_registers_just_its_programs_operators_and_trains_bit_for_bit(runner, trained) -> None:
    """A run's runner registers the operators its programs call (selective build, objects shared with the
    full build): those and the runtime's own, none else, and it trains exactly as the full build does."""
    from android_harness.native.kernel_select import runtime_operators
    from pipeline.export.pte_operators import pte_operators

    abi, full = runner
    kind, root, folder, _ = trained
    ops = pte_operators(sorted(folder.glob("*.pte")))
    assert build_runner(abi, show_progress=False, ops=ops) == full  # the full build covers them: reused
    monkeypatch = pytest.MonkeyPatch()
    monkeypatch.setattr(native_build, "_covering_build", lambda *a: None)  # as on a machine without the full build
    monkeypatch.setattr(native_build, "_grown", lambda key, abi, ops: ops)  # as the first selection of these sources
    try:
        selective = build_runner(abi, show_progress=False, ops=ops)
    finally:
        monkeypatch.undo()
    assert selective != full and selective.parent.name.startswith(f"{abi}-ops-")
    registered = set((selective.parent / "ops.txt").read_text().split())
    assert registered == set(ops) | runtime_operators(), kind
    assert json.loads((selective.parent / "build.json").read_text())["selective"] is True
    for name, a, b in zip(("losses", "params", "logits"), _native_run(abi, full, root, folder),
                          _native_run(abi, selective, root, folder)):
        assert a.tobytes() == b.tobytes(), f"{kind} {abi}: {name} differ between the full and the selective build"


def test_a_new_selection_covers_the_earlier_ones_and_a_covering_build_is_reused(monkeypatch, tmp_path) -> None:
    """A phone's runner is replaced by a later selective build: it must still run every earlier program, so a
    new selection grows over the earlier selections' operators; a finished build covering a program is
    used as it is, the full one first."""
    monkeypatch.setattr(native_build, "native_root", lambda: tmp_path)
    key, abi = "k" * 24, "x86_64"
    earlier = tmp_path / key / f"{abi}-ops-aaaaaaaaaaaa"
    earlier.mkdir(parents=True)
    (earlier / "ops.txt").write_text("aten::add.out\naten::convolution.out\nexecutorch_prim::add.Scalar\n")
    (earlier / "edgecl-runner").write_bytes(b"")
    assert native_build._grown(key, abi, ("aten::mm.out",)) == ("aten::add.out", "aten::convolution.out", "aten::mm.out")
    assert native_build._covering_build(key, abi, ("aten::add.out",)) == earlier / "edgecl-runner"
    assert native_build._covering_build(key, abi, ("aten::mm.out",)) is None
    full = tmp_path / key / abi
    full.mkdir()
    (full / "ops.txt").write_text("aten::add.out\naten::mm.out\n")
    (full / "edgecl-runner").write_bytes(b"")
    assert native_build._covering_build(key, abi, ("aten::add.out",)) == full / "edgecl-runner"


def test_kernel_files_are_found_for_every_portable_operator() -> None:
    from android_harness.native.kernel_select import PORTABLE, kernel_sources, portable_kernels, runtime_operators

    kernels = portable_kernels()
    assert len(kernels) > 200 and kernels["aten::mm.out"] == "mm_out"
    full = set(runner_ops("x86_64"))   # what the full build registers: every kernel and the runtime's own
    assert full == set(kernels) | runtime_operators() == set(operators_file("x86_64").read_text().split())
    assert kernel_sources(["aten::add.out", "aten::mm.out", "executorch_prim::add.Scalar"]) == ["op_add.cpp", "op_mm.cpp"]
    for op in kernels:   # each operator's kernel function is defined in a file the selection compiles
        files = kernel_sources([op])
        assert files and all(kernels[op] in (PORTABLE / "cpu" / f).read_text() for f in files), op
    with pytest.raises(NativeBuildError, match="aten::no_such_op.out"):
        build_runner("x86_64", show_progress=False, ops=["aten::no_such_op.out"])


def _cli(monkeypatch, capsys, *argv: str) -> tuple[int, str, str]:
    import sys

    from pipeline.cli import app as cli_app

    monkeypatch.setattr(sys, "argv", ["edgecl", *argv])
    with pytest.raises(SystemExit) as done:
        cli_app.main()
    captured = capsys.readouterr()
    return done.value.code, captured.out, captured.err


def test_cli_build_and_path(runner, monkeypatch, capsys) -> None:
    abi, binary = runner
    code, out, _ = _cli(monkeypatch, capsys, "runner", "build", "--abi", abi)
    assert code in (0, None) and f"{abi}: {binary} (" in out and "cached" in out
    code, out, _ = _cli(monkeypatch, capsys, "runner", "path", "--abi", abi)
    assert code in (0, None) and out.strip() == str(binary)
    code, _, err = _cli(monkeypatch, capsys, "runner", "path", "--abi", "mips")
    assert code == 2 and "--abi: 'mips'" in err


def test_load_errors_name_the_file(runner, trained, tmp_path) -> None:
    abi, binary = runner
    kind, _, folder, _ = trained

    def broken(name: str, change) -> str:
        copy = tmp_path / name
        shutil.copytree(folder, copy)
        change(copy)
        out = run(abi, binary, "bench-step", str(copy), "--steps", "1")
        assert out.returncode == 1 and "Traceback" not in out.stderr
        return out.stderr

    def relist(d: Path, name: str) -> None:
        """The manifest made to list `name` as it is now (an export that wrote it so, not a corruption)."""
        manifest = json.loads((d / "manifest.json").read_text())
        entry = next(f for f in manifest["files"] if f["path"] == name)
        entry["sha256"] = hashlib.sha256((d / name).read_bytes()).hexdigest()
        entry["size"] = (d / name).stat().st_size
        (d / "manifest.json").write_text(json.dumps(manifest))

    def compress(d: Path) -> None:
        with np.load(d / "initial_state.npz") as z:
            arrays = dict(z.items())
        np.savez_compressed(d / "initial_state.npz", **arrays)
        relist(d, "initial_state.npz")

    def truncate(d: Path) -> None:
        data = (d / "training.pte").read_bytes()
        (d / "training.pte").write_bytes(data[: len(data) // 3])

    def reorder(d: Path) -> None:
        manifest = json.loads((d / "manifest.json").read_text())
        manifest["signature"]["parameter_names"].reverse()
        (d / "manifest.json").write_text(json.dumps(manifest))

    err = broken("compressed", compress)
    assert "initial_state.npz" in err and "compressed entry" in err
    assert "training.pte: corrupted or edited: size " in broken("truncated", truncate)
    # the runtime's own load error, when the manifest agrees with a bad file: still one line naming it
    assert "training.pte" in broken("truncated-relisted", lambda d: (truncate(d), relist(d, "training.pte")))
    assert "differ from the signature's" in broken("reordered", reorder)


def _compile_steps(args: list[str]) -> set[str]:
    """What make would compile for ``args`` (a dry run): the names its CXX lines print."""
    out = subprocess.run([*args, "-n"], capture_output=True, text=True, check=True).stdout
    return {line.split("CXX", 1)[1].strip().rstrip('"') for line in out.splitlines() if line.lstrip().startswith('echo "  CXX')}


def test_core_objects_are_what_every_selection_links_but_its_kernels(monkeypatch, tmp_path) -> None:
    """``build_core`` (compiled while a program exports) leaves a selective build its portable kernels,
    its registration and main to compile, nothing else; and it compiles every other object."""
    monkeypatch.setattr(native_build, "native_root", lambda: tmp_path)
    abi, ops = "x86_64", ("aten::add.out", "aten::mm.out", "aten::neg.out")
    work = work_dir(abi)
    key = native_build.source_key(abi)
    core = _compile_steps([*native_build._make_args(abi, work, key, 1, None), "core"])
    selective = _compile_steps(native_build._make_args(abi, work, key, 1, ops))
    assert core < selective
    assert selective - core == {f"{p}.cpp" for p in ("kernels/portable/cpu/op_add", "kernels/portable/cpu/op_neg")} | {
        "edgecl/src/main.cpp", "RegisterCodegenUnboxedKernelsEverything.cpp"}


def test_kernels_and_the_step_compile_at_O3_control_code_at_O1(monkeypatch, tmp_path) -> None:
    """The Makefile's ``CONTROL`` list (files, JSON, bookkeeping) alone compiles at -O1; every kernel and the
    step's own code at -O3; each of edgecl's sources with the precompiled header of its level."""
    monkeypatch.setattr(native_build, "native_root", lambda: tmp_path)
    abi = "x86_64"
    args = native_build._make_args(abi, work_dir(abi), native_build.source_key(abi), 1, None)
    lines = subprocess.run([*args, "-n"], capture_output=True, text=True, check=True).stdout.splitlines()
    level = {}
    for echo, command in zip(lines, lines[1:]):
        if echo.lstrip().startswith('echo "  CXX  edgecl/'):
            name = echo.split("edgecl/", 1)[1].rstrip('"')
            opt = next(w for w in command.split() if w.startswith("-O"))
            header = command.split("-include ", 1)[1].split()[0]
            assert header.endswith({"-O1": "pch-control", "-O3": "pch-step"}[opt] + "/precompiled.h"), command
            level[name] = opt
    control = {"src/json_io.cpp", "src/runner.cpp", "src/main.cpp", "src/session_state.cpp"}
    assert {level[n] for n in control} == {"-O1"}
    hot = {n for n in level if n.startswith("kernels/")} | {"src/optimizer.cpp", "src/policies.cpp", "src/session_step.cpp",
                                                         "src/program.cpp", "src/replay_memory.cpp", "src/sha256.cpp"}
    assert len(hot) > 20 and {level[n] for n in hot} == {"-O3"}
