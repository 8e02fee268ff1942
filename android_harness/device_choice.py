"""``device_for``: the named (or only) device, or a virtual phone behind a private adb server for one run."""
from __future__ import annotations

import contextlib
from typing import Iterator

from rich.console import Console

from android_harness.android_device import AndroidDevice


@contextlib.contextmanager
def device_for(serial: str | None, use_vphone: bool, preset: str = "pixel7",
               console: Console | None = None) -> Iterator[AndroidDevice]:
    """The device to run on; a virtual phone (and its adb server) is stopped again on exit."""
    if not use_vphone:
        yield AndroidDevice.open(serial or None)
        return
    from android_harness.vphone.scoped import scoped_vphone

    with scoped_vphone(preset, console) as device:
        yield device
