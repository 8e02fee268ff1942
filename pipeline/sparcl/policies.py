"""SparCL's TDM, DDR and DGM as ``TrainingPolicy`` hooks for a torch model (host trainer glue).

The decisions live in ``pipeline.sparcl.core`` (numpy, shared with the device runner); this module
only moves tensors in and out. Stack order matters: TDM reads the raw gradient (its drop score
uses the previous batch's gradient of the total loss) before DGM masks it.
"""
from __future__ import annotations

import re

import numpy as np
import torch
from torch import nn

from models import maskable_layers
from pipeline.cl.policy import PolicyStack, StepInfo, TrainingPolicy
from pipeline.errors import ConfigError, DataError
from pipeline.sparcl.core import ForgettingTracker, GradientMasker, MaskSet, unit_norm_factors
from pipeline.sparcl.core.schedule import TdmEvent, ddr_counts, ddr_schedule, tdm_schedule

_WEIGHT_LAYERS = (nn.Conv1d, nn.Conv2d, nn.Linear)


def select_layers(model: nn.Module, pattern: str = "auto") -> list[str]:
    """The masked layers: the model's default list (``auto``) or conv/linear modules matching a regex."""
    modules = dict(model.named_modules())
    if pattern == "auto":
        names = maskable_layers(model)
    else:
        try:
            rx = re.compile(pattern)
        except re.error as exc:
            raise ConfigError(f"sparcl.layers: {pattern!r} is not a valid regex ({exc})") from None
        names = [n for n, m in modules.items() if isinstance(m, _WEIGHT_LAYERS) and rx.search(n)]
    bad = [n for n in names if not isinstance(modules.get(n), _WEIGHT_LAYERS)]
    if bad:
        raise ConfigError(f"sparcl.layers: {bad} are not conv/linear layers of {type(model).__name__}")
    if not names:
        raise ConfigError(f"sparcl.layers: {pattern!r} selects no conv/linear layer of {type(model).__name__}")
    return names


def _resolve(model: nn.Module, layers: list[str] | str) -> list[str]:
    if isinstance(layers, str):
        return select_layers(model, layers)
    select_layers(model, "|".join(f"^{re.escape(n)}$" for n in layers))
    return list(layers)


def _weights(model: nn.Module, names: list[str]) -> dict[str, nn.Parameter]:
    modules = dict(model.named_modules())
    return {n: modules[n].weight for n in names}


def _to_np(tensors: dict[str, torch.Tensor]) -> dict[str, np.ndarray]:
    return {k: t.detach().cpu().numpy() for k, t in tensors.items()}


