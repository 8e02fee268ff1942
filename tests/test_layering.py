"""Layers import downward only (docs/architecture.md): ``pipeline`` -> ``android_harness`` -> ``android_harness/device``.

Parsed from the source (ast), every import counted, also those inside functions:
- no module of ``android_harness`` or ``models`` imports ``pipeline``;
- device code (``android_harness/device``, the zip) imports only the standard library, numpy, the
  runtime bindings and itself (``torch`` only where the ExecuTorch binding takes torch tensors);
- ``models`` is a leaf (standard library and torch only);
- the library never imports the CLI (``pipeline.cli``).
"""
from __future__ import annotations

import ast
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DEVICE_THIRD_PARTY = {"numpy", "executorch", "onnxruntime"}
TORCH_IN_DEVICE = {"android_harness/device/backends/executorch_backend.py"}


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
    return found


def _modules(folder: str) -> list[Path]:
    return sorted(p for p in (REPO / folder).rglob("*.py") if "__pycache__" not in p.parts)


def _top(name: str) -> str:
    return name.split(".")[0]


def _back_edges() -> set[tuple[str, str]]:
    edges = set()
    stdlib = set(sys.stdlib_module_names) | {"__future__"}
    for path in _modules("android_harness") + _modules("models"):
        rel = path.relative_to(REPO).as_posix()
        for mod in _imports(path):
            top = _top(mod)
            if top == "pipeline":
                edges.add((rel, mod))
            if rel.startswith("android_harness/device/"):
                allowed = stdlib | DEVICE_THIRD_PARTY | ({"torch"} if rel in TORCH_IN_DEVICE else set())
                if not (mod == "android_harness.device" or mod.startswith("android_harness.device.") or top in allowed):
                    edges.add((rel, mod))
            if rel.startswith("models/") and not (top in stdlib or top in ("torch", "models")):
                edges.add((rel, mod))
    for path in _modules("pipeline") + _modules("android_harness") + _modules("models"):
        rel = path.relative_to(REPO).as_posix()
        if not rel.startswith("pipeline/cli/"):
            edges.update((rel, m) for m in _imports(path) if m == "pipeline.cli" or m.startswith("pipeline.cli."))
    return edges


def test_no_back_edges() -> None:
    found = _back_edges()
    assert found == set(), f"imports against the layering: {sorted(found)}"


def test_the_parser_sees_every_import_form(tmp_path: Path) -> None:
    f = tmp_path / "m.py"
    f.write_text("import a.b\nfrom c.d import e\n\ndef f():\n    from pipeline.cli import app\n    import pipeline\n")
    assert _imports(f) == {"a.b", "c.d", "pipeline.cli", "pipeline"}
