"""CL metrics on hand-computed matrices (numpy-only, the same code the device runner uses)."""
from __future__ import annotations

import numpy as np
import pytest

from android_harness.device.metrics import (average_accuracy, backward_transfer, forgetting, masked_predictions, summarize,
                                 task_accuracies)

NAN = np.nan
A = np.array([[90.0, NAN, NAN], [60.0, 80.0, NAN], [70.0, 50.0, 100.0]])


def test_average_accuracy_rows():
    assert np.allclose(average_accuracy(A), [90.0, 70.0, 220.0 / 3])


def test_forgetting_uses_best_earlier_accuracy():
    # task 0: best 90 -> final 70 = 20; task 1: best 80 -> final 50 = 30
    assert forgetting(A) == pytest.approx(25.0)


def test_backward_transfer():
    # (70 - 90) and (50 - 80)
    assert backward_transfer(A) == pytest.approx(-25.0)
    assert forgetting(A[:1, :1]) == 0.0 and backward_transfer(A[:1, :1]) == 0.0


def test_summary_of_a_partial_run():
    partial = A.copy()
    partial[2] = NAN
    s = summarize(partial, partial)
    assert s["class_il"] == pytest.approx(70.0) and s["forgetting_class_il"] == pytest.approx(30.0)


def test_class_il_and_task_il_masking():
    logits = np.array([[0.0, 5.0, 1.0, 2.0],     # label 2: best overall 1, best of {2,3} is 3
                       [0.0, 0.0, 3.0, 1.0]])    # label 2: correct both ways
    y = np.array([2, 2])
    assert masked_predictions(logits, np.array([2, 3])).tolist() == [3, 2]
    ci, ti = task_accuracies(logits, y, np.array([2, 3]), np.array([0, 1, 2, 3]))
    assert ci == pytest.approx(50.0) and ti == pytest.approx(50.0)
    ci, ti = task_accuracies(logits, y, np.array([2, 3]), np.array([0, 2, 3]))   # class 1 not seen yet
    assert ci == pytest.approx(50.0)
    logits[0, 3] = -1
    assert task_accuracies(logits, y, np.array([2, 3]), np.array([0, 1, 2, 3])) == (50.0, 100.0)
