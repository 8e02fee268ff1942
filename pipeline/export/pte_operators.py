"""The operators an exported ``.pte`` file calls, read back from the file (for a runner that registers
just those: ``android_harness.native.build.build_runner(ops=...)``)."""
from __future__ import annotations

from pathlib import Path
from typing import Iterable

from pipeline.export.operator_check import program_operators


def pte_operators(paths: Iterable[Path]) -> list[str]:
    """Every operator the programs at ``paths`` call, ``namespace::name.overload``, sorted."""
    from executorch.exir._serialize._program import deserialize_pte_binary

    ops: set[str] = set()
    for path in paths:
        ops.update(program_operators(deserialize_pte_binary(Path(path).read_bytes()).program))
    return sorted(ops)
