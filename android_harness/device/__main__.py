"""Entry point of the device zip: ``python3 edgecl_device.pyz run SESSION_DIR`` (one session), ``serve QUEUE_DIR``
(the persistent runner, ``android_harness.device.server``) or ``check``."""
from __future__ import annotations

import json
import os
import sys

USAGE = "usage: edgecl_device.pyz run SESSION_DIR | serve QUEUE_DIR [IDLE_S] | check"


def main(argv: list[str]) -> int:
    if len(argv) == 2 and argv[0] == "run":
        from android_harness.device.events import process_start
        from android_harness.device.runner import Runner

        try:
            with open(os.path.join(argv[1], "runner.pid"), "w") as f:
                f.write(str(os.getpid()))
        except OSError:            # a full disk, as the native runner: the session's first write names the cause
            pass
        result = Runner(argv[1]).run(launched=process_start())
        return {"ok": 0, "cancelled": 3}.get(result["status"], 1)
    if len(argv) in (2, 3) and argv[0] == "serve":
        from android_harness.device.server import IDLE_EXIT_S, Server

        code = sys.argv[0] if sys.argv[0].endswith(".pyz") and os.path.isfile(sys.argv[0]) else None
        return Server(argv[1], float(argv[2]) if len(argv) == 3 else IDLE_EXIT_S, code_path=code).serve()
    if argv == ["check"]:
        import numpy

        found = {"python": sys.version.split()[0], "numpy": numpy.__version__}
        for mod in ("executorch", "onnxruntime"):
            try:
                found[mod] = getattr(__import__(mod), "__version__", "present")
            except ImportError:
                found[mod] = None
        print(json.dumps(found))
        return 0
    print(USAGE, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
