"""A runner's log quoted in an error message is one line and never a traceback."""
from __future__ import annotations

from android_harness.session import log_summary

LOG = """edgecl-runner: step 12
Traceback (most recent call last):
  File "/data/local/tmp/edgecl/edgecl_device.pyz/android_harness/device/runner.py", line 142, in run
    reserve = SpaceReserve(os.path.join(self.dir, RESERVE_FILE))
OSError: [Errno 28] No space left on device
"""


def test_a_traceback_is_reduced_to_its_error_line() -> None:
    assert log_summary(LOG) == "edgecl-runner: step 12 / OSError: [Errno 28] No space left on device"
    assert log_summary("") == ""
