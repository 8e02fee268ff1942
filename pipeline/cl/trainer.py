"""The host trainer: the engine with the torch-eager backend, one session per task, as ``edgecl run`` does.

``HostTrainer(spec).run()`` writes the task shards (the host cache, as for a device), then for each
task a ``session.json`` under a local storage root and runs it with ``Runner`` (the device runner's
own code) on ``TorchBackend``: the same SB/EM/epoch/step/TDM/DDR/DGM/swap semantics, checkpoints
handed from session to session, the same storage tier. It returns a ``CLResult`` with the accuracy
matrices, per-task costs and the training FLOPs (``FlopsObserver``). Every method runs here,
``joint`` (the upper bound) included.
"""
from __future__ import annotations

import json
import shutil
import tempfile
import time
from contextlib import nullcontext
from pathlib import Path

import numpy as np
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from android_harness.cache_dir import edgecl_home
from android_harness.device.engine import EngineObserver
from android_harness.device.events import read_events
from android_harness.device.metrics import empty_matrix
from android_harness.device.runner import Runner
from android_harness.device.session_spec import write_spec
from models import build_model
from pipeline.cl.results import CLResult, TaskCost
from pipeline.cl.torch_backend import TorchBackend
from pipeline.config import ExperimentSpec
from pipeline.errors import SessionError
from pipeline.experiment_prep import export_request, session_spec, write_shards
from pipeline.sparcl.flops import FlopsObserver, layer_flops
from pipeline.task_config import TaskConfig


class _Observers(EngineObserver):
    """Fans the engine's hooks out to the FLOPs counter, the progress bar and an optional extra observer."""

    def __init__(self, flops: FlopsObserver, extra: EngineObserver | None) -> None:
        self.parts = [o for o in (flops, extra) if o is not None]
        self.tick = lambda: None
        self.losses: dict[int, list[float]] = {}

    def on_step(self, task, rows, loss, weight_masks, grad_masks):
        self.losses.setdefault(task, []).append(float(loss))
        for o in self.parts:
            o.on_step(task, rows, loss, weight_masks, grad_masks)
        self.tick()

    def on_tdm(self, task, epoch, result):
        for o in self.parts:
            o.on_tdm(task, epoch, result)

    def on_dgm(self, task, step, grads, weight_masks, masks):
        for o in self.parts:
            o.on_dgm(task, step, grads, weight_masks, masks)


class HostTrainer:
    """Set up once from a spec; ``run()`` trains all tasks. ``root`` (default: a temporary folder, removed
    after the run) holds ``sessions/`` and the storage tier ``replay/``; ``trace`` writes trace.jsonl."""

    def __init__(self, spec: ExperimentSpec, progress: bool = True, root: str | Path | None = None,
                 observer: EngineObserver | None = None, trace: bool | None = None, checkpoint_every: int | None = None,
                 tasks: list[TaskConfig] | None = None) -> None:
        self.spec, self.progress, self.trace = spec, progress, trace
        self.root = Path(root) if root is not None else None
        self.checkpoint_every = checkpoint_every
        self.data = write_shards(spec, edgecl_home() / "cache")
        req = export_request(spec, self.data, spec.export.runtime)
        self.backend = TorchBackend(req)
        self.flops = FlopsObserver(layer_flops(build_model(req.model, req.model_args()), tuple(req.input_shape)))
        self.observers = _Observers(self.flops, observer)
        self.task_configs = tasks or [TaskConfig.from_spec(spec)] * len(self.data.tasks)
        self.sessions: list[Path] = []

    def _backend(self, _model_dir: str) -> TorchBackend:
        self.backend.reset()
        return self.backend

    def _session(self, root: Path, index: int, task: int, resume_from: str) -> tuple[dict, Path]:
        sid = f"{self.spec.name}-task{task}"
        ss = session_spec(self.spec, sid, [task], model_dir="host-torch", data_dir=str(self.data.folder),
                          replay_dir="replay", task=self.task_configs[index], resume_from=resume_from, trace=self.trace)
        if self.checkpoint_every is not None:
            ss.checkpoint_every = self.checkpoint_every
        folder = root / "sessions" / sid
        write_spec(str(folder), ss)
        result = Runner(str(folder), backend_factory=self._backend, observer=self.observers).run(handle_sigterm=False)
        if result["status"] != "ok":
            raise SessionError("died", f"host session ended {result['status']}: {result.get('error')}", sid)
        return result, folder

    def run(self) -> CLResult:
        """Train every task in order (one session each), evaluating after each; return the result (not written)."""
        spec, n = self.spec, len(self.data.tasks)
        class_il, task_il = empty_matrix(n), empty_matrix(n)
        costs: list[TaskCost] = []
        start = time.perf_counter()
        root = self.root or Path(tempfile.mkdtemp(prefix="edgecl-host-"))
        progress = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                            transient=False) if self.progress else None
        last = ""
        try:
            with progress or nullcontext():
                for i, t in enumerate(self.data.tasks):
                    if progress is not None:
                        bar = progress.add_task(f"task {i + 1}/{n}", total=None)
                        self.observers.tick = lambda bar=bar: progress.update(bar, advance=1)
                    t0 = time.perf_counter()
                    result, folder = self._session(root, i, t, last)
                    last = result["checkpoint"]
                    self.sessions.append(folder)
                    row = result["evals"][-1]
                    for j, v in row["class_il"].items():
                        class_il[i, self.data.tasks.index(int(j))] = v
                    for j, v in row["task_il"].items():
                        task_il[i, self.data.tasks.index(int(j))] = v
                    costs.append(self._cost(i, t, folder, time.perf_counter() - t0))
                    if progress is not None:
                        progress.update(bar, description=f"task {i + 1}/{n} class-IL {np.nanmean(class_il[i]):.1f}%")
        finally:
            if self.root is None:
                shutil.rmtree(root, ignore_errors=True)
        return CLResult(
            name=spec.name, method=spec.train.method, dataset=spec.data.kind, seed=spec.seed,
            task_classes=[json.loads((self.data.folder / "tasks.json").read_text())["tasks"][k]["classes"] for k in range(n)],
            class_il=class_il, task_il=task_il, costs=costs, wall_s=time.perf_counter() - start, spec=spec.to_dict(),
            extra={"runtime": self.backend.runtime, "training_flops": self.flops.as_dict()})

    def _cost(self, index: int, task: int, folder: Path, seconds: float) -> TaskCost:
        events, _ = read_events(str(folder / "events.jsonl"))
        losses = self.observers.losses.get(task, [])
        n_train = next(e["n_train"] for e in events if e["type"] == "task_start")
        ddr = [e for e in events if e["type"] == "ddr"]
        return TaskCost(task=index, train_samples=n_train, steps=len(losses),
                        samples=len(losses) * self.backend.signature.batch_size,
                        removed=sum(e["removed"] for e in ddr), forgotten=sum(e["window"][1] for e in ddr),
                        seconds=seconds, mean_loss=float(np.mean(losses)) if losses else 0.0)


def train_host(spec: ExperimentSpec, progress: bool = True, out: str | Path | None = None, **kw) -> CLResult:
    """Run the CL recipe of ``spec`` on the host; write the result files into ``out`` if given."""
    result = HostTrainer(spec, progress, **kw).run()
    if out is not None:
        result.write(out)
    return result
