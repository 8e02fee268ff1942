"""Joint training: SB holds every row of every task seen so far, no EM (the upper bound)."""
from android_harness.device.methods.base import Method

JOINT = Method("joint", sb_holds_seen_tasks=True, doc="SB = every seen task's rows, no EM (the upper bound)")
