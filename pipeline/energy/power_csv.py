"""Reading ``power.csv`` (docs/contracts.md): ``#`` metadata lines, a header, raw counter strings.

Tolerant of what a killed sampler leaves (a torn last line is dropped) and strict about the rest:
a malformed row, a non-numeric or non-finite number (``1.2.3``, ``inf``, ``nan``) names the file,
line and column; an empty cell means "unreadable" (the sampler could not read that counter).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from android_harness.power_number import finite_number
from android_harness.power_text_kind import refuse_foreign
from pipeline.errors import PowerError

COLUMNS = ("t", "current", "voltage", "charge_counter", "capacity", "status", "temp")
OPTIONAL = ("energy_counter", "t_boot")      # written by newer samplers; absent in older files
NUMERIC = ("current", "voltage", "charge_counter", "capacity", "temp", "energy_counter", "t_boot")


@dataclass
class RawPowerCsv:
    """Rows exactly as the sampler wrote them, plus its ``# key=value`` metadata."""

    path: str
    meta: dict[str, str] = field(default_factory=dict)
    t: list[float] = field(default_factory=list)
    columns: dict[str, list[str]] = field(default_factory=lambda: {c: [] for c in COLUMNS[1:] + OPTIONAL})
    line_of: list[int] = field(default_factory=list)      # file line of each row (for error messages)

    def __len__(self) -> int:
        return len(self.t)

    def numbers(self, column: str) -> np.ndarray:
        """A numeric column as floats, NaN where the cell is empty; PowerError naming the line for a
        cell that is not a finite number."""
        out = np.full(len(self.t), np.nan)
        for k, cell in enumerate(self.columns[column]):
            if cell == "":
                continue
            out[k] = finite_number(cell, f"{self.path} line {self.line_of[k]}: {column}")
        return out


def _meta_line(line: str, meta: dict[str, str]) -> None:
    body = line.lstrip("#").strip()
    word, _, rest = body.partition(" ")
    if word in ("stopped", "anchor"):                   # "# stopped t=.. rows=..", "# anchor mono=.. boot=.."
        for part in rest.split():
            k, _, v = part.partition("=")
            meta[f"{word}_{k}"] = v
    elif body.startswith("file "):
        k, _, v = body[len("file "):].partition("=")
        meta[f"file_{k}"] = v
    elif "=" in body and " " not in body.split("=", 1)[0]:
        k, _, v = body.partition("=")
        meta[k] = v
    elif body:
        meta.setdefault("format", body)


def parse_power_csv(text: str, path: str = "power.csv") -> RawPowerCsv:
    raw = RawPowerCsv(path)
    lines = text.split("\n")
    complete = lines[:-1] if not text.endswith("\n") and lines else lines   # drop a torn tail
    header: list[str] | None = None
    for n, line in enumerate(complete, 1):
        line = line.rstrip("\r")
        if not line:
            continue
        if line.startswith("#"):
            _meta_line(line, raw.meta)
            continue
        cells = line.split(",")
        if header is None:
            header = [c.strip() for c in cells]
            missing = [c for c in COLUMNS if c not in header]
            if missing:
                refuse_foreign(text, "an edgecl power.csv", f"{path} must be the file the power sampler "
                               "wrote (`edgecl trace` or a run's sessions/<id>/power.csv)")
                raise PowerError(f"{path} line {n}: header lacks column(s) {', '.join(missing)}; "
                                 f"expected {','.join(COLUMNS)}")
            continue
        if [c.strip() for c in cells] == header:
            continue                       # a restarted sampler appending to the same file
        if len(cells) != len(header):
            raise PowerError(f"{path} line {n}: {len(cells)} cells, header has {len(header)}")
        row = dict(zip(header, (c.strip() for c in cells)))
        raw.t.append(finite_number(row["t"], f"{path} line {n}: t"))
        raw.line_of.append(n)
        for c in COLUMNS[1:] + OPTIONAL:
            raw.columns[c].append(row.get(c, ""))
    if header is None:
        raise PowerError(f"{path}: no header line (expected {','.join(COLUMNS)})")
    return raw


def read_trace_text(path: str | Path, what: str) -> str:
    """A sampler's file as text (bytes a torn write mangled read as U+FFFD), or PowerError naming it."""
    try:
        return Path(path).read_text(encoding="utf-8", errors="replace")
    except OSError as exc:
        raise PowerError(f"cannot read {what} {path}: {exc.strerror or exc}") from exc


def read_power_csv(path: str | Path) -> RawPowerCsv:
    return parse_power_csv(read_trace_text(path, "power trace"), str(path))
