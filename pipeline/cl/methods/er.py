"""Experience Replay with a reservoir buffer (mammoth's ``er.py``).

With ``current_task_logits_only`` (SparCL's setting) the loss is CE(current batch, task logits) +
CE(buffer draw, all logits); otherwise mammoth's single CE over the concatenated batch.
"""
from __future__ import annotations

import torch
import torch.nn.functional as F

from pipeline.cl.methods.base import Batch, Method, StepResult, correct_among, masked_cross_entropy, register
from pipeline.cl.policy import StepInfo
from pipeline.cl.reservoir import ReservoirBuffer


@register("er")
class ER(Method):
    def __init__(self, model, optimizer, policy, train, rng) -> None:
        super().__init__(model, optimizer, policy, train, rng)
        self.buffer = ReservoirBuffer(train.buffer_size, rng)

    def observe(self, batch: Batch, info: StepInfo) -> StepResult:
        self.opt.zero_grad()
        n = len(batch.y)
        masked = self.args.current_task_logits_only
        draw = None if self.buffer.is_empty() else self.buffer.sample(self.args.buffer_batch_size)
        if draw is not None and not masked:
            x = torch.cat([batch.x, torch.from_numpy(draw.x)])
            y = torch.cat([batch.y, torch.from_numpy(draw.y)])
            all_logits = self.model(x)
            loss = F.cross_entropy(all_logits, y)
            logits = all_logits[:n]
        else:
            logits = self.model(batch.x)
            loss = masked_cross_entropy(logits, batch.y, batch.classes) if masked else F.cross_entropy(logits, batch.y)
            if draw is not None:
                loss = loss + F.cross_entropy(self.model(torch.from_numpy(draw.x)), torch.from_numpy(draw.y))
        self._update(loss, info)
        self.buffer.add(batch.x.numpy(), batch.y.numpy(), batch.task)
        extra = 0 if draw is None else len(draw.y)
        return StepResult(loss.item(), correct_among(logits, batch.y, batch.classes if masked else None),
                          n + extra, n + extra)
