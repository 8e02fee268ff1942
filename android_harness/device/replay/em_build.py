"""The episodic memory EM: slots referring to records of the storage tier (docs/semantics.md 2, 5.3).

Built at every task start (replay methods only) by water filling: ``classes`` = labels with
records, ascending; ``left = em_size``, ``open = classes``; while ``left > 0`` and ``open``:
``base, extra = divmod(left, |open|)``, the i-th open class gets ``give = base + (i < extra)``,
``add = min(give, N_c - take_c)``, then full classes leave ``open``. Class ``c`` contributes
``sort(sample(N_c, take_c))`` of ``stream(seed, EM_BUILD, task, c)``, slots appended class by class.
A slot's input, label, sample id and stored logits are its record's, held in RAM; a swap (4.10)
points a slot at another record of its class.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from android_harness.device.replay.storage import StorageTier
from android_harness.device.rng import EM_BUILD, Stream


def water_fill(em_size: int, counts: dict[int, int]) -> dict[int, int]:
    """Records taken per class (class-balanced; a class with fewer records gives its share to the others)."""
    take = {c: 0 for c in sorted(counts)}
    left, open_ = int(em_size), [c for c in sorted(counts) if counts[c] > 0]
    while left > 0 and open_:
        base, extra = divmod(left, len(open_))
        for i, c in enumerate(open_):
            add = min(base + (1 if i < extra else 0), counts[c] - take[c])
            take[c] += add
            left -= add
        open_ = [c for c in open_ if take[c] < counts[c]]
    return take


def em_refs(storage: StorageTier, em_size: int, seed: int, task: int) -> np.ndarray:
    """The ``[m, 2]`` (class, k) references of a task's EM."""
    counts = {c: storage.count(c) for c in storage.labels()}
    refs = [np.zeros((0, 2), np.int64)]
    for c, take in water_fill(em_size, counts).items():
        if take:
            ks = np.sort(Stream(seed, EM_BUILD, task, c).sample(counts[c], take))
            refs.append(np.stack([np.full(take, c, np.int64), ks], axis=1))
    return np.concatenate(refs)


@dataclass
class EpisodicMemory:
    refs: np.ndarray        # [m, 2] (class, k)
    ids: np.ndarray         # [m]
    x: np.ndarray           # [m, ...]
    y: np.ndarray           # [m]
    logits: np.ndarray      # [m, C] stored logits (DER++; [m, 0] otherwise)

    @property
    def size(self) -> int:
        return len(self.refs)

    @classmethod
    def load(cls, storage: StorageTier, refs: np.ndarray, x_shape: tuple[int, ...], n_logits: int) -> "EpisodicMemory":
        m = len(refs)
        em = cls(np.array(refs, np.int64).reshape(m, 2), np.zeros(m, np.int64), np.zeros((m, *x_shape), np.float32),
                 np.array(refs, np.int64).reshape(m, 2)[:, 0].copy(), np.zeros((m, n_logits), np.float32))
        em.fetch(storage, np.arange(m))
        return em

    def fetch(self, storage: StorageTier, slots: np.ndarray) -> None:
        """Read the records the ``slots`` refer to into RAM (one gather per class)."""
        for c in np.unique(self.refs[slots, 0]).tolist():
            mine = slots[self.refs[slots, 0] == c]
            ids, x, logits = storage.read_many(int(c), self.refs[mine, 1])
            self.ids[mine], self.x[mine], self.y[mine] = ids, x, c
            if self.logits.shape[1]:
                self.logits[mine] = logits

    def assign(self, slots: np.ndarray, refs: np.ndarray, ids: np.ndarray, x: np.ndarray, logits: np.ndarray | None) -> None:
        self.refs[slots] = refs
        self.ids[slots], self.x[slots], self.y[slots] = ids, x, refs[:, 0]
        if self.logits.shape[1] and logits is not None:
            self.logits[slots] = logits

    def keep(self, slots: np.ndarray) -> "EpisodicMemory":
        return EpisodicMemory(self.refs[slots], self.ids[slots], self.x[slots], self.y[slots], self.logits[slots])
