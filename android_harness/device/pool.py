"""An epoch over EM ∪ SB and the rows of one step (docs/semantics.md 3, 4.2-4.3).

Pool entries are integers: SB row ``r`` is ``r``, EM slot ``s`` is ``n_sb + s``. The pool is
``[active SB rows, ascending] + [EM slots]`` (EM for ``er``/``derpp`` only), shuffled with
``stream(seed, EPOCH, task, epoch)``; step ``k`` of the ``ceil(|P| / B)`` trains entries
``perm[(k*B + i) mod |P|]``, so every step has exactly ``B`` real rows (no padding, BatchNorm sees
only real samples) and a pool smaller than ``B`` repeats rows. ``StepRows`` fills the program's
inputs: SB rows ``ce_weight = f32(1/B)`` (logits of the task's classes only for er/derpp with
``current_task_logits_only``), EM rows ``f32(1/B)`` (er) or ``f32(beta/B)`` CE + ``f32(alpha/B)``
MSE to the slot's stored logits (derpp).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from android_harness.device.replay.em_build import EpisodicMemory
from android_harness.device.rng import EPOCH, Stream
from android_harness.device.methods import method
from android_harness.device.spec_tables import TrainConfig
from android_harness.device.stream_buffer import StreamBuffer


def epoch_pool(active_sb: np.ndarray, n_sb: int, em_slots: int) -> np.ndarray:
    return np.concatenate([np.asarray(active_sb, np.int64), n_sb + np.arange(em_slots, dtype=np.int64)])


def epoch_permutation(pool: np.ndarray, seed: int, task: int, epoch: int) -> np.ndarray:
    return Stream(seed, EPOCH, task, epoch).shuffle(pool)


def steps_in_epoch(pool_size: int, batch: int) -> int:
    return -(-pool_size // batch)


def step_entries(perm: np.ndarray, k: int, batch: int) -> np.ndarray:
    return perm[(k * batch + np.arange(batch)) % len(perm)]


@dataclass
class StepBatch:
    inputs: dict[str, np.ndarray]   # the program's training inputs (weight masks are added by the backend)
    sb_pos: np.ndarray              # positions (rows of the batch) holding SB rows, in row order
    sb_rows: np.ndarray             # their SB rows
    em_slots: np.ndarray            # the EM slots of the step, in row order
    ids: np.ndarray                 # sample id of every row


class StepRows:
    """Fills the program's ``[B, ...]`` input arrays from pool entries."""

    def __init__(self, train: TrainConfig, batch: int, num_classes: int, task_classes: np.ndarray) -> None:
        self.method, self.b = method(train.method), batch
        masked = train.current_task_logits_only and self.method.replays
        self.sb_mask = np.ones(num_classes, np.float32)
        if masked:
            self.sb_mask[:] = 0.0
            self.sb_mask[np.asarray(task_classes, np.int64)] = 1.0
        self.sb_ce = np.float32(1.0 / batch)
        em_ce, em_mse = self.method.em_loss_weights(train.alpha, train.beta)
        self.em_ce = np.float32(em_ce / batch)
        self.em_mse = np.float32(em_mse / batch)
        self.num_classes = num_classes

    def build(self, entries: np.ndarray, sb: StreamBuffer, em: EpisodicMemory | None) -> StepBatch:
        n_sb, c = sb.size, self.num_classes
        is_sb = entries < n_sb
        sb_pos = np.flatnonzero(is_sb)
        em_pos = np.flatnonzero(~is_sb)
        sb_rows, em_slots = entries[sb_pos], entries[em_pos] - n_sb
        x = np.empty((self.b, *sb.x.shape[1:]), np.float32)
        y = np.empty(self.b, np.int64)
        ids = np.empty(self.b, np.int64)
        logit_mask = np.ones((self.b, c), np.float32)
        ce = np.empty(self.b, np.float32)
        mse = np.zeros(self.b, np.float32)
        target = np.zeros((self.b, c), np.float32)
        x[sb_pos], y[sb_pos], ids[sb_pos] = sb.x[sb_rows], sb.y[sb_rows], sb.ids[sb_rows]
        logit_mask[sb_pos] = self.sb_mask
        ce[sb_pos] = self.sb_ce
        if em_pos.size:
            x[em_pos], y[em_pos], ids[em_pos] = em.x[em_slots], em.y[em_slots], em.ids[em_slots]
            ce[em_pos] = self.em_ce
            if self.method.stores_logits:
                mse[em_pos] = self.em_mse
                target[em_pos] = em.logits[em_slots]
        inputs = {"x": x, "y": y, "logit_mask": logit_mask, "ce_weight": ce, "target_logits": target, "mse_weight": mse}
        return StepBatch(inputs, sb_pos, sb_rows, em_slots, ids)

    def correct(self, logits: np.ndarray, y: np.ndarray) -> np.ndarray:
        """DDR's correctness of SB rows: argmax over the classes their logit mask allows (ties: lowest)."""
        z = np.where(self.sb_mask > 0, logits, -np.inf)
        return np.argmax(z, axis=1) == y
