"""A sweep's grid: ``--set KEY=V1,V2`` (repeatable) x ``--seeds 0..4`` -> one ``RunPlan`` per point.

Each run is the spec with the point's dotted overrides, its seed and a safe, unique run name (the
run's ``spec.name``, so its results folder is the normal ``<name>-<time>`` one). Values are read as
TOML values (``0.5``, ``true``, ``[100, 100]``, ``"x"``), a bare word as a string.
"""
from __future__ import annotations

import itertools
import re
import tomllib
from dataclasses import dataclass, field
from typing import Any, Sequence

from android_harness.device.paths import name_problem
from pipeline.errors import ConfigError

MAX_RUN_NAME = 40           # + "-<yyyymmdd-hhmmss>-task<N>" keeps the session id within the 64-character safe name
_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")
_KEY = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$")


@dataclass(frozen=True)
class RunPlan:
    """One run of a sweep. ``config``: the grid point without the seed (what seeds are averaged over);
    ``pin``: the pool member (``SERIAL@HOST:PORT``) it must run on, for one spec run on several phones."""

    name: str
    config: str
    seed: int
    overrides: dict[str, Any] = field(default_factory=dict)
    pin: str | None = None


def _split_values(text: str) -> list[str]:
    """Split at commas outside brackets and quotes (``[1,2],[3]`` is two values)."""
    out, depth, quote, cur = [], 0, "", ""
    for ch in text:
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "\"'":
            quote = ch
        elif ch in "[{":
            depth += 1
        elif ch in "]}":
            depth -= 1
        elif ch == "," and depth == 0:
            out.append(cur)
            cur = ""
            continue
        cur += ch
    out.append(cur)
    return [v.strip() for v in out]


def parse_value(text: str) -> Any:
    try:
        return tomllib.loads(f"v = {text}")["v"]
    except tomllib.TOMLDecodeError:
        return text


def parse_set(text: str) -> tuple[str, list[Any]]:
    """``KEY=V1,V2`` -> (key, values)."""
    key, sep, values = text.partition("=")
    key = key.strip()
    if not sep or not _KEY.match(key) or not values.strip():
        raise ConfigError(f"--set {text!r}: expected KEY=V1,V2 with a dotted spec key (e.g. sparcl.sparsity=0.5,0.75)")
    if key in ("name", "seed"):
        raise ConfigError(f"--set {key}: the sweep sets {key} itself (use --seeds for seeds)")
    parts = _split_values(values)
    if any(not p for p in parts):
        raise ConfigError(f"--set {text!r}: an empty value")
    return key, [parse_value(p) for p in parts]


def parse_seeds(text: str) -> list[int]:
    """``0..4`` (inclusive), ``0,2,5`` or ``3``."""
    try:
        if ".." in text:
            lo, hi = (int(x) for x in text.split("..", 1))
            seeds = list(range(lo, hi + 1))
        else:
            seeds = [int(x) for x in text.split(",")]
    except ValueError:
        raise ConfigError(f"--seeds {text!r}: expected A..B, a comma list or one integer") from None
    if not seeds or min(seeds) < 0 or len(set(seeds)) != len(seeds):
        raise ConfigError(f"--seeds {text!r}: expected distinct seeds >= 0")
    return seeds


def _slug(value: Any) -> str:
    text = "_".join(map(str, value)) if isinstance(value, list) else str(value).lower() if isinstance(value, bool) else str(value)
    return _UNSAFE.sub("_", text).strip("_.-") or "x"


def config_label(point: Sequence[tuple[str, Any]]) -> str:
    return ", ".join(f"{k}={v}" for k, v in point) or "(spec)"


def expand(base: str, sets: Sequence[tuple[str, list[Any]]], seeds: Sequence[int] | None, spec_seed: int = 0) -> list[RunPlan]:
    """Every grid point x seed, in order: points vary the last ``--set`` fastest, seeds fastest of all."""
    keys = [k for k, _ in sets]
    if len(set(keys)) != len(keys):
        raise ConfigError(f"--set: a key is given twice ({', '.join(keys)})")
    base = _UNSAFE.sub("-", base).strip("-.") or "run"
    points = list(itertools.product(*[[(k, v) for v in vals] for k, vals in sets]))
    cells = [(ci, point, seed) for ci, point in enumerate(points) for seed in (list(seeds) if seeds else [spec_seed])]
    readable = ["-".join(p for p in (base, "-".join(f"{k.rsplit('.', 1)[-1]}{_slug(v)}" for k, v in point), f"s{seed}") if p)
                for _, point, seed in cells]
    if max(map(len, readable)) > MAX_RUN_NAME or len(set(readable)) != len(readable):   # one style for the whole sweep
        readable = [f"{base[:MAX_RUN_NAME - 12].rstrip('-._')}-c{ci:03d}-s{seed}" for ci, _, seed in cells]
    for name in readable:
        problem = name_problem(name, "run name")
        if problem:
            raise ConfigError(problem)
    return [RunPlan(name, config_label(point), seed, {**dict(point), "seed": seed, "name": name})
            for name, (_, point, seed) in zip(readable, cells)]


def pinned(base: str, spec_seed: int, member_keys: Sequence[str]) -> list[RunPlan]:
    """The spec once on each phone (``edgecl run --serial A --serial B``): one run pinned per member."""
    base = _UNSAFE.sub("-", base).strip("-.")[: MAX_RUN_NAME - 5] or "run"
    return [RunPlan(f"{base}-d{i}", "(spec)", spec_seed, {"name": f"{base}-d{i}"}, pin=key)
            for i, key in enumerate(member_keys)]
