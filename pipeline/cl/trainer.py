"""The host reference trainer (PyTorch eager): a spec in, tasks trained in order, a ``CLResult`` out.

Recipe shape (torchtune's): ``HostTrainer(spec, policy)`` sets up data, model and method;
``run()`` trains every task and evaluates after each on all seen tasks. Per task, hooks run in
this order (the contract of ``pipeline.cl.policy``)::

    on_task_start(info, model, n_samples)
    per epoch:  on_epoch_start(info, model) -> select_data(info, indices) -> batches
       per step: method.observe: forward, loss, backward -> after_backward -> optimizer.step -> after_step
                 then observe_predictions(info, batch indices, correct)
    on_task_end(info, model)

``info`` is one ``StepInfo`` updated in place; ``iteration`` counts optimizer steps over the run
and is the index of the step in progress while a step's hooks run.
"""
from __future__ import annotations

import time
from contextlib import nullcontext
from pathlib import Path

import numpy as np
import torch
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from pipeline.cl.methods import Batch, Method, method_class
from pipeline.cl.metrics import empty_matrix, task_accuracies
from pipeline.cl.policy import StepInfo, TrainingPolicy
from pipeline.cl.results import CLResult, TaskCost
from pipeline.cl.sampling import epoch_batches, iterations_per_epoch
from pipeline.config import ExperimentSpec
from pipeline.datasets import Task, load_dataset, split_from_spec
from pipeline.spec_model import build_spec_model

EVAL_BATCH = 512


def seed_everything(seed: int) -> np.random.Generator:
    """Seed torch; return the run's numpy generator (batch order). Methods get their own child stream."""
    torch.manual_seed(seed)
    return np.random.default_rng(seed)


def make_optimizer(model: torch.nn.Module, train) -> torch.optim.Optimizer:
    if train.optimizer == "adamw":
        return torch.optim.AdamW(model.parameters(), lr=train.lr, weight_decay=train.weight_decay)
    return torch.optim.SGD(model.parameters(), lr=train.lr, momentum=train.momentum, weight_decay=train.weight_decay)


@torch.no_grad()
def predict_logits(model: torch.nn.Module, x: np.ndarray, batch: int = EVAL_BATCH) -> np.ndarray:
    """Logits of ``x`` in eval mode (the model's train/eval mode is restored)."""
    was_training = model.training
    model.eval()
    out = [model(torch.from_numpy(x[i:i + batch])).numpy() for i in range(0, len(x), batch)]
    model.train(was_training)
    return np.concatenate(out) if out else np.zeros((0, 0), np.float32)


