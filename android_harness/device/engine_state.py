"""The engine's checkpoint content (docs/semantics.md 10): ``state.json`` fields and ``arrays/`` names.

``snapshot`` turns the engine into (state, arrays); ``restore`` puts them back. A resume from the
session's OWN checkpoint continues at its position (mid-task: SB rebuilt from its streams and
checked against ``sb_rows``, EM re-read from ``em_refs``, DDR/DGM/TDM state as saved); a resume from
another session's checkpoint (``resume_from``, always at a task end) takes the model, optimizer,
masks, ``g_prev`` and the iteration count, and the session starts its tasks afresh.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from android_harness.device.engine import Engine
from android_harness.device.errors import CheckpointError
from android_harness.device.sparcl import DdrState

DDR_ARRAYS = {f"ddr_{name}": name for name in DdrState.ARRAYS}


def snapshot(engine: Engine) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
    p, backend = engine.pos, engine.backend
    arrays, opt_step = backend.state_arrays()
    dgm = engine.dgm
    state = {"runtime": backend.runtime, "task": p.task, "task_finished": p.task_finished, "epoch": p.epoch,
             "batch": p.batch, "task_step": p.task_step, "iteration": p.iteration,
             "epoch_loss_sum": p.epoch_loss_sum, "epoch_loss_n": p.epoch_loss_n, "evals": p.evals,
             "storage_position": engine.storage.position(),
             "dgm_steps_since_refresh": dgm.steps_since_refresh if dgm is not None else 0,
             "dgm_has_masks": dgm is not None and dgm.masks is not None, "tdm_frozen": engine.tdm_frozen,
             "has_grad_prev": engine.g_prev is not None, "opt_step": opt_step, "trace_bytes": engine.trace.size()}
    if dgm is not None and dgm.masks is not None:
        arrays.update({f"gmask.{n}": m for n, m in dgm.masks.items()})
    if engine.g_prev is not None:
        arrays.update({f"grad_prev.{n}": g for n, g in engine.g_prev.items()})
    if engine.sb is not None:
        arrays["sb_rows"] = engine.sb.rows
        if engine.n_logits:
            arrays["sb_logits"] = engine.sb.logits
        arrays["em_refs"] = engine.em.refs if engine.em is not None else np.zeros((0, 2), np.int64)
        if engine.ddr is not None:
            arrays.update({key: getattr(engine.ddr, name) for key, name in DDR_ARRAYS.items()})
    return state, arrays


def restore(engine: Engine, state: dict[str, Any], arrays: dict[str, np.ndarray], own: bool, where: str) -> None:
    """Load a checkpoint into ``engine``; ``own`` = the session's own (continue), else a task-end hand-over."""
    backend = engine.backend
    if state["runtime"] != backend.runtime:
        raise CheckpointError(f"{where}: written by the {state['runtime']} runtime, this program runs {backend.runtime}")
    if not own and not state["task_finished"]:
        raise CheckpointError(f"{where}: resume_from must be a checkpoint at a task end (this one is mid-task)")
    try:
        backend.load_state_arrays(arrays, int(state["opt_step"]))
    except (KeyError, ValueError) as exc:
        raise CheckpointError(f"{where}: does not fit the program in {engine.spec.model_dir} ({exc})") from None
    engine.g_prev = ({n: np.array(arrays[f"grad_prev.{n}"], np.float32) for n in engine.order}
                     if state["has_grad_prev"] else None)
    p = engine.pos
    p.iteration, p.task, p.task_finished = int(state["iteration"]), int(state["task"]), bool(state["task_finished"])
    if not own:
        return
    p.epoch, p.batch, p.task_step = int(state["epoch"]), int(state["batch"]), int(state["task_step"])
    p.epoch_loss_sum, p.epoch_loss_n, p.evals = float(state["epoch_loss_sum"]), int(state["epoch_loss_n"]), list(state["evals"])
    engine.tdm_frozen = bool(state["tdm_frozen"])
    if engine.dgm is not None:
        engine.dgm.steps_since_refresh = int(state["dgm_steps_since_refresh"])
        engine.dgm.masks = ({n: np.array(arrays[f"gmask.{n}"], np.float32) for n in engine.order}
                            if state["dgm_has_masks"] else None)
    if p.task_finished:
        return
    engine.build_task(p.task, np.asarray(arrays["em_refs"], np.int64).reshape(-1, 2))
    if not np.array_equal(engine.sb.rows, arrays["sb_rows"]):
        raise CheckpointError(f"{where}: its stream buffer rows differ from the ones this session draws "
                              "(another seed, sb_size or subset?)")
    if engine.n_logits:
        engine.sb.logits[:] = arrays["sb_logits"]
    if engine.ddr is not None:
        engine.ddr.load_arrays({name: arrays[key] for key, name in DDR_ARRAYS.items()})
