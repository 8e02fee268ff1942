"""Where edgecl keeps per-user state: ``$EDGECL_HOME`` or ``~/.cache/edgecl``."""
from __future__ import annotations

import os
from pathlib import Path


def edgecl_home() -> Path:
    env = os.environ.get("EDGECL_HOME")
    return Path(env).expanduser() if env else Path.home() / ".cache" / "edgecl"
