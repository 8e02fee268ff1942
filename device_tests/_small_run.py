"""What the device tests that drive a whole ``edgecl run`` share: a small run's spec, the CLI's command
line in this interpreter, a wait for a condition with a generous bound (never a fixed sleep), and the
command's process never left running by a failed check."""
from __future__ import annotations

import subprocess
import sys
import time
from contextlib import contextmanager
from typing import Callable, Iterator, TypeVar

T = TypeVar("T")


def small_run_spec(name: str, epochs: int = 2) -> str:
    """A 3-task Split Digits ER run of a small MLP, power off: a few seconds a task on a virtual phone."""
    return f"""name = "{name}"
seed = 0
[data]
kind = "digits"
tasks = 3
classes_per_task = 2
[model]
kind = "mlp"
hidden = [32]
[train]
method = "er"
epochs = {epochs}
batch_size = 32
lr = 0.05
[replay]
em_size = 60
sb_size = 300
[power]
enabled = false
"""


def edgecl_argv(*args: str) -> list[str]:
    return [sys.executable, "-m", "pipeline.cli.app", *args]


def wait_for(what: str, check: Callable[[], T], seconds: float = 300.0) -> T:
    deadline = time.monotonic() + seconds
    while not (got := check()):
        assert time.monotonic() < deadline, f"no {what} within {seconds:.0f} s"
        time.sleep(0.2)
    return got


@contextmanager
def reaped(proc: subprocess.Popen) -> Iterator[subprocess.Popen]:
    """``proc`` for the block; killed and reaped if the block ends (a failed check) with it still running."""
    try:
        yield proc
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
