"""Joint training (upper bound): each task trains on the union of every task seen so far.

mammoth's joint trains once, after the last task; training on the cumulative union at every task
instead gives a full accuracy matrix (the last row is the usual joint upper bound) at the cost of
(T + 1) / 2 times the samples, which the per-task cost counters show.
"""
from __future__ import annotations

from pipeline.cl.methods.base import Batch, Method, StepResult, correct_among, masked_cross_entropy, register
from pipeline.cl.policy import StepInfo


@register("joint")
class Joint(Method):
    cumulative = True

    def observe(self, batch: Batch, info: StepInfo) -> StepResult:
        self.opt.zero_grad()
        logits = self.model(batch.x)
        loss = masked_cross_entropy(logits, batch.y, batch.classes)   # classes = every class seen so far
        self._update(loss, info)
        n = len(batch.y)
        return StepResult(loss.item(), correct_among(logits, batch.y, batch.classes), n, n)
