"""Turn a parsed table (TOML or JSON) into typed dataclasses, collecting every problem before failing.

Stdlib only: the experiment spec (host) and ``session.json`` (device) are validated by the same code
from the same field metadata. Fields declare their constraints with ``spec_field`` (choices, numeric range, file existence);
``build`` walks a dataclass tree and reports unknown keys, wrong types and out-of-range values
with their dotted key path, all at once (torchtune's ``_validate`` habit).
"""
from __future__ import annotations

import dataclasses
import types
import typing
from pathlib import Path
from typing import Any, TypeVar

T = TypeVar("T")


def spec_field(
    default: Any = dataclasses.MISSING,
    *,
    choices: tuple[Any, ...] | None = None,
    ge: float | None = None,
    le: float | None = None,
    gt: float | None = None,
    lt: float | None = None,
    must_exist: bool = False,
    doc: str = "",
    default_factory: Any = dataclasses.MISSING,
) -> Any:
    """A dataclass field with validation metadata."""
    meta = {"choices": choices, "ge": ge, "le": le, "gt": gt, "lt": lt, "must_exist": must_exist, "doc": doc}
    if default_factory is not dataclasses.MISSING:
        return dataclasses.field(default_factory=default_factory, metadata=meta)
    return dataclasses.field(default=default, metadata=meta)


def _type_name(tp: Any) -> str:
    origin = typing.get_origin(tp)
    if origin in (typing.Union, types.UnionType):
        return " or ".join(_type_name(a) for a in typing.get_args(tp))
    if origin is list:
        (arg,) = typing.get_args(tp) or (Any,)
        return f"list of {_type_name(arg)}"
    if origin is dict:
        return "a table"
    if tp is type(None):
        return "nothing"
    return getattr(tp, "__name__", str(tp))


def _coerce(value: Any, tp: Any, key: str, problems: list[str]) -> Any:
    """Check ``value`` against the annotation ``tp``; return the converted value (or None on error)."""
    origin = typing.get_origin(tp)
    if dataclasses.is_dataclass(tp):
        if not isinstance(value, dict):
            problems.append(f"{key}: expected a table, got {type(value).__name__} {value!r}")
            return None
        return _build(tp, value, key, problems)
    if origin in (typing.Union, types.UnionType):
        args = typing.get_args(tp)
        if value is None and type(None) in args:
            return None
        for arg in args:
            if arg is type(None):
                continue
            trial: list[str] = []
            out = _coerce(value, arg, key, trial)
            if not trial:
                return out
        problems.append(f"{key}: expected {_type_name(tp)}, got {type(value).__name__} {value!r}")
        return None
    if origin is list:
        (arg,) = typing.get_args(tp) or (Any,)
        if not isinstance(value, list):
            problems.append(f"{key}: expected {_type_name(tp)}, got {type(value).__name__} {value!r}")
            return None
        return [_coerce(v, arg, f"{key}[{i}]", problems) for i, v in enumerate(value)]
    if origin is dict:  # a free-form table (model.args): keys are checked by whoever consumes it
        if not isinstance(value, dict):
            problems.append(f"{key}: expected a table, got {type(value).__name__} {value!r}")
            return None
        return dict(value)
    if tp is Any:
        return value
    if tp is float:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            problems.append(f"{key}: expected a number, got {type(value).__name__} {value!r}")
            return None
        return float(value)
    if tp is int:
        if isinstance(value, bool) or not isinstance(value, int):
            problems.append(f"{key}: expected an integer, got {type(value).__name__} {value!r}")
            return None
        return value
    if tp is bool:
        if not isinstance(value, bool):
            problems.append(f"{key}: expected true or false, got {type(value).__name__} {value!r}")
            return None
        return value
    if tp is str:
        if not isinstance(value, str):
            problems.append(f"{key}: expected a string, got {type(value).__name__} {value!r}")
            return None
        return value
    if tp is Path:
        if not isinstance(value, str):
            problems.append(f"{key}: expected a path string, got {type(value).__name__} {value!r}")
            return None
        return Path(value).expanduser()
    raise TypeError(f"unsupported spec annotation {tp!r} at {key}")


def _check_meta(value: Any, meta: typing.Mapping[str, Any], key: str, problems: list[str]) -> None:
    if value is None:
        return
    choices = meta.get("choices")
    if choices is not None and value not in choices:
        problems.append(f"{key}: expected one of {', '.join(map(repr, choices))}, got {value!r}")
    for name, op, word in (("ge", float.__ge__, ">="), ("le", float.__le__, "<="), ("gt", float.__gt__, ">"), ("lt", float.__lt__, "<")):
        bound = meta.get(name)
        if bound is not None and isinstance(value, (int, float)) and not op(float(value), float(bound)):
            problems.append(f"{key}: expected a value {word} {bound:g}, got {value!r}")
    if meta.get("must_exist") and isinstance(value, Path) and str(value) and not value.exists():
        problems.append(f"{key}: file or folder {str(value)!r} does not exist")


def _build(cls: type[T], table: dict[str, Any], prefix: str, problems: list[str]) -> T | None:
    hints = typing.get_type_hints(cls)
    fields = {f.name: f for f in dataclasses.fields(cls)}  # type: ignore[arg-type]
    for k in table:
        if k not in fields:
            known = ", ".join(sorted(fields))
            problems.append(f"{prefix + '.' if prefix else ''}{k}: unknown key (known keys: {known})")
    kwargs: dict[str, Any] = {}
    for name, f in fields.items():
        key = f"{prefix}.{name}" if prefix else name
        if name in table:
            value = _coerce(table[name], hints[name], key, problems)
            _check_meta(value, f.metadata, key, problems)
            kwargs[name] = value
        elif f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:  # type: ignore[misc]
            problems.append(f"{key}: required key is missing ({_type_name(hints[name])})")
    if any(p.startswith(prefix) for p in problems) and prefix:
        return None
    try:
        return cls(**{k: v for k, v in kwargs.items()})
    except (TypeError, ValueError) as exc:
        problems.append(f"{prefix or 'spec'}: {exc}")
        return None


def build(cls: type[T], table: dict[str, Any], prefix: str = "") -> tuple[T | None, list[str]]:
    """Build ``cls`` from ``table``; return the object (None on failure) and every problem found."""
    problems: list[str] = []
    obj = _build(cls, table, prefix, problems)
    return (obj if not problems else None), problems


def to_dict(obj: Any) -> Any:
    """The resolved spec as plain TOML/JSON-able data (paths as strings)."""
    if dataclasses.is_dataclass(obj):
        return {f.name: to_dict(getattr(obj, f.name)) for f in dataclasses.fields(obj)}
    if isinstance(obj, list):
        return [to_dict(v) for v in obj]
    if isinstance(obj, dict):
        return {k: to_dict(v) for k, v in obj.items()}
    if isinstance(obj, Path):
        return str(obj)
    return obj
