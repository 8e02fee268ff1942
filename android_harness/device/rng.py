"""The one random generator of a run: SplitMix64 streams keyed by where they are used (docs/semantics.md 1).

A stream is derived from four unsigned integers ``(seed, purpose, a, b)`` and never checkpointed:
whoever needs the draws of "epoch 3 of task 1" rebuilds ``stream(seed, EPOCH, 1, 3)``. The
algorithm is specified bit for bit so the native runner reproduces every draw; ``tests/test_rng.py``
pins the first outputs. Draws are computed vectorised (a stream's k-th output is
``mix(state + k * GOLDEN)``), the Fisher-Yates swaps that consume them stay sequential.
"""
from __future__ import annotations

import numpy as np

MASK64 = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15
_SEED_INIT = 0x6A09E667F3BCC909
_M1 = 0xBF58476D1CE4E5B9
_M2 = 0x94D049BB133111EB

# purposes (docs/semantics.md 1): the stream's second key
SB_FILL, SUBSET, EPOCH, SWAP, EM_BUILD, TDM_GROW, DDR_DRAW = 1, 2, 3, 4, 5, 6, 7


def mix(z: int) -> int:
    """SplitMix64's finaliser on one u64."""
    z = ((z ^ (z >> 30)) * _M1) & MASK64
    z = ((z ^ (z >> 27)) * _M2) & MASK64
    return z ^ (z >> 31)


def _mix_array(z: np.ndarray) -> np.ndarray:
    z = (z ^ (z >> np.uint64(30))) * np.uint64(_M1)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(_M2)
    return z ^ (z >> np.uint64(31))


class Stream:
    """One SplitMix64 stream; ``state`` is the u64 counter the spec's ``next()`` advances."""

    def __init__(self, seed: int, purpose: int, a: int, b: int) -> None:
        h = _SEED_INIT
        for k in (seed, purpose, a, b):
            if not 0 <= int(k) <= MASK64:
                raise ValueError(f"stream keys are unsigned 64-bit integers, got {k}")
            h = (mix(h ^ int(k)) + GOLDEN) & MASK64
        self.state = h

    def next(self) -> int:
        self.state = (self.state + GOLDEN) & MASK64
        return mix(self.state)

    def next_many(self, count: int) -> np.ndarray:
        """The next ``count`` outputs as uint64, exactly as ``count`` calls of ``next()``."""
        if count <= 0:
            return np.zeros(0, np.uint64)
        with np.errstate(over="ignore"):
            steps = np.arange(1, count + 1, dtype=np.uint64) * np.uint64(GOLDEN) + np.uint64(self.state)
            out = _mix_array(steps)
        self.state = (self.state + count * GOLDEN) & MASK64
        return out

    def below(self, n: int) -> int:
        """Uniform in ``[0, n)``: ``((next() >> 11) * n) >> 53`` with the full 128-bit product."""
        if n < 1:
            raise ValueError(f"below(n) needs n >= 1, got {n}")
        return ((self.next() >> 11) * int(n)) >> 53

    def below_many(self, ns: np.ndarray) -> np.ndarray:
        """``[below(n) for n in ns]`` (int64), one output per entry in order."""
        ns = np.asarray(ns, dtype=np.int64)
        if ns.size and int(ns.min()) < 1:
            raise ValueError("below(n) needs n >= 1")
        a = self.next_many(ns.size) >> np.uint64(11)              # < 2^53
        if ns.size and int(ns.max()) >= 1 << 32:
            return np.array([(int(x) * int(n)) >> 53 for x, n in zip(a.tolist(), ns.tolist())], dtype=np.int64)
        n = ns.astype(np.uint64)
        with np.errstate(over="ignore"):
            hi = (a >> np.uint64(32)) * n                            # < 2^53
            lo = (a & np.uint64(0xFFFFFFFF)) * n                     # < 2^64
        return ((hi + (lo >> np.uint64(32))) >> np.uint64(21)).astype(np.int64)

    def shuffle(self, values: np.ndarray) -> np.ndarray:
        """A shuffled copy: for i = len-1 down to 1, swap a[i] with a[below(i + 1)]."""
        out = np.array(values, copy=True)
        n = len(out)
        if n < 2:
            return out
        js = self.below_many(np.arange(n, 1, -1)).tolist()
        for i, j in zip(range(n - 1, 0, -1), js):
            out[i], out[j] = out[j], out[i]
        return out

    def sample(self, n: int, k: int) -> np.ndarray:
        """``k`` distinct values of ``[0, n)`` in draw order (partial forward Fisher-Yates)."""
        if not 0 <= k <= n:
            raise ValueError(f"sample(n={n}, k={k}) needs 0 <= k <= n")
        if k == 0:
            return np.zeros(0, np.int64)
        js = (np.arange(k) + self.below_many(n - np.arange(k))).tolist()
        v: dict[int, int] = {}                                      # the permuted entries of [0, n) only
        out = np.empty(k, np.int64)
        for i, j in enumerate(js):
            vi, vj = v.get(i, i), v.get(j, j)
            v[i], v[j] = vj, vi
            out[i] = vj
        return out


def stream(seed: int, purpose: int, a: int, b: int) -> Stream:
    return Stream(seed, purpose, a, b)