class TDMPolicy(TrainingPolicy):
    """Task-aware dynamic masking: masks kept over the run, updated on the task-aware schedule."""

    name = "tdm"

    def __init__(self, model: nn.Module | None, layers: list[str] | str, sparsity: float, *, structured: bool = False,
                 lam: float = 0.5, update_every: float = 0.1, swap: float = 0.01, freeze_after: float = 0.9,
                 seed: int = 0, init_rescale: bool = False) -> None:
        self.pattern, self.sparsity, self.lam = layers, float(sparsity), float(lam)
        self.init_rescale = init_rescale
        self.structured, self.seed = structured, seed
        self.update_every, self.swap, self.freeze_after = update_every, swap, freeze_after
        self.layers: list[str] = []
        self.masks: MaskSet | None = None
        self.events: dict[int, TdmEvent] = {}
        self.frozen = False
        self.version = 0                     # bumps whenever the masks change (DGM refreshes on it)
        self.prev_grads: dict[str, np.ndarray] | None = None
        self.log: list[dict] = []            # (task, epoch, kind, densities) of every mask update
        self._torch_masks: dict[str, torch.Tensor] = {}
        self._pending_state: dict | None = None
        self._epoch_step = 0
        self._densities: dict[str, float] = {}
        if model is not None:
            self.bind(model)

    def bind(self, model: nn.Module) -> None:
        """Resolve the layers on ``model`` (done at the first hook when built without a model)."""
        self.layers = _resolve(model, self.pattern)
        weights = _weights(model, self.layers)
        self.masks = MaskSet({n: tuple(w.shape) for n, w in weights.items()}, structured=self.structured, seed=self.seed)
        if self._pending_state is not None:
            state, self._pending_state = self._pending_state, None
            self.load_state_dict(state)

    def _sync(self, model: nn.Module) -> None:
        weights = _weights(model, self.layers)
        self._torch_masks = {n: torch.from_numpy(self.masks.weight_mask(n)).to(weights[n].device, weights[n].dtype)
                             for n in self.layers}
        self._densities = self.masks.densities()
        self.version += 1
        self.apply(model)

    def apply(self, model: nn.Module) -> None:
        """Re-zero pruned weights in place (and, when structured, the biases of pruned channels)."""
        modules = dict(model.named_modules())
        with torch.no_grad():
            for n, m in self._torch_masks.items():
                modules[n].weight.mul_(m)
                if self.masks.structured and modules[n].bias is not None:
                    modules[n].bias.mul_(m.reshape(m.shape[0], -1)[:, 0])

    def _ensure_init(self, model: nn.Module) -> None:
        if self.masks is None:
            self.bind(model)
        if not self.masks.initialized:
            dense = {n: w.copy() for n, w in _to_np(_weights(model, self.layers)).items()}   # _to_np shares memory
            self.masks.init_magnitude(dense, self.sparsity)
            self._sync(model)
            if self.init_rescale:
                weights = _weights(model, self.layers)
                with torch.no_grad():
                    for n, w in weights.items():
                        factors = unit_norm_factors(dense[n], self.masks.weight_mask(n))
                        w.mul_(torch.from_numpy(factors).to(w.device, w.dtype))

    def on_task_start(self, info: StepInfo, model, n_samples: int) -> None:
        self._ensure_init(model)
        self.events = {ev.epoch: ev for ev in tdm_schedule(info.epochs, self.sparsity, self.update_every,
                                                           self.swap, self.freeze_after)}
        self.frozen = False

    def on_epoch_start(self, info: StepInfo, model) -> None:
        self._ensure_init(model)
        self._epoch_step = 0
        ev = self.events.get(info.epoch)
        if ev is None or self.frozen:
            return
        survivors = self.masks.update(_to_np(_weights(model, self.layers)), self.prev_grads, ev.drop_to, ev.grow_to, self.lam)
        weights = _weights(model, self.layers)
        with torch.no_grad():
            for n, s in survivors.items():
                weights[n].mul_(torch.from_numpy(s).to(weights[n].device, weights[n].dtype))
        self._sync(model)
        self.frozen = ev.freeze
        self.log.append({"task": info.task, "epoch": info.epoch, "kind": ev.kind, "densities": self.masks.densities()})

    def after_backward(self, info: StepInfo, model) -> None:
        self._ensure_init(model)
        weights = _weights(model, self.layers)
        self._epoch_step += 1
        if info.iters_per_epoch <= 0 or self._epoch_step >= info.iters_per_epoch:
            # the epoch's last batch: its gradient scores the next mask update (copied only then)
            self.prev_grads = {n: w.grad.detach().cpu().numpy().copy() for n, w in weights.items() if w.grad is not None}
        with torch.no_grad():
            for n, w in weights.items():
                if w.grad is not None:
                    w.grad.mul_(self._torch_masks[n])

    def after_step(self, info: StepInfo, model) -> None:
        self._ensure_init(model)
        self.apply(model)

    def weight_density(self) -> dict[str, float]:
        """Per-layer weight density (cached: read on every step by the FLOPs counter)."""
        return self._densities

    def weight_masks(self) -> dict[str, np.ndarray]:
        return self.masks.weight_masks() if self.masks is not None and self.masks.initialized else {}

    def state_dict(self) -> dict:
        if self.masks is None or not self.masks.initialized:
            return {}
        state = {"masks": self.masks.state_dict(), "frozen": self.frozen, "sparsity": self.sparsity,
                 "layers": list(self.layers)}
        if self.prev_grads is not None:
            state["prev_grads"] = {k: v.copy() for k, v in self.prev_grads.items()}
        return state

    def load_state_dict(self, state: dict) -> None:
        if not state:
            return
        if self.masks is None:               # not bound yet: apply at bind time
            self._pending_state = state
            return
        if list(state.get("layers", self.layers)) != self.layers:
            raise DataError(f"checkpoint: TDM state masks layers {state.get('layers')}, this model masks {self.layers}")
        try:
            self.masks.load_state_dict(state["masks"])
        except (KeyError, ValueError) as exc:
            raise DataError(f"checkpoint: TDM mask state does not fit this model ({exc})") from None
        self.frozen = bool(state.get("frozen", False))
        grads = state.get("prev_grads")
        self.prev_grads = None if grads is None else {k: np.asarray(v) for k, v in grads.items()}
        self._torch_masks = {n: torch.from_numpy(self.masks.weight_mask(n)) for n in self.layers}
        self._densities = self.masks.densities()
        self.version += 1


