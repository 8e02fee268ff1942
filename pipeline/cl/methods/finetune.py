"""Fine-tune (mammoth's SGD): plain CE over every class on the current task; the lower bound."""
from __future__ import annotations

import torch.nn.functional as F

from pipeline.cl.methods.base import Batch, Method, StepResult, correct_among, register
from pipeline.cl.policy import StepInfo


@register("finetune")
class Finetune(Method):
    def observe(self, batch: Batch, info: StepInfo) -> StepResult:
        self.opt.zero_grad()
        logits = self.model(batch.x)
        loss = F.cross_entropy(logits, batch.y)
        self._update(loss, info)
        n = len(batch.y)
        return StepResult(loss.item(), correct_among(logits, batch.y, None), n, n)
