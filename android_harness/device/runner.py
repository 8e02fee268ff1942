"""The device runner: executes one ``session.json`` (tasks, CL method, replay hierarchy, SparCL's DDR/DGM).

Per task::

    SB <- the task's samples (at most sb_size);  DDR tracker starts
    per epoch: DDR removal (scheduled epochs) -> shuffled batches of the active SB rows
       per step: apply finished swap -> draw EM replay rows -> submit swap (reads overlap the step)
                 -> backend.train_step -> DDR observes correctness -> EM/SB bookkeeping
                 -> checkpoint every N steps; SIGTERM stops here (checkpoint, result "cancelled")
    end: flush SB to storage (commit), rebalance EM from SB (balanced policy), evaluate seen tasks,
         checkpoint.

Generators: ``batch`` = default_rng(seed) for batch order and ``method`` = default_rng([seed, 1])
for replay draws and reservoir insertion, both as in ``pipeline.cl.trainer`` so the device and the
host reference make the same choices; both states are checkpointed, so a resumed run (a new
session per task, or a restart after a kill) continues the same streams.
"""
from __future__ import annotations

import json
import os
import signal
import sys
import time
import traceback

import numpy as np

from android_harness.device import resources
from android_harness.device.checkpoint import RunnerState, latest_checkpoint, load_checkpoint, save_checkpoint
from android_harness.device.cl_step import BatchAssembler
from android_harness.device.errors import CancelledError, DeviceSideError
from android_harness.device.events import EventLog, monotonic
from android_harness.device.replay import EpisodicMemory, RecordFormat, StorageTier, StreamBuffer, SwapWorker
from android_harness.device.session_spec import SessionSpec, read_spec
from android_harness.device.task_data import TaskData, sample_ids
from pipeline.cl.metrics import task_accuracies
from pipeline.cl.sampling import epoch_batches
from pipeline.sparcl.core import ForgettingTracker, GradientMasker, MaskSet
from pipeline.sparcl.core.schedule import ddr_counts, ddr_schedule, tdm_schedule


def _load_backend(model_dir: str):
    from android_harness.device.backends import load_backend

    return load_backend(model_dir)


