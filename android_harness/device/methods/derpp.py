"""DER++: replay that also stores each row's logits; an EM row's loss is beta * CE + alpha * MSE to them."""
from android_harness.device.methods.base import Method

DERPP = Method("derpp", replays=True, stores_logits=True,
               doc="replay with stored logits: EM rows weigh beta * CE + alpha * MSE to their logits")
