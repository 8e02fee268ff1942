"""DER++ (mammoth's ``derpp.py``): the buffer keeps inputs, labels and the logits seen at insertion.

loss = CE(current) + alpha * MSE(f(x1), stored logits of draw 1) + beta * CE(f(x2), labels of draw 2),
two independent buffer draws. With ``current_task_logits_only`` (SparCL) the current CE uses the
task's logits only; the buffer terms always use every logit. alpha = 0 and beta > 0 is ER-like, and
beta = 0 is DER.
"""
from __future__ import annotations

import torch
import torch.nn.functional as F

from pipeline.cl.methods.base import Batch, Method, StepResult, correct_among, masked_cross_entropy, register
from pipeline.cl.policy import StepInfo
from pipeline.cl.reservoir import ReservoirBuffer


@register("derpp")
class DERpp(Method):
    def __init__(self, model, optimizer, policy, train, rng) -> None:
        super().__init__(model, optimizer, policy, train, rng)
        self.buffer = ReservoirBuffer(train.buffer_size, rng, keep_logits=True)

    def observe(self, batch: Batch, info: StepInfo) -> StepResult:
        self.opt.zero_grad()
        n, masked = len(batch.y), self.args.current_task_logits_only
        logits = self.model(batch.x)
        loss = masked_cross_entropy(logits, batch.y, batch.classes) if masked else F.cross_entropy(logits, batch.y)
        extra = 0
        if not self.buffer.is_empty():
            if self.args.alpha > 0:
                d1 = self.buffer.sample(self.args.buffer_batch_size)
                loss = loss + self.args.alpha * F.mse_loss(self.model(torch.from_numpy(d1.x)), torch.from_numpy(d1.logits))
                extra += len(d1.y)
            if self.args.beta > 0:
                d2 = self.buffer.sample(self.args.buffer_batch_size)
                loss = loss + self.args.beta * F.cross_entropy(self.model(torch.from_numpy(d2.x)), torch.from_numpy(d2.y))
                extra += len(d2.y)
        self._update(loss, info)
        self.buffer.add(batch.x.numpy(), batch.y.numpy(), batch.task, logits.detach().numpy())
        return StepResult(loss.item(), correct_among(logits, batch.y, batch.classes if masked else None),
                          n + extra, n + extra)
