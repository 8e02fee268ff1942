"""A backend whose parameters are numpy views of the runtime's own weights, updated in place.

ExecuTorch's training module (``named_parameters`` aliases the program's weights) and the host's
torch-eager model (``.numpy()`` of each parameter) both expose their weights as writable numpy
views, so the parameter access, the float32 ``NumpyOptimizer`` step with DGM's gradient masks,
the optimizer-state checkpoint arrays and the reset live here once. A runtime adds its program:
``_forward_backward``, ``_last_grads`` and ``_eval_chunk``.
"""
from __future__ import annotations

from abc import abstractmethod

import numpy as np

from android_harness.device.backends.base import TrainingBackend
from android_harness.device.backends.numpy_optim import NumpyOptimizer


class ViewBackend(TrainingBackend):
    """``_bind_views`` must be called once the runtime's parameter views exist (end of the subclass's init)."""

    _views: dict[str, np.ndarray]

    def _bind_views(self, views: dict[str, np.ndarray]) -> None:
        self._views = views
        self._initial_params = self.params()
        self.optimizer = NumpyOptimizer.from_config(self.optimizer_config)

    @abstractmethod
    def _last_grads(self) -> dict[str, np.ndarray]:
        """Every parameter's raw gradient from the last ``forward_backward`` (views, valid until the next one)."""

    def raw_grads(self, names: list[str]) -> dict[str, np.ndarray]:
        grads = self._last_grads()
        return {n: grads[n] for n in names}

    def _apply_update(self, lr: float, grad_masks: dict[str, np.ndarray] | None) -> None:
        grads = dict(self._last_grads())
        for name, gm in (grad_masks or {}).items():
            grads[name] = grads[name] * gm
        self.optimizer.step(self._views, grads, lr)

    def params(self, names: list[str] | None = None) -> dict[str, np.ndarray]:
        return {k: self._views[k].copy() for k in (self._views if names is None else names)}

    def set_params(self, values: dict[str, np.ndarray]) -> None:
        for name, value in values.items():
            if name not in self._views:
                raise KeyError(f"no parameter {name!r}")
            np.copyto(self._views[name], np.asarray(value, dtype=np.float32))

    def optimizer_arrays(self) -> tuple[dict[str, np.ndarray], int]:
        return self.optimizer.arrays()

    def load_optimizer_arrays(self, arrays: dict[str, np.ndarray], step: int) -> None:
        self.optimizer.load_arrays(arrays, step)

    def _clear_optimizer_state_where(self, where: dict[str, np.ndarray]) -> None:
        self.optimizer.clear_state_where(where)

    def _reset_runtime(self) -> None:
        self.set_params(self._initial_params)
        self.optimizer = NumpyOptimizer.from_config(self.optimizer_config)
