"""Experience replay: EM rows join SB's in every epoch, with SB's cross-entropy."""
from android_harness.device.methods.base import Method

ER = Method("er", replays=True, doc="EM rows join SB's, same cross-entropy")