class DDRPolicy(TrainingPolicy):
    """Dynamic data removal: drop the least-forgotten current-task samples at the scheduled epochs."""

    name = "ddr"

    def __init__(self, fraction: float = 0.3, steps: list[float] | tuple[float, ...] = (0.1, 0.2, 0.3, 0.4)) -> None:
        self.fraction, self.steps = float(fraction), list(steps)
        self.tracker = ForgettingTracker()
        self.counts: dict[int, int] = {}
        self.log: list[dict] = []            # (task, epoch, removed count) of every removal

    def on_task_start(self, info: StepInfo, model, n_samples: int) -> None:
        self.tracker.start_task(n_samples)
        self.counts = ddr_counts(n_samples, ddr_schedule(info.epochs, self.steps, self.fraction))

    def on_epoch_start(self, info: StepInfo, model) -> None:
        count = self.counts.get(info.epoch, 0)
        if count:
            gone = self.tracker.remove_least_forgotten(count)
            self.log.append({"task": info.task, "epoch": info.epoch, "removed": int(gone.size)})

    def select_data(self, info: StepInfo, indices: np.ndarray) -> np.ndarray:
        return self.tracker.active(indices)

    def observe_predictions(self, info: StepInfo, indices: np.ndarray, correct: np.ndarray) -> None:
        self.tracker.observe(indices, correct)

    def removed_indices(self) -> np.ndarray:
        """Current-task sample indices removed so far (the replay buffer must skip them)."""
        return np.flatnonzero(self.tracker.removed)

    def is_removed(self, indices: np.ndarray) -> np.ndarray:
        return self.tracker.is_removed(indices)

    def state_dict(self) -> dict:
        return {"tracker": self.tracker.state_dict(), "counts": dict(self.counts)}

    def load_state_dict(self, state: dict) -> None:
        if state:
            self.tracker.load_state_dict(state["tracker"])
            self.counts = {int(k): int(v) for k, v in state.get("counts", {}).items()}


class DGMPolicy(TrainingPolicy):
    """Dynamic gradient masking on the masked layers, relative to the surviving weights."""

    name = "dgm"

    def __init__(self, model: nn.Module | None, layers: list[str] | str, ratio: float = 0.2, period: int = 30,
                 tdm: TDMPolicy | None = None) -> None:
        self.pattern, self.tdm = layers, tdm
        self.layers: list[str] = _resolve(model, layers) if model is not None else []
        self.masker = GradientMasker(ratio, period)
        self._tdm_version = -1
        self._torch_masks: dict[str, torch.Tensor] = {}

    def after_backward(self, info: StepInfo, model) -> None:
        if not self.layers:
            self.layers = _resolve(model, self.pattern)
        weights = _weights(model, self.layers)
        if self.tdm is not None and self.tdm.version != self._tdm_version:
            self.masker.invalidate()
            self._tdm_version = self.tdm.version
        if self.masker.due():
            grads = {n: w.grad.detach().cpu().numpy() for n, w in weights.items() if w.grad is not None}
            self.masker.refresh(grads, self.tdm.weight_masks() if self.tdm is not None else None)
            self._torch_masks = {n: torch.from_numpy(m).to(weights[n].device, weights[n].dtype)
                                 for n, m in self.masker.masks.items()}
        with torch.no_grad():
            for n, m in self._torch_masks.items():
                if weights[n].grad is not None:
                    weights[n].grad.mul_(m)
        self.masker.tick()

    def grad_density(self) -> dict[str, float]:
        return self.masker.densities()

    def state_dict(self) -> dict:
        return {"masker": self.masker.state_dict()}

    def load_state_dict(self, state: dict) -> None:
        if state:
            self.masker.load_state_dict(state["masker"])
            self._torch_masks = {n: torch.from_numpy(m) for n, m in self.masker.masks.items()}
            self._tdm_version = self.tdm.version if self.tdm is not None else -1


