"""SplitMix64 streams (docs/semantics.md 1): pinned first outputs (the native runner checks the same
numbers) and the vectorised draws against a literal transcription of the spec."""
from __future__ import annotations

import numpy as np
import pytest

from android_harness.device.rng import EPOCH, MASK64, Stream, mix

GOLDEN = 0x9E3779B97F4A7C15


class Literal:
    """The spec's pseudo-code, line by line (one Python int at a time)."""

    def __init__(self, *keys: int) -> None:
        h = 0x6A09E667F3BCC909
        for k in keys:
            h = (mix(h ^ k) + GOLDEN) & MASK64
        self.state = h

    def next(self) -> int:
        self.state = (self.state + GOLDEN) & MASK64
        return mix(self.state)

    def below(self, n: int) -> int:
        return ((self.next() >> 11) * n) >> 53

    def shuffle(self, a: list[int]) -> list[int]:
        a = list(a)
        for i in range(len(a) - 1, 0, -1):
            j = self.below(i + 1)
            a[i], a[j] = a[j], a[i]
        return a

    def sample(self, n: int, k: int) -> list[int]:
        v = list(range(n))
        for i in range(k):
            j = i + self.below(n - i)
            v[i], v[j] = v[j], v[i]
        return v[:k]


def test_pinned_first_outputs() -> None:
    s = Stream(0, 0, 0, 0)
    assert [s.next() for _ in range(4)] == [0xE21C24ACB4115588, 0xFEFC2EC81D0A1389, 0x56F60EB04C686E9B,
                                            0xCC3F524B09CA933F]
    s = Stream(42, EPOCH, 1, 3)
    assert [s.below(10) for _ in range(12)] == [7, 4, 8, 0, 1, 7, 6, 5, 7, 2, 4, 4]
    assert Stream(7, 3, 0, 0).shuffle(np.arange(10)).tolist() == [9, 5, 7, 2, 6, 0, 8, 3, 4, 1]
    assert Stream(7, 5, 2, 4).sample(100, 6).tolist() == [1, 39, 64, 78, 31, 52]
    s = Stream(2**63 - 1, 6, 4, 9)
    assert (s.below(2**40), s.below(3), s.below(1 << 62)) == (347719011544, 1, 89898324773306368)


@pytest.mark.parametrize("keys", [(0, 1, 0, 0), (123, 3, 4, 7), (2**63 - 1, 5, 9, 2**40)])
def test_vectorised_draws_equal_the_literal_algorithm(keys) -> None:
    s, lit = Stream(*keys), Literal(*keys)
    assert s.next_many(50).tolist() == [lit.next() for _ in range(50)]
    ns = np.array([1, 2, 3, 1000, 2**31 - 1, 2**32 - 1, 7])
    assert s.below_many(ns).tolist() == [lit.below(int(n)) for n in ns]
    assert s.below_many(np.array([2**33, 5, 2**62])).tolist() == [lit.below(2**33), lit.below(5), lit.below(2**62)]
    assert s.shuffle(np.arange(257)).tolist() == lit.shuffle(list(range(257)))
    assert s.sample(1000, 40).tolist() == lit.sample(1000, 40)
    assert s.sample(5, 5).tolist() == lit.sample(5, 5)
    assert s.sample(9, 0).tolist() == [] and s.next() == lit.next()


def test_bad_keys_and_arguments() -> None:
    with pytest.raises(ValueError):
        Stream(-1, 0, 0, 0)
    with pytest.raises(ValueError):
        Stream(0, 0, 0, 0).below(0)
    with pytest.raises(ValueError):
        Stream(0, 0, 0, 0).sample(3, 4)