class Runner:
    """One session. ``run()`` returns the result dict it also writes to ``result.json``."""

    def __init__(self, session_dir: str, backend_factory=_load_backend) -> None:
        self.dir = os.path.abspath(session_dir)
        self.storage_root = os.path.dirname(os.path.dirname(self.dir))
        self.spec: SessionSpec = read_spec(self.dir)
        self.log = EventLog(os.path.join(self.dir, "events.jsonl"))
        self.backend_factory = backend_factory
        self.cancel_requested = False
        self._last_resources = 0.0
        self.state = RunnerState()
        self.ckpt_dir = os.path.join(self.dir, "checkpoints")

    # -- setup -------------------------------------------------------------------------------
    def _path(self, p: str) -> str:
        return self.spec.resolve(self.storage_root, p)

    def _setup(self) -> None:
        spec = self.spec
        self.data = TaskData(self._path(spec.data_dir))
        self.backend = self.backend_factory(self._path(spec.model_dir))
        sig = self.backend.signature
        self.c = sig.num_classes
        self.x_shape = tuple(sig.inputs[0].shape[1:])
        self.assembler = BatchAssembler(spec.train, sig.batch_size, self.c, self.x_shape)
        keep_logits = spec.train.method == "derpp"
        n_logits = self.c if keep_logits else 0
        r = spec.replay
        self.em = EpisodicMemory(r.em_size, self.x_shape, n_logits, r.em_max_bytes or None)
        self.sb = StreamBuffer(r.sb_size, self.x_shape, n_logits, r.sb_max_bytes or None)
        self.storage = StorageTier(self._path(spec.replay_dir), RecordFormat(self.x_shape, n_logits),
                                   int(r.storage_budget_mb * 1024 * 1024), read_only=spec.kind == "profiling")
        self.swap = SwapWorker(self.storage, self.em, r.swap_ratio, r.swap_period, spec.seed)
        self.batch_rng = np.random.default_rng(spec.seed)
        self.method_rng = np.random.default_rng([spec.seed, 1])
        self.ddr = ForgettingTracker() if spec.sparcl.ddr else None
        self.ddr_counts: dict[int, int] = {}
        self.dgm = GradientMasker(spec.sparcl.dgm_ratio, spec.sparcl.dgm_period) if spec.sparcl.dgm else None
        self.tdm = MaskSet({n: m.shape for n, m in self.backend.masks.items()}, seed=spec.seed) if spec.sparcl.tdm else None
        self.tdm_events: dict = {}
        self.tdm_frozen = False
        self.state = RunnerState()
        self._epoch_rng_state: dict = {}
        self.ckpt_dir = os.path.join(self.dir, "checkpoints")

    def _restore(self) -> str | None:
        own = latest_checkpoint(self.ckpt_dir)
        path = own or (self._path(self.spec.resume_from) if self.spec.resume_from else None)
        if path is None:
            return None
        state, arrays, extra = load_checkpoint(path, self.backend)
        if own is None and not state.task_finished:
            raise DeviceSideError(f"resume_from {path}: checkpoint is mid-task; a new session starts from a task end")
        self.em.load_state_dict(arrays) if len(arrays["em_y"]) <= self.em.capacity else self._shrink_em(arrays)
        if own is not None:
            self.sb.load_state_dict(arrays)
        self.batch_rng.bit_generator.state = state.batch_rng
        self._epoch_rng_state = state.batch_rng
        self.method_rng.bit_generator.state = state.method_rng
        if self.ddr is not None and extra.get("ddr"):
            self.ddr.load_state_dict(extra["ddr"])
            self.ddr_counts = {int(k): int(v) for k, v in extra.get("ddr_counts", {}).items()}
        if self.dgm is not None and extra.get("dgm"):
            self.dgm.load_state_dict(extra["dgm"])
        if self.tdm is not None and extra.get("tdm"):
            self.tdm.load_state_dict(extra["tdm"]["masks"])
            self.tdm_frozen = bool(extra["tdm"]["frozen"])
        if self.spec.kind == "task":
            self.storage.truncate_to(state.storage_position)
        if own is None:
            state.evals = []
        self.state = state
        return path

    def _shrink_em(self, arrays: dict[str, np.ndarray]) -> None:
        """A profiling session with a smaller EM keeps a class-balanced random part of the checkpoint's EM."""
        big = EpisodicMemory(len(arrays["em_y"]), self.x_shape, self.em.logits.shape[1])
        big.load_state_dict(arrays)
        donor = StreamBuffer(big.size, self.x_shape, big.logits.shape[1])
        donor.size = big.size
        donor.put(np.arange(big.size), big.x[: big.size], big.y[: big.size], big.logits[: big.size], big.ids[: big.size])
        self.em.size = 0
        self.em.rebalance(donor, np.random.default_rng([self.spec.seed, 5]))
        self.em.seen = big.seen

    # -- checkpoints ---------------------------------------------------------------------------
    def _checkpoint(self) -> None:
        self.swap.apply()
        st = self.state
        st.batch_rng = self._epoch_rng_state if st.batch > 0 else self.batch_rng.bit_generator.state
        st.method_rng = self.method_rng.bit_generator.state
        st.storage_position = self.storage.position()
        extra = {"ddr": self.ddr.state_dict() if self.ddr else {}, "ddr_counts": {str(k): v for k, v in self.ddr_counts.items()},
                 "dgm": self.dgm.state_dict() if self.dgm else {},
                 "tdm": {"masks": self.tdm.state_dict(), "frozen": self.tdm_frozen} if self.tdm and self.tdm.initialized else {}}
        path = save_checkpoint(self.ckpt_dir, self.backend, st, {**self.em.state_dict(), **self.sb.state_dict()},
                               extra, keep=self.spec.keep_checkpoints)
        self.log.emit("checkpoint", path=os.path.relpath(path, self.storage_root), step=st.iteration)

    # -- training ------------------------------------------------------------------------------
    def _maybe_resources(self, force: bool = False) -> None:
        now = monotonic()
        if force or now - self._last_resources >= self.spec.resources_every_s:
            self._last_resources = now
            self.log.emit("resources", **resources.probe(self.spec.meminfo_path, self.dir, self.storage.root))

    def _task_rows(self, task: int, n: int) -> np.ndarray:
        if self.spec.subset_fraction >= 1.0:
            return np.arange(n)
        k = max(1, int(round(self.spec.subset_fraction * n)))
        return np.sort(np.random.default_rng([self.spec.seed, task, 4]).choice(n, size=k, replace=False))

    def _start_task(self, task: int, fresh: bool) -> np.ndarray:
        x, y = self.data.train(task)
        rows = self._task_rows(task, len(y))
        classes = self.data.classes(task)
        if fresh:
            self.sb.fill(x[rows], y[rows], sample_ids(task, rows), np.random.default_rng([self.spec.seed, task, 2]))
            st = self.state
            st.task, st.task_finished, st.epoch, st.batch, st.epoch_loss = task, False, 0, 0, [0.0, 0]
            self.tdm_frozen = False
            if self.ddr is not None:
                self.ddr.start_task(self.sb.size)
                self.ddr_counts = ddr_counts(self.sb.size, ddr_schedule(self.spec.train.epochs, self.spec.sparcl.ddr_steps,
                                                                        self.spec.sparcl.ddr_fraction))
        if self.tdm is not None:
            sp = self.spec.sparcl
            self.tdm_events = {ev.epoch: ev for ev in tdm_schedule(self.spec.train.epochs, sp.sparsity, sp.tdm_update_every,
                                                                   sp.tdm_swap, sp.tdm_freeze_after)}
            if not self.tdm.initialized:
                self.tdm.init_magnitude(self.backend.params(), sp.sparsity)
                self.backend.set_masks(self.tdm.weight_masks())
        self.log.emit("task_start", task=task, classes=classes.tolist(), n_train=int(self.sb.size))
        return classes

    def _train_task(self, task: int, classes: np.ndarray) -> None:
        spec, st, tr = self.spec, self.state, self.spec.train
        phase = "profiling" if spec.kind == "profiling" else "training"
        self.log.emit("phase_start", phase=phase, task=task)
        swapped, swap_s = 0, 0.0
        while st.epoch < tr.epochs:
            t0 = time.perf_counter()
            if st.batch == 0:
                if self.ddr is not None and self.ddr_counts.get(st.epoch, 0):
                    gone = self.ddr.remove_least_forgotten(self.ddr_counts[st.epoch])
                    self.log.emit("ddr", task=task, epoch=st.epoch, removed=int(gone.size),
                                  remaining=int(self.ddr.active(np.arange(self.sb.size)).size))
                self._update_masks(task, st.epoch)
                self._epoch_rng_state = self.batch_rng.bit_generator.state
            else:
                self.batch_rng.bit_generator.state = self._epoch_rng_state
            active = self.ddr.active(np.arange(self.sb.size)) if self.ddr is not None else np.arange(self.sb.size)
            batches = epoch_batches(active, tr.batch_size, self.batch_rng)
            for b in range(st.batch, len(batches)):
                idx = batches[b]
                res = self.swap.apply()
                if res is not None:
                    swapped, swap_s = swapped + res.n_swapped, swap_s + res.seconds
                sb_x, sb_y = self.sb.x[idx], self.sb.y[idx]
                pool_sb = self.sb if spec.replay.em_policy == "balanced" else None
                step = self.assembler.assemble(sb_x, sb_y, classes, self.em, self.method_rng, pool_sb)
                self.swap.submit(st.iteration, step.em_slots)
                grad_masks = self.dgm.masks if self.dgm is not None and self.dgm.masks else None
                out = self.backend.train_step(step.inputs, tr.lr, grad_masks)
                if self.dgm is not None:
                    if self.dgm.due():
                        self.dgm.refresh({n: g for n, g in self.backend.grads().items() if n in self.backend.masks},
                                         self.backend.masks)
                    self.dgm.tick()
                logits = out.logits[: step.n_current]
                if self.ddr is not None:
                    self.ddr.observe(idx, self.assembler.correct(logits, sb_y, classes))
                if spec.replay.em_policy == "reservoir":
                    self.em.add_reservoir(sb_x, sb_y, logits if self.em.logits.shape[1] else None, self.sb.ids[idx], self.method_rng)
                elif self.sb.logits.shape[1]:
                    self.sb.logits[idx] = logits
                st.epoch_loss = [st.epoch_loss[0] + out.loss, st.epoch_loss[1] + 1]
                st.iteration += 1
                st.batch = b + 1
                if spec.step_event_every and st.iteration % spec.step_event_every == 0:
                    self.log.emit("step", task=task, step=st.iteration, loss=round(out.loss, 6))
                self._maybe_resources()
                last_of_task = st.epoch == tr.epochs - 1 and st.batch == len(batches)
                if self.cancel_requested or (spec.checkpoint_every and st.iteration % spec.checkpoint_every == 0 and not last_of_task):
                    if st.batch == len(batches):
                        self._end_epoch(task, len(batches), t0, swapped, swap_s)
                        swapped, swap_s = 0, 0.0
                    self._checkpoint()
                    if self.cancel_requested:
                        raise CancelledError("SIGTERM")
            if st.batch == len(batches) or not batches:
                self._end_epoch(task, len(batches), t0, swapped, swap_s)
                swapped, swap_s = 0, 0.0
        self.swap.apply()
        self.log.emit("phase_end", phase=phase, task=task)

    def _update_masks(self, task: int, epoch: int) -> None:
        """TDM at an epoch start: drop by |w| + lambda*|grad of the previous batch|, regrow at random."""
        ev = self.tdm_events.get(epoch) if self.tdm is not None else None
        if ev is None or self.tdm_frozen:
            return
        params = self.backend.params()
        names = list(self.backend.masks)
        grads = self.backend.grads() if self.backend.steps else None
        survivors = self.tdm.update({n: params[n] for n in names}, None if grads is None else {n: grads[n] for n in names},
                                    ev.drop_to, ev.grow_to, self.spec.sparcl.tdm_lambda)
        self.backend.set_params({n: params[n] * survivors[n] for n in names})
        self.backend.set_masks(self.tdm.weight_masks())
        self.tdm_frozen = ev.freeze
        if self.dgm is not None:
            self.dgm.invalidate()
        density = float(np.mean([m.mean() for m in self.backend.masks.values()]))
        self.log.emit("mask", task=task, epoch=epoch, kind=ev.kind, density=round(density, 6))

    def _end_epoch(self, task: int, n_batches: int, t0: float, swapped: int, swap_s: float) -> None:
        st = self.state
        loss_sum, n = st.epoch_loss
        self.log.emit("epoch", task=task, epoch=st.epoch, loss=round(loss_sum / max(n, 1), 6),
                      n_samples=int(min(n_batches * self.spec.train.batch_size, self.sb.size)), seconds=round(time.perf_counter() - t0, 4))
        if self.swap.enabled:
            self.log.emit("swap", task=task, epoch=st.epoch, n_swapped=swapped, seconds=round(swap_s, 6))
        st.epoch, st.batch, st.epoch_loss = st.epoch + 1, 0, [0.0, 0]

    def _finish_task(self, task: int) -> None:
        """Flush SB to flash, rebalance EM, evaluate on every task seen so far."""
        keep = self.ddr.active(np.arange(self.sb.size)) if self.ddr is not None else np.arange(self.sb.size)
        self.sb.keep_only(keep)
        if self.spec.kind == "task":
            n = self.sb.size
            self.storage.append(self.sb.ids[:n], self.sb.x[:n], self.sb.y[:n], self.sb.logits[:n] if self.sb.logits.shape[1] else None)
            self.storage.commit()
        if self.spec.replay.em_policy == "balanced":
            self.em.rebalance(self.sb, np.random.default_rng([self.spec.seed, task, 3]))
        self.state.evals.append(self._evaluate(task))
        self.state.task_finished = True
        self.log.emit("task_end", task=task)

    def _evaluate(self, task: int) -> dict:
        self.log.emit("phase_start", phase="evaluation", task=task)
        seen = self.data.seen_tasks(task)
        seen_classes = np.concatenate([self.data.classes(t) for t in seen])
        row = {"after_task": task, "class_il": {}, "task_il": {}}
        for t in seen:
            x, y = self.data.test(t)
            logits = self.backend.eval_logits(x)
            ci, ti = task_accuracies(logits, y, self.data.classes(t), seen_classes)
            row["class_il"][str(t)], row["task_il"][str(t)] = ci, ti
            self.log.emit("eval", after_task=task, task=t, class_il=round(ci, 4), task_il=round(ti, 4), n=int(len(y)))
        self.log.emit("phase_end", phase="evaluation", task=task)
        return row

    # -- session -------------------------------------------------------------------------------
    def _on_sigterm(self, signum, frame) -> None:
        self.cancel_requested = True

    def run(self, handle_sigterm: bool = True) -> dict:
        """Run the session. ``handle_sigterm=False``: the caller (the persistent runner) owns SIGTERM and sets
        ``cancel_requested``; a session cancelled before it started ends at once with status "cancelled"."""
        if handle_sigterm:
            signal.signal(signal.SIGTERM, self._on_sigterm)
        started = monotonic()
        status, error = "ok", None
        try:
            if self.cancel_requested:
                raise CancelledError("cancelled before the session started")
            self._setup()
            resumed = self._restore()
            self.log.emit("session_start", session_id=self.spec.session_id, runtime=self.backend.runtime, pid=os.getpid(),
                          kind=self.spec.kind, resumed_from=resumed, device=resources.probe(self.spec.meminfo_path))
            tasks = self.spec.tasks
            start = tasks.index(self.state.task) + int(self.state.task_finished) if self.state.task in tasks else 0
            if self.spec.kind == "profiling" and resumed and not resumed.startswith(self.ckpt_dir):
                start = 0  # Miro's candidates continue training the task their mini-checkpoint started
            for task in tasks[start:]:
                fresh = self.state.task != task or self.state.task_finished
                classes = self._start_task(task, fresh)
                self._train_task(task, classes)
                self._finish_task(task)
                self._checkpoint()
                if self.cancel_requested:
                    raise CancelledError("SIGTERM")
        except CancelledError:
            status = "cancelled"
        except Exception as exc:  # the host learns about every failure from the log and result.json
            status, error = "error", f"{type(exc).__name__}: {exc}"
            self.log.emit("error", phase="training", message=error)
            traceback.print_exc(file=sys.stderr)
        finally:
            if hasattr(self, "swap"):
                self.swap.close()
            if hasattr(self, "storage"):
                self.storage.close()
        result = {"session_id": self.spec.session_id, "status": status, "error": error, "kind": self.spec.kind,
                  "tasks": self.spec.tasks, "iterations": self.state.iteration, "evals": self.state.evals,
                  "checkpoint": latest_checkpoint(self.ckpt_dir),
                  "t_start": started, "t_end": monotonic()}
        if result["checkpoint"]:
            result["checkpoint"] = os.path.relpath(result["checkpoint"], self.storage_root)
        self.log.emit("session_end", status=status)
        self.log.close()
        write_result(self.dir, result)
        return result


def write_result(session_dir: str, result: dict) -> None:
    path = os.path.join(session_dir, "result.json")
    with open(path + ".tmp", "w") as f:
        json.dump(result, f, indent=1)
        f.flush()
        os.fsync(f.fileno())
    os.replace(path + ".tmp", path)
