"""A CL method or a SparCL part means something in one place: its registry (Python:
android_harness/device/methods/ and sparcl_parts.py; C++: the enums generated from the spec table,
asked through methods.h). Comparing one of their names as a string anywhere else fails here.
Event and trace records whose kind happens to be a part's name (``e["type"] == "ddr"``) are records,
not parts, and are not counted."""
from __future__ import annotations

import ast
import re
from pathlib import Path

from android_harness.device.methods import METHOD_NAMES, REGISTRY, method
from android_harness.device.sparcl_parts import PARTS

REPO = Path(__file__).resolve().parents[1]
PY_ROOTS = ("android_harness", "pipeline", "models")
REGISTRY_FILES = {REPO / "android_harness" / "device" / "methods", REPO / "android_harness" / "device" / "sparcl_parts.py"}
NAMES = set(METHOD_NAMES) | set(PARTS)
RECORD_KEYS = {"k", "type", "kind"}     # an event's or a trace line's kind


def _is_record_kind(node: ast.AST) -> bool:
    """``e["type"]`` / ``x.get("k")`` / ``ev.kind``: the kind of an event or trace record."""
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant):
        return node.slice.value in RECORD_KEYS
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get" and node.args:
        return isinstance(node.args[0], ast.Constant) and node.args[0].value in RECORD_KEYS
    return isinstance(node, ast.Attribute) and node.attr in RECORD_KEYS


def _named(node: ast.AST) -> set[str]:
    """The registered names a comparison operand spells out (a constant, or a tuple/list/set of them)."""
    if isinstance(node, ast.Constant) and node.value in NAMES:
        return {node.value}
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return {e.value for e in node.elts if isinstance(e, ast.Constant) and e.value in NAMES}
    return set()


def python_comparisons(source: str) -> list[tuple[int, str]]:
    out = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Compare):
            continue
        operands = [node.left, *node.comparators]
        if any(_is_record_kind(o) for o in operands):
            continue
        for o in operands:
            for name in _named(o):
                out.append((node.lineno, name))
    return out


CPP_COMPARE = re.compile(r'(==|!=)\s*"({0})"|"({0})"\s*(==|!=)'.format("|".join(sorted(NAMES))))


def cpp_comparisons(source: str) -> list[tuple[int, str]]:
    return [(source.count("\n", 0, m.start()) + 1, m.group(2) or m.group(3)) for m in CPP_COMPARE.finditer(source)]


def _outside_registry(path: Path) -> bool:
    return not any(path == r or r in path.parents for r in REGISTRY_FILES)


def test_no_method_or_part_name_is_compared_as_a_string_outside_its_registry() -> None:
    found = []
    for root in PY_ROOTS:
        for path in sorted((REPO / root).rglob("*.py")):
            if _outside_registry(path):
                found += [f"{path.relative_to(REPO)}:{line}: {name!r}" for line, name in python_comparisons(path.read_text())]
    native = REPO / "android_harness" / "native"
    for path in sorted([*native.glob("src/*.cpp"), *native.glob("src/*.h"), *native.glob("kernels/*")]):
        found += [f"{path.relative_to(REPO)}:{line}: {name!r}" for line, name in cpp_comparisons(path.read_text())]
    assert not found, "compare through the registry (methods.method(name), sparcl_parts; C++: the enums):\n" + "\n".join(found)


def test_the_check_sees_what_it_forbids() -> None:
    assert python_comparisons('if spec.train.method == "derpp":\n    pass\n') == [(1, "derpp")]
    assert python_comparisons('x = m in ("er", "derpp")\n') and python_comparisons('y = "joint" != m\n')
    assert python_comparisons('z = e["type"] == "ddr"\n') == []
    assert cpp_comparisons('  const bool r = w.method == "er" || w.method == "derpp";\n') == [(1, "er"), (1, "derpp")]
    assert cpp_comparisons('if ("tdm" != part) {}') == [(1, "tdm")]


def test_the_registry_holds_each_method_once_with_its_hooks() -> None:
    assert METHOD_NAMES == ("finetune", "er", "derpp", "joint")
    assert [n for n, m in REGISTRY.items() if m.replays] == ["er", "derpp"]
    assert [n for n, m in REGISTRY.items() if m.stores_logits] == ["derpp"]
    assert [n for n, m in REGISTRY.items() if m.sb_holds_seen_tasks] == ["joint"]
    assert method("derpp").em_loss_weights(0.1, 0.5) == (0.5, 0.1) and method("er").em_loss_weights(0.1, 0.5) == (1.0, 0.0)
    assert set(PARTS) == {"tdm", "ddr", "dgm"}
