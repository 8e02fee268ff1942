"""Reservoir buffer (numpy): mammoth's semantics, uniform coverage, logits kept, seeded and resumable."""
from __future__ import annotations

import numpy as np
import torch

from pipeline.cl.methods import Batch
from pipeline.cl.methods.derpp import DERpp
from pipeline.cl.policy import StepInfo, TrainingPolicy
from pipeline.cl.reservoir import ReservoirBuffer, reservoir_slot
from pipeline.config import TrainSpec


def stream(n: int, classes: int = 10, seed: int = 0):
    rng = np.random.default_rng(seed)
    y = np.repeat(np.arange(classes), n // classes)
    return rng.normal(size=(len(y), 4)).astype(np.float32), y


def test_fills_in_order_then_replaces():
    buf = ReservoirBuffer(5, rng=0)
    x, y = stream(10)
    slots = buf.add(x[:5], y[:5], task=0)
    assert slots.tolist() == [0, 1, 2, 3, 4] and len(buf) == 5
    assert np.array_equal(buf.x, x[:5])
    buf.add(x[5:], y[5:], task=1)
    assert buf.num_seen == 10 and len(buf) == 5


def test_reservoir_slot_probability():
    rng = np.random.default_rng(0)
    kept = np.mean([reservoir_slot(999, 100, rng) >= 0 for _ in range(20000)])
    assert abs(kept - 100 / 1000) < 0.01


def test_uniform_class_coverage_over_a_class_incremental_stream():
    """After a stream of 10 classes arriving one after another (5000 samples), a 500-slot buffer holds
    every class about equally: the reservoir keeps a uniform sample of everything seen."""
    counts = []
    for seed in range(5):
        buf = ReservoirBuffer(500, rng=seed)
        x, y = stream(5000)
        for i in range(0, 5000, 32):
            buf.add(x[i:i + 32], y[i:i + 32], task=y[i] // 2)
        counts.append(buf.class_counts(10))
    counts = np.array(counts)
    assert counts.sum(axis=1).tolist() == [500] * 5
    assert counts.min() >= 25 and counts.max() <= 75                   # each seed: every class 50 +- 25
    assert np.all(np.abs(counts.mean(axis=0) - 50) < 12)               # on average close to 50
    # first-in classes are not favoured (a FIFO would hold only classes 9 and 8)
    assert counts[:, :5].sum() / counts.sum() > 0.4


def test_sample_is_distinct_and_capped():
    buf = ReservoirBuffer(50, rng=1)
    x, y = stream(30)
    buf.add(x, y, task=0)
    draw = buf.sample(20)
    assert len(set(draw.slots.tolist())) == 20
    assert np.array_equal(draw.x, buf.x[draw.slots]) and draw.logits is None
    assert len(buf.sample(100).y) == 30
    assert len(ReservoirBuffer(10).sample(4).y) == 0


def test_seeded_and_state_round_trip():
    x, y = stream(400)
    a, b = ReservoirBuffer(40, rng=7), ReservoirBuffer(40, rng=7)
    a.add(x[:200], y[:200], 0)
    b.add(x[:200], y[:200], 0)
    c = ReservoirBuffer(40, rng=99)
    c.load_state_dict(a.state_dict())
    a.add(x[200:], y[200:], 1)
    c.add(x[200:], y[200:], 1)
    assert np.array_equal(a.y, c.y) and np.array_equal(a.sample(8).slots, c.sample(8).slots)
    b.add(x[200:], y[200:], 1)
    assert np.array_equal(a.task, b.task)


def test_derpp_buffer_keeps_the_logits_seen_at_insertion():
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Flatten(), torch.nn.Linear(4, 10))
    train = TrainSpec(method="derpp", buffer_size=100, lr=0.5)
    method = DERpp(model, torch.optim.SGD(model.parameters(), lr=0.5), TrainingPolicy(), train, np.random.default_rng(0))
    x, y = stream(20)
    batch = Batch(torch.from_numpy(x), torch.from_numpy(y), np.arange(20), 0, torch.arange(10))
    with torch.no_grad():
        before = model(batch.x).numpy()
    method.observe(batch, StepInfo(task=0, epoch=0, epochs=1, iteration=0))
    with torch.no_grad():
        after = model(batch.x).numpy()
    assert not np.allclose(before, after)                             # the step changed the model
    assert np.allclose(method.buffer.logits[:20], before, atol=1e-6)  # stored logits are pre-step outputs
    assert np.array_equal(method.buffer.x[:20], x) and np.array_equal(method.buffer.y[:20], y)
