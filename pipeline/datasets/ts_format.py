"""Reader for the UEA/UCR time-series ``.ts`` format (``data.kind = "ts"``), without sktime.

A file is comment lines (``#`` or ``%``), ``@key value`` header lines (``@problemName``,
``@univariate``, ``@dimensions``, ``@equalLength``, ``@seriesLength``, ``@classLabel true L1 L2 ...``,
``@timeStamps``, ``@missing``), then ``@data`` and one case per line: the dimensions separated by
``:``, each a comma-separated series, and the class label last. Series of unequal length (e.g.
JapaneseVowels) are zero-padded at the end or centre-cropped to one length. Time-stamped series
and missing values (``?``, NaN) are refused with the line number, never silently filled.

``data.path`` names ``<Name>_TRAIN.ts`` or the folder holding it; ``<Name>_TEST.ts`` beside it is
the test split when present.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from pipeline.errors import DataError


@dataclass
class TsFile:
    """One parsed ``.ts`` file: a (C, T_i) float32 array per case and its label string."""

    path: Path
    header: dict[str, str]
    series: list[np.ndarray]
    labels: list[str]
    declared_labels: list[str] = field(default_factory=list)

    @property
    def channels(self) -> int:
        return int(self.series[0].shape[0])

    @property
    def max_length(self) -> int:
        return max(int(s.shape[1]) for s in self.series)


def _case(path: Path, lineno: int, line: str, dims: int | None) -> tuple[np.ndarray, str]:
    parts = line.split(":")
    if len(parts) < 2:
        raise DataError(f"{path}: line {lineno}: expected 'series:...:label', found no ':' before a class label")
    *channels, label = parts
    if dims is not None and len(channels) != dims:
        raise DataError(f"{path}: line {lineno}: {len(channels)} dimensions, the header says @dimensions {dims}")
    rows = []
    for c, text in enumerate(channels):
        if "(" in text:
            raise DataError(f"{path}: line {lineno}: time-stamped series are not supported (@timeStamps true)")
        try:
            row = np.array([np.nan if v.strip() == "?" else float(v) for v in text.split(",")], np.float32)
        except ValueError:
            raise DataError(f"{path}: line {lineno}: dimension {c + 1} is not a comma-separated list of numbers") from None
        if not np.isfinite(row).all():
            raise DataError(f"{path}: line {lineno}: dimension {c + 1} has missing or non-finite values ('?', NaN); "
                            "fill them before use")
        rows.append(row)
    lengths = {len(r) for r in rows}
    if len(lengths) != 1:
        raise DataError(f"{path}: line {lineno}: dimensions have different lengths {sorted(lengths)} within one case")
    return np.stack(rows), label.strip()


@functools.lru_cache(maxsize=8)
def _parse_cached(path: str, _mtime_ns: int, _size: int) -> TsFile:
    return _parse(Path(path))


def read_ts(path: Path) -> TsFile:
    """Parse one ``.ts`` file (cached per path, modification time and size)."""
    path = Path(path)
    try:
        st = path.stat()
    except OSError as exc:
        raise DataError(f"{path}: cannot read .ts file ({exc.strerror or exc})") from None
    return _parse_cached(str(path), st.st_mtime_ns, st.st_size)


def _parse(path: Path) -> TsFile:
    try:
        text = path.read_text(encoding="utf-8", errors="strict")
    except (OSError, UnicodeDecodeError) as exc:
        raise DataError(f"{path}: cannot read .ts file ({exc})") from None
    header: dict[str, str] = {}
    series, labels = [], []
    in_data = False
    dims = None
    for lineno, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith(("#", "%")):
            continue
        if not in_data:
            if not line.startswith("@"):
                raise DataError(f"{path}: line {lineno}: expected a '@key value' header line or @data, got {line[:40]!r}")
            key, _, value = line[1:].partition(" ")
            key = key.lower()
            if key == "data":
                in_data = True
                if header.get("timestamps", "false").lower() == "true":
                    raise DataError(f"{path}: time-stamped series are not supported (@timeStamps true)")
                if "classlabel" not in header or not header["classlabel"].lower().startswith("true"):
                    raise DataError(f"{path}: no '@classLabel true ...' header: not a classification problem")
                dims = int(header["dimensions"]) if header.get("dimensions", "").isdigit() else None
                if header.get("univariate", "").lower() == "true":
                    dims = 1
                continue
            header[key] = value.strip()
            continue
        x, label = _case(path, lineno, line, dims)
        if series and x.shape[0] != series[0].shape[0]:
            raise DataError(f"{path}: line {lineno}: {x.shape[0]} dimensions, earlier cases have {series[0].shape[0]}")
        series.append(x)
        labels.append(label)
    if not in_data:
        raise DataError(f"{path}: no @data line (not a UEA/UCR .ts file)")
    if not series:
        raise DataError(f"{path}: @data section holds no cases")
    declared = header.get("classlabel", "").split()[1:]
    unknown = sorted(set(labels) - set(declared)) if declared else []
    if unknown:
        raise DataError(f"{path}: labels {unknown[:5]} are not in @classLabel {declared}")
    return TsFile(path, header, series, labels, declared)


def ts_pair(path: Path) -> tuple[Path, Path | None]:
    """The TRAIN file ``data.path`` names (file or folder) and its TEST sibling, if any."""
    path = Path(path)
    if path.is_dir():
        found = sorted(path.glob("*_TRAIN.ts"))
        if len(found) != 1:
            names = ", ".join(p.name for p in found) or "none"
            raise DataError(f"{path}: expected exactly one <Name>_TRAIN.ts in the folder, found {names}")
        path = found[0]
    elif not path.is_file():
        raise DataError(f"{path}: data.path does not exist")
    elif path.suffix.lower() != ".ts":
        raise DataError(f"{path}: expected a .ts file (UEA/UCR format) or the folder holding <Name>_TRAIN.ts")
    stem = path.name[:-len(path.suffix)]
    if not stem.upper().endswith("_TRAIN"):
        return path, None
    test = path.with_name(stem[:-6] + "_TEST" + path.suffix)
    return path, test if test.is_file() else None


def fit_length(x: np.ndarray, length: int) -> np.ndarray:
    """(C, T) -> (C, length): zero-pad the end, or crop the centre."""
    t = x.shape[1]
    if t >= length:
        start = (t - length) // 2
        return x[:, start:start + length]
    return np.concatenate([x, np.zeros((x.shape[0], length - t), x.dtype)], axis=1)


def stack(ts: TsFile, length: int) -> np.ndarray:
    """All cases as one (N, C, length) float32 array."""
    return np.stack([fit_length(s, length) for s in ts.series]).astype(np.float32)


def real_frames(ts: TsFile, length: int) -> np.ndarray:
    """Each case's frames of data after ``fit_length`` (the rest is padding)."""
    return np.array([min(s.shape[1], length) for s in ts.series], np.int64)
