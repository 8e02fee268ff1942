"""The eager reference of an export: the same wrapper, weights and masks, trained with torch.optim.

Parity tests compare a runtime's steps with it; ``bench/export_step.py`` times it as the baseline.
"""
from __future__ import annotations

import copy

import numpy as np
import torch

from pipeline.export.request import ExportRequest, prepare_model
from pipeline.export.wrapper import TrainingWrapper

INPUT_ORDER = ("x", "y", "logit_mask", "ce_weight", "target_logits", "mse_weight")


def replay_batch(req: ExportRequest, seed: int) -> dict[str, np.ndarray]:
    """A DER++-shaped batch: current rows (task-logit CE), logit-replay rows (MSE), label-replay rows, padding."""
    rng = np.random.default_rng(seed)
    b, c = req.batch_size, req.num_classes
    third = max(1, b // 3)
    logit_mask = np.ones((b, c), np.float32)
    logit_mask[:third, : c // 2] = 0.0
    y = rng.integers(0, c, b)
    y[:third] = rng.integers(c // 2, c, third)
    ce = np.zeros(b, np.float32)
    mse = np.zeros(b, np.float32)
    ce[:third] = 1.0 / third
    mse[third:2 * third] = 0.3 / third
    ce[2 * third:b - 1] = 0.5 / max(1, b - 1 - 2 * third)  # the last row pads (both weights 0)
    return {"x": rng.standard_normal((b, *req.input_shape)).astype(np.float32), "y": y.astype(np.int64),
            "logit_mask": logit_mask, "ce_weight": ce, "target_logits": rng.standard_normal((b, c)).astype(np.float32),
            "mse_weight": mse}


class EagerReference:
    """``TrainingWrapper`` over the request's prepared model, with ``torch.optim`` SGD/AdamW."""

    def __init__(self, req: ExportRequest) -> None:
        prepared = prepare_model(req)
        self.model = copy.deepcopy(prepared.model).train()
        self.masks = prepared.masks
        self.wrapper = TrainingWrapper(self.model, list(self.masks))
        params = [p for p in self.model.parameters() if p.requires_grad]
        if req.optimizer == "sgd":
            self.opt = torch.optim.SGD(params, lr=req.lr, momentum=req.momentum, weight_decay=req.weight_decay)
        else:
            self.opt = torch.optim.AdamW(params, lr=req.lr, betas=(0.9, 0.999), eps=1e-8, weight_decay=req.weight_decay)

    def step(self, batch: dict[str, np.ndarray], grad_masks: dict[str, np.ndarray] | None = None):
        """One step; returns (loss, logits, gradients by name after DGM masking)."""
        self.opt.zero_grad()
        args = [torch.from_numpy(batch[k]) for k in INPUT_ORDER]
        loss, logits, *_ = self.wrapper(*args, *(torch.from_numpy(self.masks[n]) for n in self.masks))
        loss.backward()
        named = dict(self.model.named_parameters())
        for n, gm in (grad_masks or {}).items():
            named[n].grad.mul_(torch.from_numpy(gm))
        grads = {n: p.grad.detach().numpy().copy() for n, p in named.items()}
        self.opt.step()
        return float(loss), logits.detach().numpy(), grads

    def eval_logits(self, x: np.ndarray) -> np.ndarray:
        """Logits of ``x`` in eval mode (running statistics), the masked weights as the training step uses them."""
        self.wrapper._masks.update({n: torch.from_numpy(m) for n, m in self.masks.items()})
        try:
            with torch.no_grad():
                return self.model.eval()(torch.from_numpy(x)).numpy()
        finally:
            self.wrapper._masks.clear()
            self.model.train()

    def params(self) -> dict[str, np.ndarray]:
        return {n: p.detach().numpy().copy() for n, p in self.model.named_parameters()}

    def buffers(self) -> dict[str, np.ndarray]:
        return {n: b.detach().numpy().copy() for n, b in self.model.named_buffers() if not n.endswith("num_batches_tracked")}
