"""docs/contracts.md (and docs/architecture.md's file list) names only what exists: every module, function, class and repository file it
cites in backticks resolves (a module imports, an attribute is found on it, a file is in the tree)."""
from __future__ import annotations

import importlib
import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DOC = REPO / "docs" / "contracts.md"
ROOTS = ("pipeline", "android_harness", "models")
CODE = re.compile(r"`([^`\n]+)`")
DOTTED = re.compile(r"^((?:%s)(?:\.[A-Za-z_][A-Za-z0-9_]*)+)" % "|".join(ROOTS))
PATH = re.compile(r"^((?:%s|docs|bench|tests|experiments)/[\w./-]*\w)" % "|".join(ROOTS))


def cited() -> tuple[set[str], set[str]]:
    """(dotted names, repository paths) in backticks; a call's arguments and a leading ``Class.`` are ignored."""
    names, paths = set(), set()
    for span in CODE.findall(DOC.read_text()):
        for word in re.split(r"[\s,;]+", span):
            if m := DOTTED.match(word):
                names.add(m.group(1))
            elif m := PATH.match(word):
                paths.add(m.group(1))
    return names, paths


def resolves(dotted: str) -> bool:
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:cut]))
        except ModuleNotFoundError:
            continue
        for attr in parts[cut:]:
            if not hasattr(obj, attr):
                return False
            obj = getattr(obj, attr)
        return True
    return False


def test_every_module_and_function_named_exists() -> None:
    names, _ = cited()
    assert len(names) > 30
    missing = sorted(n for n in names if not resolves(n))
    assert not missing, f"docs/contracts.md names what does not exist: {missing}"


def test_every_file_named_exists() -> None:
    _, paths = cited()
    assert len(paths) > 10
    missing = sorted(p for p in paths if not (REPO / p).exists())
    assert not missing, f"docs/contracts.md names files that are not in the repository: {missing}"


def test_every_file_architecture_md_names_exists() -> None:
    text = (REPO / "docs" / "architecture.md").read_text()
    paths = {m.group(1) for span in CODE.findall(text) for w in re.split(r"[\s,;]+", span) if (m := PATH.match(w))}
    assert len(paths) > 20
    assert not sorted(p for p in paths if not (REPO / p).exists())


def test_the_check_catches_a_name_that_does_not_exist() -> None:
    assert resolves("pipeline.energy.measure_session") and not resolves("pipeline.cl.policy.TrainingPolicy")
    assert DOTTED.match("pipeline.export.export(spec,").group(1) == "pipeline.export.export"


def session_json_lines() -> list[str]:
    """session.json's fields as contracts.md lists them: ``key: type = default  [range]``, from the dataclasses."""
    import dataclasses
    import json
    import typing

    from android_harness.native.spec_table import tables

    def bound(v: float) -> str:
        return "2^63" if v == 2**63 else f"{v:g}"

    out = []
    for _, key, cls in tables():
        hints = typing.get_type_hints(cls)
        for f in dataclasses.fields(cls):
            tp = hints[f.name]
            if dataclasses.is_dataclass(tp):
                continue
            name = f"list[{typing.get_args(tp)[0].__name__}]" if typing.get_origin(tp) is list else tp.__name__
            if f.default is not dataclasses.MISSING:
                default = f" = {json.dumps(f.default)}"
            elif f.default_factory is not dataclasses.MISSING:
                default = f" = {json.dumps(f.default_factory())}"
            else:
                default = " (required)"
            m = f.metadata
            rng = [f"{w} {bound(m[k])}" for k, w in (("ge", ">="), ("gt", ">"), ("le", "<="), ("lt", "<")) if m.get(k) is not None]
            if m.get("choices"):
                rng.append("one of " + " | ".join(m["choices"]))
            out.append(f"{key + '.' if key else ''}{f.name}: {name}{default}" + (f"  [{', '.join(rng)}]" if rng else ""))
    return out


def test_session_json_fields_are_listed_with_their_types_defaults_and_ranges() -> None:
    text = DOC.read_text()
    missing = [line for line in session_json_lines() if f"    {line}\n" not in text]
    assert not missing, "docs/contracts.md session.json section differs from the dataclasses:\n" + "\n".join(missing)
