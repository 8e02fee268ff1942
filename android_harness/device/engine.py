"""The training engine: a task's start, epochs, steps and end, exactly as docs/semantics.md 3-9 define them.

One implementation for every runner in Python: the device runner drives it with an ExecuTorch or
ORT backend, the host trainer with the torch-eager backend. Per task::

    start (5): SB (+ profiling subset), DDR reset, DGM cleared, EM built from the storage tier
    epoch (3): DDR removal -> TDM update -> pool = active SB ∪ EM, permuted -> ceil(|P|/B) steps
    step (4):  apply swap -> rows and weights -> forward_backward -> DGM from the raw gradient ->
               keep g_prev -> optimizer -> BatchNorm stats -> DDR observation -> plan swap
    end (6):   active SB rows to the storage tier -> evaluation -> checkpoint (by the runner)

``EngineObserver`` sees steps and mask updates (the host's FLOPs accounting and conformance checks);
it never changes a number.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from android_harness.device.backends.base import TrainingBackend
from android_harness.device.replay.em_build import EpisodicMemory, em_refs
from android_harness.device.errors import SessionSpecError
from android_harness.device.events import EventLog
from android_harness.device.metrics import correct_counts
from android_harness.device.pool import StepRows, epoch_permutation, epoch_pool, step_entries, steps_in_epoch
from android_harness.device.replay import StorageTier, SwapReader, plan_swap
from android_harness.device.rng import DDR_DRAW, TDM_GROW, Stream
from android_harness.device.session_spec import SessionSpec
from android_harness.device.sparcl import DdrState, DgmState, TdmResult, ddr_counts, ddr_schedule, tdm_schedule, tdm_update
from android_harness.device.methods import method
from android_harness.device.spec_tables import dgm_optimizer_problem
from android_harness.device.stream_buffer import StreamBuffer, subset_rows
from android_harness.device.task_data import TaskData
from android_harness.device.trace import Trace, loss_bits


class EngineObserver:
    """No-op hooks; subclasses watch the run (they must not change it)."""

    def on_step(self, task: int, rows: int, loss: np.float32, weight_masks: dict[str, np.ndarray],
                grad_masks: dict[str, np.ndarray] | None) -> None: ...

    def on_tdm(self, task: int, epoch: int, result: TdmResult) -> None: ...

    def on_dgm(self, task: int, step: int, grads: dict[str, np.ndarray], weight_masks: dict[str, np.ndarray],
               masks: dict[str, np.ndarray]) -> None: ...


@dataclass
class Position:
    """Where the run is; ``batch`` = next step of ``epoch`` (docs/semantics.md 10)."""

    task: int = -1
    task_finished: bool = True
    epoch: int = 0
    batch: int = 0
    task_step: int = 0
    iteration: int = 0
    epoch_loss_sum: float = 0.0
    epoch_loss_n: int = 0
    evals: list = field(default_factory=list)


StepHook = Callable[[bool], None]   # called after every step with "this was the task's last step"


class Engine:
    def __init__(self, spec: SessionSpec, backend: TrainingBackend, data: TaskData, storage: StorageTier,
                 log: EventLog, trace: Trace, observer: EngineObserver | None = None) -> None:
        self.spec, self.backend, self.data, self.storage, self.log, self.trace = spec, backend, data, storage, log, trace
        self.observer = observer or EngineObserver()
        sig = backend.signature
        self.order, self.b, self.num_classes = list(sig.mask_names), sig.batch_size, sig.num_classes
        tr, sp, opt = spec.train, spec.sparcl, backend.optimizer_config
        if tr.batch_size != self.b:
            raise SessionSpecError(f"session.json train.batch_size: {tr.batch_size}, but the program in {spec.model_dir} "
                                   f"trains {self.b} rows per step (export it with this batch size)")
        problem = dgm_optimizer_problem(sp, opt.name, opt.momentum, opt.weight_decay)
        if problem:
            raise SessionSpecError(f"session.json {problem} (the export's optimizer)")
        self.method = method(tr.method)
        self.replay = self.method.replays
        self.n_logits = self.num_classes if self.method.stores_logits else 0
        self.pos = Position()
        self.dgm = DgmState(sp.dgm_ratio, sp.dgm_period) if sp.dgm_on else None
        self.g_prev: dict[str, np.ndarray] | None = None
        self.tdm_frozen = False
        self.sb: StreamBuffer | None = None
        self.em: EpisodicMemory | None = None
        self.ddr: DdrState | None = None
        self.rows: StepRows | None = None
        self.ddr_counts: dict[int, int] = {}
        self.tdm_events: dict = {}
        self.swap = SwapReader(storage)
        params = set(sig.parameter_names)
        self.biases = ({n: n[:-len("weight")] + "bias" for n in self.order if n[:-len("weight")] + "bias" in params}
                       if sp.tdm_on and sp.structured else {})
        self._epoch_t0, self._epoch_swap = time.perf_counter(), (0, 0.0)

    # -- a task start (5) ----------------------------------------------------------------------
    def start_task(self, task: int) -> None:
        """A fresh task: SB, DDR reset, DGM cleared, EM built (TDM masks carry over)."""
        p = self.pos
        p.task, p.task_finished, p.epoch, p.batch, p.task_step, p.epoch_loss_sum, p.epoch_loss_n = task, False, 0, 0, 0, 0.0, 0
        self.tdm_frozen = False
        if self.dgm is not None:
            self.dgm.clear()
            self.dgm.steps_since_refresh = 0
        self.build_task(task, None)
        if self.em is not None:
            self.trace.write({"k": "em", "task": task, "refs": self.em.refs.tolist()})

    def build_task(self, task: int, refs: np.ndarray | None) -> None:
        """SB, schedules and EM of ``task``; ``refs`` = the EM references of a resumed checkpoint."""
        spec, tr, sp = self.spec, self.spec.train, self.spec.sparcl
        self.sb = StreamBuffer.build(self.data, task, spec.seed, spec.replay.sb_size, self.method.sb_holds_seen_tasks,
                                     spec.subset_fraction if spec.kind == "profiling" else 1.0, self.n_logits)
        self.ddr = DdrState(self.sb.size) if sp.ddr_on else None
        self.ddr_counts = ddr_counts(self.sb.size, ddr_schedule(tr.epochs, sp.ddr_steps, sp.ddr_fraction)) if sp.ddr_on else {}
        self.tdm_events = ({ev.epoch: ev for ev in tdm_schedule(tr.epochs, sp.sparsity, sp.tdm_update_every, sp.tdm_swap,
                                                                sp.tdm_freeze_after)} if sp.tdm_on else {})
        self.em = None
        if self.replay:
            if refs is None:
                refs = em_refs(self.storage, spec.replay.em_size, spec.seed, task)
                keep = subset_rows(len(refs), spec.subset_fraction, spec.seed, task, 1) if spec.kind == "profiling" else None
                refs = refs if keep is None else refs[keep]
            self.em = EpisodicMemory.load(self.storage, refs, self.sb.x.shape[1:], self.n_logits)
        self.rows = StepRows(tr, self.b, self.num_classes, self.data.classes(task))

    # -- epochs (3) ------------------------------------------------------------------------------
    def train_task(self, after_step: StepHook) -> None:
        tr, p = self.spec.train, self.pos
        phase = "profiling" if self.spec.kind == "profiling" else "training"
        self.log.emit("phase_start", phase=phase, task=p.task)
        self._epoch_t0, self._epoch_swap = time.perf_counter(), (self.swap.swapped, self.swap.seconds)
        while p.epoch < tr.epochs:
            if p.batch == 0:
                self._epoch_start(p.epoch)
            active = self.ddr.active() if self.ddr is not None else np.arange(self.sb.size)
            pool = epoch_pool(active, self.sb.size, self.em.size if self.em is not None else 0)
            perm = epoch_permutation(pool, self.spec.seed, p.task, p.epoch)
            n_steps = steps_in_epoch(len(pool), self.b)
            if n_steps == 0:
                self._end_epoch(0)
            for k in range(p.batch, n_steps):
                self._step(step_entries(perm, k, self.b))
                p.batch = k + 1
                if p.batch == n_steps:
                    self._end_epoch(len(pool))
                after_step(p.epoch == tr.epochs)
        self.apply_swap()
        self.log.emit("phase_end", phase=phase, task=p.task)

    def _epoch_start(self, epoch: int) -> None:
        task = self.pos.task
        count = self.ddr_counts.get(epoch, 0) if self.ddr is not None else 0
        if count:
            draw = Stream(self.spec.seed, DDR_DRAW, task, epoch) if self.spec.sparcl.ddr_select == "random" else None
            window = self.ddr.window_counts()
            gone = self.ddr.remove(count, draw)
            self.log.emit("ddr", task=task, epoch=epoch, removed=int(gone.size), remaining=int(self.ddr.active().size),
                          window=window)
            self.trace.write({"k": "ddr", "task": task, "epoch": epoch, "removed": gone.tolist(), "window": window})
        ev = self.tdm_events.get(epoch)
        if ev is None or self.tdm_frozen:
            return
        sp = self.spec.sparcl
        res = tdm_update(self.backend.params(), self.backend.masks, self.g_prev, ev.drop_to, ev.grow_to, sp.tdm_lambda,
                         Stream(self.spec.seed, TDM_GROW, task, epoch), self.order, sp.structured)
        self.backend.set_masks(res.masks, reset={n: res.survivors[n] == 0 for n in self.order})
        self._zero_dead_biases()
        self.tdm_frozen = ev.freeze
        if self.dgm is not None:
            self.dgm.clear()
        density = float(np.mean([m.mean() for m in self.backend.masks.values()])) if self.order else 1.0
        self.log.emit("mask", task=task, epoch=epoch, kind=ev.kind, density=round(density, 6))
        self.trace.masks("tdm", task, "epoch", epoch, self.backend.masks, self.order)
        self.observer.on_tdm(task, epoch, res)

    def _end_epoch(self, n_samples: int) -> None:
        p = self.pos
        self.log.emit("epoch", task=p.task, epoch=p.epoch, loss=round(p.epoch_loss_sum / max(p.epoch_loss_n, 1), 6),
                      n_samples=int(n_samples), seconds=round(time.perf_counter() - self._epoch_t0, 4))
        if self.spec.replay.swap_ratio > 0 and self.em is not None:
            self.log.emit("swap", task=p.task, epoch=p.epoch, n_swapped=self.swap.swapped - self._epoch_swap[0],
                          seconds=round(self.swap.seconds - self._epoch_swap[1], 6))
        p.epoch, p.batch, p.epoch_loss_sum, p.epoch_loss_n = p.epoch + 1, 0, 0.0, 0
        self._epoch_t0, self._epoch_swap = time.perf_counter(), (self.swap.swapped, self.swap.seconds)

    # -- a step (4) ------------------------------------------------------------------------------
    def _step(self, entries: np.ndarray) -> None:
        spec, p, backend = self.spec, self.pos, self.backend
        self.apply_swap()                                                       # 4.1
        batch = self.rows.build(entries, self.sb, self.em)                     # 4.2, 4.3
        r = spec.replay
        plan = None
        if (self.em is not None and r.swap_ratio > 0 and len(self.storage) > 0
                and p.task_step % r.swap_period == 0):                            # 4.10, planned from the rows alone:
            plan = plan_swap(batch.em_slots, self.em, self.storage, r.swap_ratio, spec.seed, p.task, p.task_step)
            self.swap.submit(plan)                                              # read while the step computes
        out = backend.forward_backward(batch.inputs)                           # 4.4
        g = backend.raw_grads(self.order)
        grad_masks = None
        if self.dgm is not None:                                                # 4.5
            if self.dgm.due():
                self.dgm.refresh(g, backend.masks, self.order)
                self.trace.masks("dgm", p.task, "step", p.task_step, self.dgm.masks, self.order)
                self.observer.on_dgm(p.task, p.task_step, g, backend.masks, self.dgm.masks)
            grad_masks = self.dgm.masks
        self.g_prev = {n: np.array(g[n], dtype=np.float32, copy=True) for n in self.order}   # 4.6
        backend.apply_update(spec.train.lr, grad_masks)                          # 4.7
        self._zero_dead_biases()
        backend.update_norm_stats(out.stats)                                    # 4.8
        if self.dgm is not None:
            self.dgm.tick()
        if batch.sb_pos.size:                                                   # 4.9
            logits = out.logits[batch.sb_pos]
            if self.ddr is not None:
                self.ddr.observe(batch.sb_rows, self.rows.correct(logits, self.sb.y[batch.sb_rows]))
            if self.n_logits:
                for r, row in zip(batch.sb_rows.tolist(), logits):             # a row twice keeps the later logits
                    self.sb.logits[r] = row
        self.trace.write({"k": "step", "task": p.task, "epoch": p.epoch, "step": p.task_step, "ids": batch.ids.tolist(),
                          "loss": loss_bits(out.loss)})
        if plan is not None and len(plan):
            self.trace.write({"k": "swap", "task": p.task, "step": p.task_step, "plan": plan.tolist()})
        self.observer.on_step(p.task, self.b, out.loss, backend.masks, grad_masks)
        p.epoch_loss_sum += float(out.loss)
        p.epoch_loss_n += 1
        p.task_step += 1
        p.iteration += 1                                                        # 4.11
        if spec.step_event_every and p.iteration % spec.step_event_every == 0:
            self.log.emit("step", task=p.task, step=p.iteration, loss=round(float(out.loss), 6))

    def _zero_dead_biases(self) -> None:
        """Structured TDM: a pruned channel's bias is 0 too, so the channel can be sliced away (docs/semantics.md 8)."""
        if not self.biases:
            return
        current = self.backend.params(list(self.biases.values()))
        live = {b: self.backend.masks[w].reshape(self.backend.masks[w].shape[0], -1)[:, 0] for w, b in self.biases.items()}
        self.backend.set_params({b: np.where(live[b] > 0, current[b], np.float32(0)).astype(np.float32) for b in current})

    def apply_swap(self) -> None:
        if self.em is not None:
            self.swap.apply(self.em)

    # -- a task end (6) --------------------------------------------------------------------------
    def finish_task(self) -> None:
        """The task's SB rows to the storage tier (task sessions): the surviving ones, or all of them with
        ``ddr_store_removed``; then the evaluation."""
        self.apply_swap()
        sb, task = self.sb, self.pos.task
        keep_removed = self.ddr is None or self.spec.sparcl.ddr_store_removed
        rows = np.arange(sb.size) if keep_removed else self.ddr.active()
        if self.spec.kind == "task":
            self.storage.append(sb.ids[rows], sb.x[rows], sb.y[rows], sb.logits[rows] if self.n_logits else None)
            self.storage.commit()
        self.pos.evals.append(self.evaluate(task))
        self.pos.task_finished = True
        self.log.emit("task_end", task=task)

    def evaluate(self, task: int) -> dict:
        """Class-IL and task-IL accuracy (%) on every task seen so far (6.2)."""
        self.log.emit("phase_start", phase="evaluation", task=task)
        seen = self.data.seen_tasks(task)
        seen_classes = np.concatenate([self.data.classes(t) for t in seen])
        row: dict = {"after_task": task, "class_il": {}, "task_il": {}}
        counts: dict = {"class_il": {}, "task_il": {}}
        for t in seen:
            x, y = self.data.test(t)
            nc, nt = correct_counts(self.backend.eval_logits(x), y, self.data.classes(t), seen_classes)
            n = max(len(y), 1)
            row["class_il"][str(t)], row["task_il"][str(t)] = 100.0 * nc / n, 100.0 * nt / n
            counts["class_il"][str(t)], counts["task_il"][str(t)] = nc, nt
            self.log.emit("eval", after_task=task, task=t, class_il=round(100.0 * nc / n, 4),
                          task_il=round(100.0 * nt / n, 4), n=int(len(y)))
        self.trace.write({"k": "eval", "task": task, **counts})
        self.log.emit("phase_end", phase="evaluation", task=task)
        return row

    def close(self) -> None:
        self.swap.close()