class SparclPolicy(PolicyStack):
    """The enabled SparCL parts in hook order (TDM, DDR, DGM), plus the densities FLOPs need."""

    name = "sparcl"

    def __init__(self, tdm: TDMPolicy | None, ddr: DDRPolicy | None, dgm: DGMPolicy | None) -> None:
        super().__init__([p for p in (tdm, ddr, dgm) if p is not None])
        self.tdm, self.ddr, self.dgm = tdm, ddr, dgm

    def weight_density(self) -> dict[str, float]:
        return self.tdm.weight_density() if self.tdm is not None else {}

    def grad_density(self) -> dict[str, float]:
        return self.dgm.grad_density() if self.dgm is not None else {}


def build_sparcl_policy(spec, model: nn.Module | None = None) -> SparclPolicy | None:
    """The SparCL policy stack for ``spec.sparcl`` (``None`` when SparCL is disabled or nothing is on).

    With ``model`` the masked layers are resolved (and a bad ``sparcl.layers`` reported) now;
    without it, at the first hook, so the trainer may build the model after the policy.
    """
    sp = spec.sparcl
    if not sp.enabled:
        return None
    layers: list[str] | str = select_layers(model, sp.layers) if model is not None else sp.layers
    tdm = (TDMPolicy(model, layers, sp.sparsity, structured=sp.structured, lam=sp.tdm_lambda,
                     update_every=sp.tdm_update_every, swap=sp.tdm_swap, freeze_after=sp.tdm_freeze_after,
                     seed=spec.seed, init_rescale=sp.tdm_init_rescale) if sp.tdm else None)
    ddr = DDRPolicy(sp.ddr_fraction, sp.ddr_steps) if sp.ddr and sp.ddr_fraction > 0 else None
    dgm = DGMPolicy(model, layers, sp.dgm_ratio, sp.dgm_period, tdm=tdm) if sp.dgm else None
    if tdm is None and ddr is None and dgm is None:
        return None
    return SparclPolicy(tdm, ddr, dgm)


def find_policy(policy: TrainingPolicy | None, kind: type) -> TrainingPolicy | None:
    if isinstance(policy, kind):
        return policy
    for p in getattr(policy, "policies", []):
        found = find_policy(p, kind)
        if found is not None:
            return found
    return None


def masks_by_layer(policy: TrainingPolicy | None) -> dict[str, np.ndarray]:
    """Weight-shaped float32 0/1 masks of the TDM layers (empty without TDM), for the exporter."""
    tdm = find_policy(policy, TDMPolicy)
    return tdm.weight_masks() if tdm is not None else {}


def removed_samples(policy: TrainingPolicy | None) -> np.ndarray:
    """Current-task indices DDR has removed (empty without DDR): the replay buffer skips these."""
    ddr = find_policy(policy, DDRPolicy)
    return ddr.removed_indices() if ddr is not None else np.zeros(0, dtype=np.int64)


def build_training_policy(spec, model: nn.Module | None = None) -> tuple[TrainingPolicy, "FlopsPolicy"]:
    """What the host trainer runs with: the SparCL stack (if enabled) followed by a FLOPs counter.

    The counter comes last so it charges each step at the densities DGM/TDM just used; dense runs
    get the counter alone, so dense and SparCL FLOPs come from the same code.
    """
    from pipeline.sparcl.training_flops import FlopsPolicy

    sparcl = build_sparcl_policy(spec, model)
    flops = FlopsPolicy(sparcl)
    return PolicyStack([p for p in (sparcl, flops) if p is not None]), flops


def channel_masks_by_layer(policy: TrainingPolicy | None) -> dict[str, np.ndarray]:
    """Structured TDM only: per layer a bool vector over output channels (True = kept), the form the
    structured exporter slices by; empty for unstructured masks or without TDM."""
    tdm = find_policy(policy, TDMPolicy)
    if tdm is None or tdm.masks is None or not tdm.masks.structured or not tdm.masks.initialized:
        return {}
    return {name: units.copy() for name, units in tdm.masks.units.items()}
