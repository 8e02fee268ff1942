"""One CL step's batch for the exported replay-loss program (ER / DER++ / fine-tune, mammoth semantics).

The program computes ``sum_i ce_weight_i * CE(masked logits_i, y_i) + mse_weight_i * MSE_i`` over a
fixed number of rows (see ``pipeline/export/wrapper.py``), so a method is only a choice of rows and
weights. Replay draws come from the episodic memory in the host trainer's order (DER++: the logit
draw, then the label draw; ER: one draw) with the same generator calls, so given the same seed the
device and ``pipeline.cl`` pick the same samples.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from android_harness.device.replay import EpisodicMemory, StreamBuffer
from android_harness.device.session_spec import TrainConfig
from pipeline.cl.metrics import masked_predictions


def rows_per_step(train: TrainConfig) -> int:
    """Rows the exported program must take for this recipe (current batch + buffer draws)."""
    draws = {"finetune": 0, "er": 1, "derpp": 2}[train.method]
    return train.batch_size + draws * train.buffer_batch_size


@dataclass
class StepBatch:
    inputs: dict[str, np.ndarray]
    n_current: int
    em_slots: np.ndarray  # EM slots replayed in this step (what the swap worker refreshes)
    replay_rows: int


class BatchAssembler:
    """Fills the program's fixed-size inputs; padding rows carry zero weights."""

    def __init__(self, train: TrainConfig, rows: int, num_classes: int, x_shape: tuple[int, ...]) -> None:
        need = rows_per_step(train)
        if rows < need:
            raise ValueError(f"the exported program takes {rows} rows per step; {train.method} with batch_size "
                             f"{train.batch_size} and buffer_batch_size {train.buffer_batch_size} needs {need}")
        self.train, self.rows, self.c = train, rows, num_classes
        self.x = np.zeros((rows, *x_shape), np.float32)
        self.y = np.zeros(rows, np.int64)
        self.logit_mask = np.ones((rows, num_classes), np.float32)
        self.ce_weight = np.zeros(rows, np.float32)
        self.target = np.zeros((rows, num_classes), np.float32)
        self.mse_weight = np.zeros(rows, np.float32)
        self._task_classes: np.ndarray | None = None
        self._pool_key: tuple = ()
        self._pool_classes = (0, 0)
        self._task_mask = np.ones(num_classes, np.float32)

    def assemble(self, x: np.ndarray, y: np.ndarray, task_classes: np.ndarray, em: EpisodicMemory,
                 rng: np.random.Generator, sb: StreamBuffer | None = None) -> StepBatch:
        """Current rows + replay rows. With ``sb`` (Miro's balanced EM, which holds old classes only),
        label-replay draws come from EM u SB, so old and new classes meet in one full-logit CE."""
        tr, n = self.train, len(y)
        pool = em.size + (sb.size if sb is not None else 0)
        self.x[:n], self.y[:n] = x, y
        masked = tr.current_task_logits_only and tr.method != "finetune"
        if masked:
            if self._task_classes is None or not np.array_equal(self._task_classes, task_classes):
                self._task_mask = np.zeros(self.c, np.float32)
                self._task_mask[task_classes] = 1.0
                self._task_classes = np.array(task_classes)
            self.logit_mask[:n] = self._task_mask
        self.ce_weight[:n] = 1.0 / n
        self.mse_weight[:n] = 0.0
        row, slots = n, []
        if tr.method == "er" and pool:
            s = self._pool_draw(em, sb, rng)
            row = self._put_pool(row, em, sb, s, ce=1.0 / len(s))
            slots.append(s[s < em.size])
            if not masked:
                self.ce_weight[: row] = 1.0 / row
        elif tr.method == "derpp" and em.size:
            if tr.alpha > 0:
                s = em.sample(tr.buffer_batch_size, rng)
                start = row
                row = self._put(row, em, s, mse=tr.alpha / len(s))
                self.target[start:row] = em.logits[s]
                slots.append(s)
            if tr.beta > 0:
                s = self._pool_draw(em, sb, rng)
                row = self._put_pool(row, em, sb, s, ce=tr.beta / len(s))
                slots.append(s[s < em.size])
        self.logit_mask[n:] = 1.0  # replay rows use every logit; padding rows carry zero weights
        self.ce_weight[row:] = 0.0
        self.mse_weight[row:] = 0.0
        if row < self.rows:
            self.x[row:] = 0.0
            self.y[row:] = 0
        inputs = {"x": self.x, "y": self.y, "logit_mask": self.logit_mask, "ce_weight": self.ce_weight,
                  "target_logits": self.target, "mse_weight": self.mse_weight}
        em_slots = np.concatenate(slots) if slots else np.zeros(0, np.int64)
        return StepBatch(inputs, n, em_slots, row - n)

    def _pool_draw(self, em: EpisodicMemory, sb: StreamBuffer | None, rng: np.random.Generator) -> np.ndarray:
        """Class-balanced draw from EM u SB (SB's share = its share of the classes seen); pool indices."""
        n = self.train.buffer_batch_size
        if sb is None or sb.size == 0:
            return em.sample(n, rng)
        key = (em.size, sb.size, int(em.y[: em.size].sum()), int(sb.y[: sb.size].sum()))
        if self._pool_key != key:  # classes only change when the task changes (swaps keep each slot's class)
            self._pool_key = key
            self._pool_classes = (len(np.unique(em.y[: em.size])), len(np.unique(sb.y[: sb.size])))
        old, new = self._pool_classes
        k_sb = min(sb.size, int(round(n * new / (old + new))))
        k_em = min(em.size, n - k_sb)
        em_part = rng.choice(em.size, size=k_em, replace=False) if k_em else np.zeros(0, np.int64)
        sb_part = rng.choice(sb.size, size=k_sb, replace=False) + em.size
        return np.concatenate([em_part, sb_part]).astype(np.int64)

    def _put_pool(self, row: int, em: EpisodicMemory, sb: StreamBuffer | None, picks: np.ndarray, ce: float) -> int:
        """Rows from the pool EM u SB: picks below ``em.size`` are EM slots, the rest SB rows."""
        end = self._put(row, em, picks[picks < em.size], ce=ce)
        if sb is not None:
            from_sb = picks[picks >= em.size] - em.size
            self.x[end:end + len(from_sb)] = sb.x[from_sb]
            self.y[end:end + len(from_sb)] = sb.y[from_sb]
            self.ce_weight[end:end + len(from_sb)] = ce
            self.mse_weight[end:end + len(from_sb)] = 0.0
            end += len(from_sb)
        return end

    def _put(self, row: int, em: EpisodicMemory, slots: np.ndarray, ce: float = 0.0, mse: float = 0.0) -> int:
        end = row + len(slots)
        self.x[row:end] = em.x[slots]
        self.y[row:end] = em.y[slots]
        self.ce_weight[row:end] = ce
        self.mse_weight[row:end] = mse
        return end

    def correct(self, logits: np.ndarray, y: np.ndarray, task_classes: np.ndarray) -> np.ndarray:
        """Per-sample correctness of the current rows (DDR's input), as the host method computes it."""
        n = len(y)
        if self.train.current_task_logits_only and self.train.method != "finetune":
            return masked_predictions(logits[:n], task_classes) == y
        return np.argmax(logits[:n], axis=1) == y
