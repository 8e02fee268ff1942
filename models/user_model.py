"""A user's own model class, named in the spec torchtune-style: ``package.module:Class`` (imported
from ``sys.path`` or the working folder) or ``path/to/file.py:Class`` (a file, relative to the
working folder), constructed with ``[model.args]``.

Arguments the data decides are filled in when the constructor takes them and the spec leaves them
out: ``num_classes``, ``in_channels`` (= input_shape[0]), ``in_features`` (= prod(input_shape)),
``input_shape``. Every failure is a ``ModelSpecError`` naming ``model.kind`` or ``model.args.<key>``.
"""
from __future__ import annotations

import hashlib
import importlib
import importlib.util
import inspect
import math
import os
import re
import sys
from pathlib import Path
from typing import Any

from torch import nn


class ModelSpecError(ValueError):
    """A model named in the spec cannot be imported, built or used; each problem names the key
    (``models`` is a leaf: ``pipeline.spec_model`` turns this into a ``ConfigError``)."""

    def __init__(self, problems: list[str] | str) -> None:
        self.problems = [problems] if isinstance(problems, str) else list(problems)
        super().__init__("; ".join(self.problems))


FILLED = ("num_classes", "in_channels", "in_features", "input_shape")


def is_user_kind(kind: str) -> bool:
    return ":" in kind


def model_label(kind: str) -> str:
    """A file-name-safe short name: the class name of a user's model, else the registry name."""
    return re.sub(r"[^A-Za-z0-9_.-]", "_", kind.rpartition(":")[2] if is_user_kind(kind) else kind)


def split_kind(kind: str) -> tuple[str, str, bool]:
    """(module or file, class name, is_file) of ``kind``; a malformed one is a ``ModelSpecError``."""
    target, _, name = kind.rpartition(":")
    if not target or not name.isidentifier():
        raise ModelSpecError(f"model.kind: {kind!r} is not 'package.module:Class' or 'path/to/file.py:Class'")
    is_file = target.endswith(".py") or "/" in target or os.sep in target
    if not is_file and not all(p.isidentifier() for p in target.split(".")):
        raise ModelSpecError(f"model.kind: {target!r} is not a module path (dotted identifiers) or a .py file")
    return target, name, is_file


def _module_from_file(path: Path) -> Any:
    """Import a .py file once per path and content under a private name (edited files are imported again)."""
    if not path.is_file():
        raise ModelSpecError(f"model.kind: model file {str(path)!r} does not exist")
    digest = hashlib.sha256(str(path).encode() + b"\0" + path.read_bytes()).hexdigest()[:12]
    name = f"edgecl_user_model_{path.stem}_{digest}"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise ModelSpecError(f"model.kind: {str(path)!r} cannot be imported as a Python file")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except Exception as exc:
        del sys.modules[name]
        raise ModelSpecError(f"model.kind: importing {str(path)!r} failed: {type(exc).__name__}: {exc}") from None
    return module


def _module_by_name(dotted: str) -> Any:
    """``import dotted``, also from the working folder (the ``edgecl`` script does not put it on sys.path)."""
    cwd = os.getcwd()
    added = cwd not in sys.path
    if added:
        sys.path.insert(0, cwd)
    try:
        return importlib.import_module(dotted)
    except ModuleNotFoundError as exc:
        raise ModelSpecError(f"model.kind: cannot import {dotted!r} ({exc}); put it on PYTHONPATH, run from the folder "
                          "that holds it, or name its file ('path/to/file.py:Class')") from None
    except Exception as exc:
        raise ModelSpecError(f"model.kind: importing {dotted!r} failed: {type(exc).__name__}: {exc}") from None
    finally:
        if added and cwd in sys.path:
            sys.path.remove(cwd)


def load_class(kind: str) -> type:
    """The class ``kind`` names; it must be a ``torch.nn.Module`` subclass."""
    target, name, is_file = split_kind(kind)
    module = _module_from_file(Path(target).expanduser().resolve()) if is_file else _module_by_name(target)
    cls = getattr(module, name, None)
    if cls is None:
        public = sorted(n for n, v in vars(module).items() if isinstance(v, type) and issubclass(v, nn.Module))
        raise ModelSpecError(f"model.kind: {target} has no {name!r} (nn.Module classes there: {', '.join(public) or 'none'})")
    if not (isinstance(cls, type) and issubclass(cls, nn.Module)):
        raise ModelSpecError(f"model.kind: {kind!r} is a {type(cls).__name__}, not a torch.nn.Module subclass")
    return cls


def source_digest(kind: str) -> str:
    """sha256 of the file defining ``kind``'s class (part of export cache keys: editing it re-exports)."""
    cls = load_class(kind)
    try:
        return hashlib.sha256(Path(inspect.getfile(cls)).read_bytes()).hexdigest()[:16]
    except (OSError, TypeError):
        return ""


def build_user_model(kind: str, args: dict[str, Any], input_shape: tuple[int, ...], num_classes: int) -> nn.Module:
    """Construct ``kind`` with ``args`` plus the data-given arguments its constructor takes."""
    cls = load_class(kind)
    params = inspect.signature(cls.__init__).parameters
    takes_any = any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values())
    named = [n for n, p in params.items() if n != "self" and p.kind in (inspect.Parameter.POSITIONAL_OR_KEYWORD,
                                                                         inspect.Parameter.KEYWORD_ONLY)]
    unknown = [k for k in args if k not in named and not takes_any]
    if unknown:
        raise ModelSpecError([f"model.args.{k}: {cls.__name__} takes no argument {k!r} (it takes: {', '.join(named) or 'none'})"
                           for k in unknown])
    given = {"num_classes": num_classes, "in_channels": input_shape[0], "in_features": math.prod(input_shape),
             "input_shape": tuple(input_shape)}
    kwargs = {k: v for k, v in given.items() if k in named and k not in args} | dict(args)
    missing = [n for n in named if n not in kwargs and params[n].default is inspect.Parameter.empty]
    if missing:
        raise ModelSpecError([f"model.args.{n}: required by {cls.__name__} and not given" for n in missing])
    try:
        model = cls(**kwargs)
    except Exception as exc:
        raise ModelSpecError(f"model.args: {cls.__name__}({', '.join(f'{k}={v!r}' for k, v in kwargs.items())}) "
                          f"failed: {type(exc).__name__}: {exc}") from None
    return model
