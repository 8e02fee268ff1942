"""session.json is defined once: the native runner's table is generated from the Python dataclasses
(android_harness/native/spec_table.py), so both runners resolve the same defaults and give the same
verdict on every field's default, bounds, just-outside-bounds values, choices and wrong types."""
from __future__ import annotations

import dataclasses
import json
import math
import re
import subprocess
import typing
from typing import Any, Iterator

import pytest

from android_harness.device.errors import SessionSpecError
from android_harness.device.session_spec import spec_from_json
from android_harness.native.spec_table import render, table_fields, tables
from tests._native_bins import command, units_binary

pytestmark = [pytest.mark.slow, pytest.mark.timeout(2400)]  # a first build compiles the runtime

ABI = "x86_64"       # parsing does not depend on the ABI
BASE = {"session_id": "s", "model_dir": "m", "data_dir": "d", "replay_dir": "r", "tasks": [0]}


def _outside(bound: float, is_int: bool, downward: bool) -> float | int:
    if is_int:
        return int(bound) - 1 if downward else int(bound) + 1
    return math.nextafter(bound, -math.inf if downward else math.inf)


def _values(f: dataclasses.Field, tp: Any) -> Iterator[Any]:
    """The default, each finite bound and its neighbours, each choice and a bad one, a wrong type."""
    if f.default is not dataclasses.MISSING:
        yield f.default
    elif f.default_factory is not dataclasses.MISSING:
        yield f.default_factory()
    meta = f.metadata
    is_int = tp is int
    for name, downward in (("ge", True), ("gt", True), ("le", False), ("lt", False)):
        bound = meta.get(name)
        if bound is None:
            continue
        yield int(bound) if is_int and bound < 2**62 else bound
        yield _outside(bound, is_int, downward)
        yield _outside(bound, is_int, not downward)
    for choice in meta.get("choices") or ():
        yield choice
    if meta.get("choices"):
        yield "no-such-choice"
    yield "text" if tp is not str else 1
    if tp is int:
        yield 1.5
        yield True
    if typing.get_origin(tp) is list:
        yield ["x"]


def cases() -> list[tuple[str, dict[str, Any]]]:
    """(dotted key, session.json) for every value of every field, and every required key left out."""
    out = []
    for _, key, cls in tables():
        hints = typing.get_type_hints(cls)
        for f in dataclasses.fields(cls):
            if dataclasses.is_dataclass(hints[f.name]):
                continue
            dotted = f"{key}.{f.name}" if key else f.name
            for value in _values(f, hints[f.name]):
                data = json.loads(json.dumps(BASE))
                (data.setdefault(key, {}) if key else data)[f.name] = value
                out.append((dotted, data))
            if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
                out.append((dotted, {k: v for k, v in BASE.items() if k != f.name}))
    return out


def python_verdict(data: dict[str, Any]) -> str:
    try:
        spec_from_json(data)
    except SessionSpecError as exc:
        return str(exc)
    return "ok"


@pytest.fixture(scope="module")
def units():
    return units_binary(ABI)


def test_every_field_gets_the_same_verdict_from_both_runners(units) -> None:
    todo = cases()
    lines = "".join(json.dumps(data) + "\n" for _, data in todo)
    out = subprocess.run(command(ABI, units, "spec-check"), input=lines, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    native = out.stdout.splitlines()
    assert len(native) == len(todo)
    assert len(todo) > 150
    refused = 0
    for (key, data), cpp in zip(todo, native):
        py = python_verdict(data)
        assert (py == "ok") == (cpp == "ok"), f"{key} = {json.dumps(data)}: python {py!r}, native {cpp!r}"
        if py != "ok":
            refused += 1
            named = re.compile(re.escape(key) + r"[:\[]")      # a list's element: key[i]
            assert named.search(py) and named.search(cpp), f"{key}: python {py!r}, native {cpp!r}"
    assert refused > 80


def test_native_defaults_are_the_python_defaults(units) -> None:
    out = subprocess.run(command(ABI, units, "spec-resolved"), input=json.dumps(BASE), capture_output=True,
                         text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout) == spec_from_json(BASE).to_json()


def test_the_table_names_every_field_once() -> None:
    text = render()
    for _, _, cls in tables():
        for f in table_fields(cls):
            assert text.count(f"X({f.cpp_type}, {f.name},") == 1, f.name
    assert len([f for _, _, c in tables() for f in table_fields(c)]) + 3 == len(
        [f for _, _, c in tables() for f in dataclasses.fields(c)])
