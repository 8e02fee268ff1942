"""SparCL's numpy core (android_harness/device/sparcl): schedules, masks, TDM, DDR, DGM, FLOPs (seeded)."""
from __future__ import annotations

import numpy as np
import pytest

from android_harness.device.rng import DDR_DRAW, TDM_GROW, Stream
from android_harness.device.sparcl import (
    DdrState, DgmState, ddr_counts, ddr_schedule, density_trace, gradient_mask, keep_count, magnitude_masks,
    tdm_schedule, tdm_update, unit_norm_factors,
)
from pipeline.sparcl.flops import FlopsCounter


def test_reference_schedule_50_epochs():
    events = tdm_schedule(50, 0.75, 0.1, 0.01, 0.9)
    assert [(e.epoch, e.kind) for e in events] == [(0, "expand")] + [(e, "swap") for e in range(5, 45, 5)] + [(45, "final")]
    assert events[0].drop_to == 0.75 and events[0].grow_to == pytest.approx(0.74)
    assert events[1].drop_to == pytest.approx(0.76) and events[1].grow_to == 0.75
    assert events[-1].freeze and events[-1].drop_to == events[-1].grow_to == 0.75
    trace = density_trace(events, 50)
    assert trace[:5] == pytest.approx([0.26] * 5) and trace[5:] == pytest.approx([0.25] * 45)


def test_short_schedule_keeps_shape():
    events = tdm_schedule(5, 0.9, 0.1, 0.01, 0.9)
    assert [(e.epoch, e.kind) for e in events] == [(0, "expand"), (1, "swap"), (2, "swap"), (3, "swap"), (4, "final")]
    assert density_trace(events, 5) == pytest.approx([0.11, 0.10, 0.10, 0.10, 0.10])
    assert [(e.epoch, e.kind, e.grow_to) for e in tdm_schedule(1, 0.9, 0.1, 0.01, 0.9)] == [(0, "expand", 0.9)]


def test_ddr_schedule_reference_and_short():
    assert ddr_schedule(50, [0.1, 0.2, 0.3, 0.4], 0.3) == pytest.approx({5: 0.075, 10: 0.075, 15: 0.075, 20: 0.075})
    short = ddr_schedule(3, [0.1, 0.2, 0.3, 0.4], 0.3)     # points 0,1,1,1 -> clamped to 1, then 1
    assert short == pytest.approx({1: 0.3})
    counts = ddr_counts(1000, ddr_schedule(50, [0.1, 0.2, 0.3, 0.4], 0.3))
    assert counts == {5: 75, 10: 75, 15: 75, 20: 75}
    assert sum(ddr_counts(333, ddr_schedule(10, [0.1, 0.2, 0.3, 0.4], 0.3)).values()) == round(0.3 * 333)
    assert ddr_schedule(1, [0.5], 0.3) == {}


@pytest.mark.parametrize("structured", [False, True])
@pytest.mark.parametrize("sparsity", [0.75, 0.9, 0.95])
def test_masks_hit_target_sparsity_per_layer(structured, sparsity):
    rng = np.random.default_rng(0)
    shapes = {"a": (40, 20, 3, 3), "b": (64, 100), "c": (16, 8, 5)}
    weights = {k: rng.normal(size=s) for k, s in shapes.items()}
    masks = magnitude_masks(weights, sparsity, structured)
    for name, shape in shapes.items():
        units = shape[0] if structured else int(np.prod(shape))
        m = masks[name]
        assert m.shape == shape and m.dtype == np.float32
        kept = int(m.reshape(shape[0], -1)[:, 0].sum()) if structured else int(m.sum())
        assert kept == keep_count(units, sparsity)
    w, m = weights["b"], masks["b"]
    if structured:                 # magnitude init keeps the largest-L1 channels
        l1 = np.abs(w).sum(axis=1)
        assert l1[m[:, 0] > 0].min() >= l1[m[:, 0] == 0].max()
    else:                          # ... and the largest weights
        assert np.abs(w)[m > 0].min() >= np.abs(w)[m == 0].max()


def test_update_drops_by_importance_and_grows_zero_init():
    rng = np.random.default_rng(3)
    w = rng.normal(size=(50, 40))
    m0 = magnitude_masks({"w": w}, 0.75)["w"]
    w = w * m0
    g = rng.normal(size=(50, 40))
    res = tdm_update({"w": w}, {"w": m0}, {"w": g}, drop_to=0.80, grow_to=0.75, lam=0.5,
                     grow_stream=Stream(0, TDM_GROW, 0, 1), order=["w"])
    before, kept, new = m0.reshape(-1) > 0, res.survivors["w"].reshape(-1) > 0, res.masks["w"].reshape(-1) > 0
    score = np.abs(w, dtype=np.float64).reshape(-1) + 0.5 * np.abs(g, dtype=np.float64).reshape(-1)
    dropped = before & ~kept
    assert kept.sum() == keep_count(2000, 0.80) and dropped.sum() == 500 - 400 and res.keep["w"] == 400
    assert score[kept].min() >= score[dropped].max()            # the least important live ones went
    assert new.sum() == 500 and (kept <= new).all()              # regrown to the target
    again = tdm_update({"w": w}, {"w": m0}, {"w": g}, 0.80, 0.75, 0.5, Stream(0, TDM_GROW, 0, 1), ["w"])
    assert np.array_equal(again.masks["w"], res.masks["w"])      # the grow is the stream's, nothing else
    other = tdm_update({"w": w}, {"w": m0}, {"w": g}, 0.80, 0.75, 0.5, Stream(0, TDM_GROW, 0, 2), ["w"])
    assert not np.array_equal(other.masks["w"], res.masks["w"])
    denser = tdm_update({"w": w}, {"w": m0}, None, 0.5, 0.9, 0.5, Stream(0, TDM_GROW, 0, 1), ["w"])
    assert np.array_equal(denser.masks["w"], m0) and denser.keep["w"] == 0    # n_grow < 0: nothing moves


