"""Free space a session needs on the device, checked before it starts (nothing runs into a full disk).

The estimate covers what a session writes: ``keep_checkpoints + 1`` checkpoints (one more while the
newest is written before the oldest is removed), each about four copies of the parameters
(parameters, raw gradients, masks, optimizer state) plus the stream buffer's bookkeeping; the
samples it appends to the replay store; and its events, logs and power trace.
"""
from __future__ import annotations

import math
from pathlib import Path

from android_harness.android_device import AndroidDevice
from android_harness.shell_quote import quote
from android_harness.storage_space import parse_df_available
from pipeline.errors import SessionError

LOG_BYTES = 4 * 2**20
PARAM_COPIES = 4


def session_write_bytes(export_dir: Path, keep_checkpoints: int, sb_size: int, n_tasks: int,
                        input_shape: tuple[int, ...], num_classes: int) -> int:
    """Bytes a session of ``n_tasks`` tasks may write (an upper estimate)."""
    programs = [p.stat().st_size for p in Path(export_dir).iterdir() if p.suffix in (".pte", ".onnx", ".ckpt")]
    params = max(programs, default=0)
    sample = 4 * math.prod(input_shape) + 16 + 4 * num_classes
    checkpoint = PARAM_COPIES * params + sb_size * (8 + 4 * num_classes + 4)
    return (keep_checkpoints + 1) * checkpoint + n_tasks * sb_size * sample + LOG_BYTES


def check_session_space(device: AndroidDevice, folder: str, need: int, session_id: str) -> None:
    """``SessionError("precheck")`` naming the folder, the free and the needed megabytes when it will not fit."""
    out = device.shell(f"mkdir -p {quote(folder)} && df -k {quote(folder)}", check=False, idempotent=True)
    free = parse_df_available(out.stdout)
    if free is not None and free < need:
        raise SessionError("precheck", f"No space left on device on {folder}: free {free / 1e6:.1f} MB, "
                                       f"needed {need / 1e6:.1f} MB (checkpoints, replay samples, events)", session_id)
