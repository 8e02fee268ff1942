"""An adb step repeated while the link is down. A failure that says nothing of the device's state (no exit
code came back, a timeout, a server that could not be reached or revived) is a dropped link: the step is
tried again, up to a bound, and an ``Adb`` with a revive hook starts a dead adb server of edgecl's own
again on its next call. Only steps safe to repeat go through here (a poll, an attach, a push to temporary
names, a pull)."""
from __future__ import annotations

import time
from typing import Callable, TypeVar

from android_harness.errors import AdbError, DeviceError

T = TypeVar("T")

RECONNECT_TIMEOUT_S = 120.0
RETRY_PAUSE_S = 0.5


def link_dropped(exc: DeviceError) -> bool:
    """True when ``exc`` says nothing of the device's state, so the call may be repeated."""
    return exc.rc is None if isinstance(exc, AdbError) else True


def through_drops(fn: Callable[[], T], give_up: Callable[[DeviceError], Exception],
                  on_drop: Callable[[], None] | None = None, timeout_s: float = RECONNECT_TIMEOUT_S) -> T:
    """``fn`` run again while the link drops (``on_drop`` called before each new try) for up to ``timeout_s``;
    then ``give_up(last failure)`` is raised. Any other failure is raised at once."""
    lost_since = time.monotonic()
    while True:
        try:
            return fn()
        except DeviceError as exc:
            if not link_dropped(exc):
                raise
            if time.monotonic() - lost_since > timeout_s:
                raise give_up(exc) from exc
            if on_drop is not None:
                on_drop()
            time.sleep(RETRY_PAUSE_S)