def test_ddr_counts_forgetting_sequentially_and_removes_easiest():
    t = DdrState(6)
    idx = np.arange(6)
    # sample 0: always correct (0 events); 1: forgets twice; 2: forgets once; 3: never correct;
    # 4: correct then stays wrong (1 event); 5: wrong then correct (0 events)
    seq = [[1, 1, 1, 0, 1, 0], [1, 0, 0, 0, 0, 1], [1, 1, 1, 0, 0, 1], [1, 0, 1, 0, 0, 1], [1, 1, 1, 0, 0, 1]]
    for row in seq:
        t.observe(idx, np.array(row, dtype=bool))
    assert list(t.scores()[:3]) == [0, 2, 1] and np.isinf(t.scores()[3])
    assert t.window_counts() == [2, 3, 1]                        # rows 0, 5 / 1, 2, 4 / 3
    assert list(t.remove(2)) == [0, 5] and list(t.active()) == [1, 2, 3, 4]
    assert t.events.sum() == 0                                   # the window restarts
    assert list(t.remove(3)) == [1, 2, 3]                        # no observations: all inf -> lowest rows
    u = DdrState(2)
    u.observe(np.array([0, 0, 0, 1]), np.array([True, False, True, False]))   # a row twice in one step
    assert u.events.tolist() == [1, 0] and u.last_correct.tolist() == [True, False]
    assert u.ever_correct.tolist() == [True, False] and u.seen.tolist() == [True, True]


def test_ddr_random_removal_draws_from_the_active_rows_and_ignores_scores():
    """``ddr_select = "random"``: the active rows at ``sample(active, k)`` of the given stream."""
    t = DdrState(10)
    t.observe(np.arange(10), np.ones(10, bool))                   # every score 0: forgetting would take 0, 1, 2
    t.removed[[1, 4]] = True
    active = t.active()
    expected = np.sort(active[Stream(5, DDR_DRAW, 2, 3).sample(active.size, 3)])
    gone = t.remove(3, Stream(5, DDR_DRAW, 2, 3))
    assert gone.tolist() == expected.tolist() and not set(gone.tolist()) & {1, 4}
    assert t.removed.sum() == 5 and t.seen.sum() == 0            # the window restarts as with forgetting
    assert gone.tolist() != [0, 2, 3]                              # not the least-forgotten rows


def test_gradient_mask_zeroes_intended_fraction_of_survivors():
    rng = np.random.default_rng(0)
    g = rng.normal(size=(64, 32))
    wm = np.zeros(64 * 32, dtype=np.float32)
    wm[rng.choice(wm.size, size=205, replace=False)] = 1.0      # ~0.90 weight sparsity
    wm = wm.reshape(64, 32)
    m = gradient_mask(g, wm, 0.2)
    assert m.sum() == 205 - round(0.2 * 205)
    assert np.all(m[wm == 0] == 0)
    alive = wm > 0
    assert np.abs(g)[(m > 0)].min() >= np.abs(g)[alive & (m == 0)].max()
    assert gradient_mask(g, None, 0.8).sum() == 64 * 32 - round(0.8 * 64 * 32)


def test_dgm_refreshes_every_period():
    gm = DgmState(0.5, period=3)
    rng = np.random.default_rng(0)
    patterns = []
    for _ in range(7):
        if gm.due():
            gm.refresh({"w": rng.normal(size=(10,))}, {"w": np.ones(10, np.float32)}, ["w"])
        patterns.append(gm.masks["w"].copy())
        gm.tick()
    same = [np.array_equal(patterns[i], patterns[i - 1]) for i in range(1, 7)]
    assert same[0] and same[1] and same[3] and same[4]           # steps 1,2 reuse 0; 4,5 reuse 3
    assert not same[2] and not same[5]                           # refreshed at steps 3 and 6
    gm.clear()
    assert gm.due()


def test_flops_counter_convention():
    fc = FlopsCounter({"a": 100.0, "b": 50.0, "head": 10.0})
    assert fc.per_sample() == (160.0, 320.0)                     # dense: 3F per sample
    fwd, bwd = fc.per_sample({"a": 0.25, "b": 0.25}, {"a": 0.2})
    assert fwd == pytest.approx(25 + 12.5 + 10)
    assert bwd == pytest.approx((25 + 12.5 + 10) + (20 + 12.5 + 10))
    fc.add_step(96, {"a": 0.25, "b": 0.25}, {"a": 0.2})
    assert fc.total == pytest.approx(96 * (fwd + bwd)) and fc.samples == 96 and fc.steps == 1
    with pytest.raises(KeyError):
        fc.per_sample({"nope": 0.5})


@pytest.mark.parametrize("structured", [False, True])
def test_unit_norm_factors_restore_each_units_dense_norm(structured):
    rng = np.random.default_rng(0)
    w = rng.uniform(-1, 1, size=(20, 30))
    m = magnitude_masks({"w": w}, 0.9, structured)["w"]
    f = unit_norm_factors(w, m)
    assert f.shape == (20, 1)
    rescaled = w * m * f
    alive = m.reshape(20, -1).any(axis=1)
    assert np.allclose(np.linalg.norm(rescaled, axis=1)[alive], np.linalg.norm(w, axis=1)[alive], rtol=1e-5)
    assert np.all(rescaled[m == 0] == 0) and np.all(f[~alive] == 1.0)
    if structured:                                               # kept channels keep their full fan-in
        assert np.allclose(f, 1.0)
    else:                                                        # ~10% survivors: roughly 1/sqrt(density), but >1
        assert np.all(f[alive] > 1.0)