class HostTrainer:
    """Set up once from a spec; ``run()`` trains all tasks. ``model`` and ``tasks`` stay available."""

    def __init__(self, spec: ExperimentSpec, policy: TrainingPolicy | None = None, progress: bool = True) -> None:
        self.spec, self.policy, self.progress = spec, policy or TrainingPolicy(), progress
        self.rng = seed_everything(spec.seed)
        self.dataset = load_dataset(spec.data, spec.seed)
        self.tasks: list[Task] = split_from_spec(self.dataset, spec.data, spec.seed)
        self.model = build_spec_model(spec.model, self.dataset.input_shape, self.dataset.num_classes)
        self.method: Method = method_class(spec.train.method)(
            self.model, make_optimizer(self.model, spec.train), self.policy, spec.train,
            np.random.default_rng([spec.seed, 1]))

    def _training_set(self, t: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(x, y, classes) this task trains on: its own samples, or the union so far for joint."""
        chosen = self.tasks[: t + 1] if self.method.cumulative else [self.tasks[t]]
        return (np.concatenate([k.x_train for k in chosen]), np.concatenate([k.y_train for k in chosen]),
                np.concatenate([k.classes for k in chosen]))

    def _evaluate(self, t: int, class_il: np.ndarray, task_il: np.ndarray) -> int:
        seen = np.concatenate([k.classes for k in self.tasks[: t + 1]])
        n = 0
        for j, task in enumerate(self.tasks[: t + 1]):
            logits = predict_logits(self.model, task.x_test)
            class_il[t, j], task_il[t, j] = task_accuracies(logits, task.y_test, task.classes, seen)
            n += len(task.y_test)
        return n

    def _train_task(self, t: int, info: StepInfo, cost: TaskCost, bar) -> None:
        x, y, classes = self._training_set(t)
        tr = self.spec.train
        classes_t = torch.from_numpy(classes)
        cost.train_samples = len(y)
        info.task, info.epoch, info.epochs, info.task_iteration = t, 0, tr.epochs, 0
        info.iters_per_epoch = iterations_per_epoch(len(y), tr.batch_size)
        self.model.train()
        self.method.set_optimizer(make_optimizer(self.model, tr))
        self.policy.on_task_start(info, self.model, len(y))
        self.method.begin_task(t, self.tasks[t].classes)
        losses = []
        for epoch in range(tr.epochs):
            info.epoch = epoch
            self.policy.on_epoch_start(info, self.model)
            indices = self.policy.select_data(info, np.arange(len(y)))
            batches = epoch_batches(indices, tr.batch_size, self.rng)
            info.iters_per_epoch = len(batches)
            for idx in batches:
                batch = Batch(torch.from_numpy(x[idx]), torch.from_numpy(y[idx]), idx, t, classes_t)
                res = self.method.observe(batch, info)
                self.policy.observe_predictions(info, idx, res.correct)
                losses.append(res.loss)
                cost.steps += 1
                cost.forward_samples += res.forward_samples
                cost.backward_samples += res.backward_samples
                info.iteration += 1
                info.task_iteration += 1
                if bar is not None:
                    bar[0].update(bar[1], advance=1, description=f"task {t + 1}/{len(self.tasks)} epoch {epoch + 1}/{tr.epochs}")
        self.policy.on_task_end(info, self.model)
        self.method.end_task(t)
        cost.mean_loss = float(np.mean(losses)) if losses else 0.0

    def run(self) -> CLResult:
        """Train every task in order, evaluating after each; return the result (not written)."""
        n_tasks, tr = len(self.tasks), self.spec.train
        class_il, task_il = empty_matrix(n_tasks), empty_matrix(n_tasks)
        costs: list[TaskCost] = []
        info = StepInfo(task=0, epoch=0, epochs=tr.epochs, iteration=0)
        start = time.perf_counter()
        progress = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                            transient=False) if self.progress else None
        with progress or nullcontext():
            for t in range(n_tasks):
                n_train = len(self._training_set(t)[1]) if self.method.cumulative else self.tasks[t].n_train
                bar = None
                if progress is not None:
                    total = tr.epochs * iterations_per_epoch(n_train, tr.batch_size)
                    bar = (progress, progress.add_task(f"task {t + 1}/{n_tasks}", total=total))
                cost = TaskCost(task=t)
                t0 = time.perf_counter()
                self._train_task(t, info, cost, bar)
                t1 = time.perf_counter()
                cost.eval_samples = self._evaluate(t, class_il, task_il)
                cost.train_s, cost.eval_s = t1 - t0, time.perf_counter() - t1
                costs.append(cost)
                if bar is not None:
                    progress.update(bar[1], completed=progress.tasks[-1].total,
                                    description=f"task {t + 1}/{n_tasks} class-IL {np.nanmean(class_il[t]):.1f}%")
        return CLResult(
            name=self.spec.name, method=tr.method, dataset=self.dataset.name, seed=self.spec.seed,
            task_classes=[k.classes.tolist() for k in self.tasks], class_il=class_il, task_il=task_il, costs=costs,
            wall_s=time.perf_counter() - start, spec=self.spec.to_dict(),
            extra={"source": self.dataset.source, "policy": self.policy.name,
                   "train_samples": len(self.dataset.y_train), "test_samples": len(self.dataset.y_test)},
        )


def train_host(spec: ExperimentSpec, policy: TrainingPolicy | None = None, progress: bool = True,
               out: str | Path | None = None) -> CLResult:
    """Run the reference CL recipe of ``spec`` on the host; write the result files into ``out`` if given."""
    result = HostTrainer(spec, policy, progress).run()
    if out is not None:
        result.write(out)
    return result
