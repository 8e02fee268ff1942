"""Reader for a user's own arrays (``data.kind = "arrays"``): ``.npz`` / ``.npy`` files or a folder.

Accepted layouts (key and file names case-insensitive):

- one ``.npz`` holding ``x`` and ``y``, or ``x_train``/``y_train`` (+ ``x_test``/``y_test``)
- a folder of ``x.npy``/``y.npy``, or ``x_train.npy``/``y_train.npy`` (+ ``x_test.npy``/``y_test.npy``)
- one ``x.npy`` with ``data.labels`` naming the labels' ``.npy``

Samples are (N, F), (N, C, T) or (N, C, H, W); labels (N,) integers or strings. Pickled (object)
arrays are refused: a data file must not run code. ``peek`` reads only the headers of the sample
arrays (shapes without loading them) and the labels, for spec-time checks.
"""
from __future__ import annotations

import zipfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from pipeline.errors import DataError

LAYOUTS = (("x_train", "y_train", "x_test", "y_test"), ("x", "y"))
EXPECTED = ("x and y, or x_train and y_train (with optional x_test and y_test)")


@dataclass(frozen=True)
class Member:
    """Where one array lives: a ``.npy`` file, or a key inside a ``.npz``."""

    file: Path
    key: str | None = None

    def __str__(self) -> str:
        return f"{self.file}[{self.key}]" if self.key else str(self.file)


@dataclass
class RawArrays:
    """Arrays as stored: labels not yet encoded; ``x_test`` None when the files hold no test split."""

    x_train: np.ndarray
    y_train: np.ndarray
    x_test: np.ndarray | None
    y_test: np.ndarray | None
    source: str
    files: list[Path]


def _pick(names: dict[str, str], where: str) -> dict[str, str]:
    """Role -> stored name for the first layout whose x and y are both present."""
    for layout in LAYOUTS:
        if layout[0] in names and layout[1] in names:
            roles = {r: names[r] for r in layout if r in names}
            if ("x_test" in roles) != ("y_test" in roles):
                raise DataError(f"{where}: has only one of x_test / y_test; give both or neither")
            return roles
    raise DataError(f"{where}: expected arrays named {EXPECTED}; found {', '.join(sorted(names.values())) or 'none'}")


def locate(path: Path, labels: Path | None = None) -> dict[str, Member]:
    """Role (x_train, y_train, x_test, y_test) -> where that array is stored."""
    path = Path(path)
    if not path.exists():
        raise DataError(f"{path}: data.path does not exist")
    if path.is_dir():
        names = {p.stem.lower(): p.name for p in path.iterdir() if p.suffix.lower() == ".npy"}
        roles = _pick(names, f"{path} (folder of .npy files)")
        out = {role: Member(path / name) for role, name in roles.items()}
        return {("x_train" if r == "x" else "y_train" if r == "y" else r): m for r, m in out.items()}
    suffix = path.suffix.lower()
    if suffix == ".npz":
        try:
            with zipfile.ZipFile(path) as zf:
                keys = [n[:-4] for n in zf.namelist() if n.endswith(".npy")]
        except (OSError, zipfile.BadZipFile) as exc:
            raise DataError(f"{path}: not a readable .npz file ({exc})") from None
        roles = _pick({k.lower(): k for k in keys}, str(path))
        return {("x_train" if r == "x" else "y_train" if r == "y" else r): Member(path, k) for r, k in roles.items()}
    if suffix == ".npy":
        if labels is None:
            raise DataError(f"{path}: a single .npy holds only the samples; set data.labels to the labels' .npy "
                            "(or give a folder with x.npy and y.npy, or an .npz)")
        return {"x_train": Member(path), "y_train": Member(Path(labels))}
    raise DataError(f"{path}: expected an .npz file, an .npy file or a folder of .npy files (got {suffix or 'no suffix'})")


