"""Generate ``session_spec_table.h``: the native runner's copy of ``session.json``'s fields, made at build
time from the dataclasses that define them (``android_harness.device.session_spec`` and ``spec_tables``).

One X-macro per table lists every field (C++ type, name, default, required, doc), one more its numeric
bounds, and each field with ``choices`` becomes an enum with its names: ``session_spec.h`` declares the
structs and ``session_spec.cpp`` binds and checks them from these lists, so a field, default or range
is typed once, in Python. Run by the Makefile: ``python -m android_harness.native.spec_table OUT.h``.
"""
from __future__ import annotations

import dataclasses
import json
import math
import sys
import typing
from pathlib import Path
from typing import Any

from android_harness.device.session_spec import SessionSpec

ENUM_NAMES = {"method": "Method", "kind": "SessionKind", "ddr_select": "DdrSelect"}
SCALARS = {int: "int64_t", float: "double", bool: "bool", str: "std::string"}


@dataclasses.dataclass(frozen=True)
class Field:
    """One ``session.json`` key as the C++ side sees it."""

    name: str
    cpp_type: str
    default: str
    required: bool
    doc: str
    choices: tuple[str, ...] | None
    bounds: tuple[float, bool, float, bool] | None     # lo, lo_open, hi, hi_open (inf: none)


def enum_name(field: str) -> str:
    return ENUM_NAMES.get(field) or "".join(p.title() for p in field.split("_"))


def constant(choice: str) -> str:
    """``derpp`` -> ``kDerpp``: an enum value's C++ name."""
    return "k" + "".join(p.title() for p in choice.split("_"))


def _cpp_type(name: str, tp: Any, choices: tuple[str, ...] | None) -> str:
    if choices is not None:
        return enum_name(name)
    if typing.get_origin(tp) is list:
        return f"std::vector<{SCALARS[typing.get_args(tp)[0]]}>"
    return SCALARS[tp]


def _literal(value: Any, cpp_type: str, choices: tuple[str, ...] | None) -> str:
    if choices is not None:
        return f"{cpp_type}::{constant(value)}"
    if isinstance(value, list):
        return f"({cpp_type}{{{', '.join(_literal(v, '', None) for v in value)}}})"   # parenthesised: a macro argument
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, int):
        return str(value)
    return json.dumps(value)


def _bounds(meta: typing.Mapping[str, Any]) -> tuple[float, bool, float, bool] | None:
    lo_open, hi_open = meta.get("gt") is not None, meta.get("lt") is not None
    lo = meta.get("gt") if lo_open else meta.get("ge")
    hi = meta.get("lt") if hi_open else meta.get("le")
    if lo is None and hi is None:
        return None
    return (float(lo) if lo is not None else -math.inf, lo_open, float(hi) if hi is not None else math.inf, hi_open)


def table_fields(cls: type) -> list[Field]:
    """The scalar and list fields of ``cls`` (nested tables apart), in declaration order."""
    hints = typing.get_type_hints(cls)
    out = []
    for f in dataclasses.fields(cls):
        if dataclasses.is_dataclass(hints[f.name]):
            continue
        choices = f.metadata.get("choices")
        cpp = _cpp_type(f.name, hints[f.name], choices)
        if f.default is not dataclasses.MISSING:
            default, required = _literal(f.default, cpp, choices), False
        elif f.default_factory is not dataclasses.MISSING:
            default, required = _literal(f.default_factory(), cpp, choices), False
        else:
            default, required = "{}", True
        out.append(Field(f.name, cpp, default, required, f.metadata.get("doc", ""), choices, _bounds(f.metadata)))
    return out


def tables() -> list[tuple[str, str, type]]:
    """(macro suffix, key, dataclass): the session's own fields, then each nested table."""
    hints = typing.get_type_hints(SessionSpec)
    nested = [(f.name.upper(), f.name, hints[f.name]) for f in dataclasses.fields(SessionSpec)
              if dataclasses.is_dataclass(hints[f.name])]
    return [("SESSION", "", SessionSpec), *nested]


def _bound(v: float) -> str:
    return "kNoBound" if v == math.inf else "-kNoBound" if v == -math.inf else repr(v)


def render() -> str:
    lines = ["// Generated at build time by android_harness/native/spec_table.py from the dataclasses of",
             "// android_harness/device/session_spec.py and spec_tables.py (the definition). Do not edit.",
             "#pragma once", "", "#include <array>", "#include <cstdint>", "#include <limits>", "#include <string>",
             "#include <vector>", "", "namespace edgecl {", "",
             "/// An absent bound of a numeric field.",
             "inline constexpr double kNoBound = std::numeric_limits<double>::infinity();", ""]
    enums: dict[str, tuple[str, ...]] = {}
    for _, _, cls in tables():
        for f in table_fields(cls):
            if f.choices is not None:
                enums[f.cpp_type] = f.choices
    for name, choices in enums.items():
        values = ", ".join(constant(c) for c in choices)
        names = ", ".join(json.dumps(c) for c in choices)
        lines += [f"enum class {name} : uint8_t {{ {values} }};",
                  f"inline constexpr std::array<const char*, {len(choices)}> k{name}Names = {{{names}}};",
                  f"/// The spec's name of a {name}.",
                  f"inline const char* name_of({name} v) {{ return k{name}Names[static_cast<size_t>(v)]; }}",
                  f"inline const std::array<const char*, {len(choices)}>& names_of({name}) {{ return k{name}Names; }}", ""]
    for suffix, key, cls in tables():
        where = f"`{key}` table" if key else "the session's own keys"
        lines += [f"/// {where} ({cls.__name__}): X(C++ type, name, default, required, doc)",
                  f"#define EDGECL_SPEC_{suffix}(X) \\"]
        for f in table_fields(cls):
            lines.append(f"  X({f.cpp_type}, {f.name}, {f.default}, {'true' if f.required else 'false'}, "
                         f"{json.dumps(f.doc)}) \\")
        lines += ["", f"/// Numeric bounds of {where}: R(name, lo, lo_open, hi, hi_open)", f"#define EDGECL_SPEC_{suffix}_RANGES(R) \\"]
        for f in table_fields(cls):
            if f.bounds is not None:
                lo, lo_open, hi, hi_open = f.bounds
                lines.append(f"  R({f.name}, {_bound(lo)}, {str(lo_open).lower()}, {_bound(hi)}, {str(hi_open).lower()}) \\")
        lines.append("")
    lines += ["/// The nested tables: T(C++ struct, key)", "#define EDGECL_SPEC_TABLES(T) \\"]
    lines += [f"  T({cls.__name__}, {key}) \\" for suffix, key, cls in tables() if key]
    lines += ["", "}  // namespace edgecl", ""]
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python -m android_harness.native.spec_table OUT.h", file=sys.stderr)
        return 2
    out = Path(argv[0])
    text = render()
    if not out.is_file() or out.read_text() != text:     # unchanged: no rebuild of what includes it
        out.parent.mkdir(parents=True, exist_ok=True)
        tmp = out.with_suffix(".tmp")
        tmp.write_text(text)
        tmp.replace(out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
