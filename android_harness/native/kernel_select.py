"""Which portable kernel files a selective runner build compiles for a set of operators.

ExecuTorch's portable kernels are one ``op_*.cpp`` file per operator family, registered through
``kernels/portable/functions.yaml`` (``op: add.out`` -> ``kernel_name: torch::executor::add_out``). A
selective build registers only the operators a program calls, so it need compile only the files that
define those kernels' functions: a few dozen of ~180, which is most of a build's time. The files are
found by the kernel's function name, so a file that defines several kernels is compiled once.
"""
from __future__ import annotations

import functools
import re
from pathlib import Path
from typing import Iterable

PORTABLE = Path(__file__).resolve().parents[2] / "third_party" / "executorch" / "kernels" / "portable"
NAMESPACE = "aten::"   # functions.yaml's entries without a namespace of their own


@functools.lru_cache(maxsize=1)
def portable_kernels() -> dict[str, str]:
    """``namespace::name.overload`` -> the kernel's function name, for every operator ``functions.yaml`` lists."""
    out: dict[str, str] = {}
    for entry in re.split(r"^(?=- )", (PORTABLE / "functions.yaml").read_text(), flags=re.M):
        op = re.match(r"- op: (\S+)", entry)
        func = re.match(r"- func: ((?:\w+::)?[\w.]+)\(", entry)
        kernel = re.search(r"kernel_name: (\S+)", entry)
        if kernel and (op or func):
            name = op.group(1) if op else func.group(1)
            out[name if "::" in name else NAMESPACE + name] = kernel.group(1).rsplit("::", 1)[-1]
    return out


@functools.lru_cache(maxsize=1)
def runtime_operators() -> frozenset[str]:
    """The operators every build registers without a kernel file (the runtime's prim ops: scalar
    arithmetic, ``aten::sym_size.int``, views), as ``register_prim_ops.cpp`` names them."""
    text = (PORTABLE.parent / "prim_ops" / "register_prim_ops.cpp").read_text()
    return frozenset(re.findall(r'"(\w+::[\w.]+)"', text))


@functools.lru_cache(maxsize=1)
def _sources() -> dict[str, str]:
    return {p.name: p.read_text() for p in sorted((PORTABLE / "cpu").glob("op_*.cpp"))}


def kernel_sources(ops: Iterable[str]) -> list[str]:
    """The ``op_*.cpp`` files (names) that define the portable kernels of ``ops``; the runtime's own
    operators (``runtime_operators``, always built in) need none. ``KeyError`` names an operator the
    runtime has no kernel for."""
    kernels = portable_kernels()
    files: dict[str, None] = {}
    for op in ops:
        if op not in kernels and op in runtime_operators():
            continue
        name = kernels[op]
        pattern = re.compile(rf"(?<![\w:]){re.escape(name)}\s*[(,]")
        hits = [f for f, text in _sources().items() if pattern.search(text)]
        if not hits:
            raise KeyError(f"no portable kernel file defines {name} ({op})")
        files.update(dict.fromkeys(hits))
    return sorted(files)