def _npy_header(fh, where: str) -> tuple[tuple[int, ...], np.dtype]:
    try:
        version = np.lib.format.read_magic(fh)
        read = np.lib.format.read_array_header_1_0 if version == (1, 0) else np.lib.format.read_array_header_2_0
        shape, _fortran, dtype = read(fh)
    except ValueError as exc:
        raise DataError(f"{where}: not a .npy array ({exc})") from None
    return tuple(int(s) for s in shape), np.dtype(dtype)


def member_shape(m: Member) -> tuple[tuple[int, ...], np.dtype]:
    """Shape and dtype of a stored array, read from its header only."""
    try:
        if m.key is None:
            with open(m.file, "rb") as fh:
                return _npy_header(fh, str(m))
        with zipfile.ZipFile(m.file) as zf, zf.open(m.key + ".npy") as fh:
            return _npy_header(fh, str(m))
    except OSError as exc:
        raise DataError(f"{m}: cannot read ({exc.strerror or exc})") from None


def load_member(m: Member) -> np.ndarray:
    """The array itself; object (pickled) arrays are refused."""
    try:
        if m.key is None:
            return np.load(m.file, allow_pickle=False)
        with np.load(m.file, allow_pickle=False) as npz:
            return npz[m.key]
    except ValueError as exc:
        if "pickle" in str(exc).lower():
            raise DataError(f"{m}: holds Python objects (a pickle); save numbers, or labels as a string array "
                            "(np.array(labels, dtype=str))") from None
        raise DataError(f"{m}: cannot read ({exc})") from None
    except (OSError, zipfile.BadZipFile, EOFError) as exc:
        raise DataError(f"{m}: cannot read ({exc})") from None


def _check_x(m: Member, shape: tuple[int, ...], dtype: np.dtype) -> None:
    if len(shape) not in (2, 3, 4):
        raise DataError(f"{m}: samples must be (N, F), (N, C, T) or (N, C, H, W); got shape {shape}")
    if dtype.kind not in "fiub":
        raise DataError(f"{m}: samples must be numeric, got dtype {dtype}")


def peek(path: Path, labels: Path | None = None) -> tuple[dict[str, tuple[int, ...]], dict[str, np.ndarray]]:
    """Sample shapes (headers only) and the labels, both by role; every shape checked."""
    where = locate(path, labels)
    shapes, ys = {}, {}
    for role, m in where.items():
        if role.startswith("x"):
            shape, dtype = member_shape(m)
            _check_x(m, shape, dtype)
            shapes[role] = shape
        else:
            ys[role] = load_member(m)
    for split in ("train", "test"):
        if f"x_{split}" not in shapes:
            continue
        xs, y = shapes[f"x_{split}"], ys[f"y_{split}"]
        if y.ndim != 1 or len(y) != xs[0]:
            raise DataError(f"{where[f'y_{split}']}: {y.shape} labels for {xs[0]} samples in {where[f'x_{split}']}; "
                            "expected one label per sample, shape (N,)")
    if "x_test" in shapes and shapes["x_test"][1:] != shapes["x_train"][1:]:
        raise DataError(f"{where['x_test']}: test samples are {shapes['x_test'][1:]}, training samples "
                        f"{shapes['x_train'][1:]}; expected the same shape")
    return shapes, ys


def read_arrays(path: Path, labels: Path | None = None) -> RawArrays:
    """All arrays of a user's data files, checked (shapes, lengths, finite values)."""
    where = locate(path, labels)
    _, ys = peek(path, labels)
    xs = {role: load_member(m) for role, m in where.items() if role.startswith("x")}
    for role, x in xs.items():
        bad = int(np.count_nonzero(~np.isfinite(x))) if x.dtype.kind == "f" else 0
        if bad:
            raise DataError(f"{where[role]}: {bad} values are NaN or infinite; fill or drop them first")
    files = sorted({m.file for m in where.values()})
    return RawArrays(xs["x_train"], ys["y_train"], xs.get("x_test"), ys.get("y_test"), str(Path(path)), files)
