"""Options shared by several commands, and the ``--verbose`` switch for third-party export chatter.

Torch, torchao, ExecuTorch and ONNX log and warn about their own internals on every export
(pages of ``FutureWarning``, ``W... _pytree.py`` lines, "Failed to load ... .so"); none of it is
about the user's model. ``quiet_third_party`` silences those loggers and the warnings their modules
raise for the rest of the process; ``edgecl --verbose`` keeps them.
"""
from __future__ import annotations

import logging
import os
import warnings
from typing import Any

import typer

SERIAL_HELP = "device serial (default: ANDROID_SERIAL or the only device)"
THIRD_PARTY_LOGGERS = ("torch", "torchao", "executorch", "onnx", "onnxruntime", "onnxscript")
# modules whose warnings are about their own internals (copyreg/contextlib: where torch's are attributed)
THIRD_PARTY_MODULES = r"(torch|torchao|executorch|onnx|onnxruntime|onnxscript|copyreg|contextlib)(\..*)?"


def serial_option(help_text: str = SERIAL_HELP) -> Any:
    return typer.Option(None, "--serial", "-s", help=help_text)


def quiet_third_party() -> None:
    """Mute third-party loggers (below CRITICAL) and warnings raised from their modules, process-wide.
    Torch resets its loggers when it is imported, so it is told through ``TORCH_LOGS`` (errors only)."""
    os.environ.setdefault("TORCH_LOGS", "-all")
    for name in THIRD_PARTY_LOGGERS:
        logging.getLogger(name).setLevel(logging.CRITICAL)
    warnings.filterwarnings("ignore", module=THIRD_PARTY_MODULES)
