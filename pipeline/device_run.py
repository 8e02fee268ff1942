"""Everything one experiment needs on one device, prepared once: shards, export, runner zip, deployed.

``prepare_device_run`` writes the task shards and the export into the host cache (both reused when
unchanged), builds the runner zip, and deploys all three (deploy pushes only what changed). The
returned ``DeviceRun`` then makes ``session.json`` specs for task and profiling sessions, and wraps
power sampling, so ``pipeline.experiment`` and ``pipeline.profiling_session`` share one way.
"""
from __future__ import annotations

import contextlib
import json
import shutil
import os
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator

from android_harness.android_device import AndroidDevice
from android_harness.bundle import build_device_zip
from android_harness.cache_dir import edgecl_home
from android_harness.deploy import deploy
from android_harness.device.backends.manifest import MANIFEST_FORMAT
from android_harness.device.fileio import sha256_file
from android_harness.device.session_spec import SessionSpec
from android_harness.runner_choice import NATIVE_REMOTE, RunnerChoice, choose_runner, default_runner
from models.user_model import model_label
from pipeline.config import ExperimentSpec, parse_spec
from pipeline.experiment_prep import DataInfo, export_request, session_spec, write_shards
from pipeline.miro.tuner import TaskInfo
from pipeline.spec_limits import check_device_ram
from pipeline.task_config import TaskConfig

DEPLOY_MANIFEST = "deploy.json"


def file_manifest(folder: Path, names: list[str]) -> Path:
    """A deploy manifest (the export manifest's format) listing ``names`` in ``folder``."""
    files = [{"path": n, "role": "data", "sha256": sha256_file(folder / n), "size": (folder / n).stat().st_size} for n in names]
    path = folder / DEPLOY_MANIFEST
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")  # several runs (a device pool) write the shared ones at once
    tmp.write_text(json.dumps({"format": MANIFEST_FORMAT, "files": files}, indent=1))
    tmp.replace(path)
    return path


@dataclass
class DeviceRun:
    spec: ExperimentSpec
    device: AndroidDevice
    run_id: str
    runtime: str
    data: DataInfo
    export_dir: Path
    model_rel: str
    data_rel: str
    replay_rel: str
    runner_sha256: str
    last_checkpoint: str = ""
    reconnect: Callable[[], None] | None = None
    served: bool = True  # sessions go to the device's persistent runner (one runtime import for all)
    runner: RunnerChoice | None = None  # the native binary or the Python zip (``runner_choice``)
    on_battery_held: bool = False  # inside ``on_battery()``: sessions do not unplug/reset on their own

    def session_spec(self, session_id: str, tasks: list[int], *, task: TaskConfig | None = None, resume_from: str = "",
                     kind: str = "task", subset_fraction: float = 1.0, epochs: int | None = None) -> SessionSpec:
        return session_spec(self.spec, session_id, tasks, model_dir=self.model_rel, data_dir=self.data_rel,
                            replay_dir=self.replay_rel, task=task, resume_from=resume_from, kind=kind,
                            subset_fraction=subset_fraction, epochs=epochs, meminfo_path=self.device.profile.meminfo_path)

    def task_info(self, task: int) -> TaskInfo:
        counts = json.loads((self.data.folder / "tasks.json").read_text())["tasks"]
        by_index = {int(e["index"]): int(e["train"]["count"]) for e in counts}
        tests = {int(e["index"]): int(e["test"]["count"]) for e in counts}
        order = self.data.tasks
        seen = sum(by_index[t] for t in order[: order.index(task)])
        per_sample = 4 * int(__import__("math").prod(self.data.input_shape))
        return TaskInfo(task_index=order.index(task), task_samples=by_index[task], seen_samples=seen, bytes_per_sample=per_sample,
                        test_samples=sum(tests[t] for t in order[: order.index(task) + 1]))

    @contextlib.contextmanager
    def on_battery(self) -> Iterator[None]:
        """Hold the unplug/reset guard around a whole run, so every session (task or profiling) is
        measured on battery: one unplug before, one reset after, instead of a charger blip per session
        that the fuel gauge would report late into the next session's samples."""
        if not (self.spec.power.enabled and self.spec.power.unplug) or self.on_battery_held:
            yield
            return
        from android_harness.power import battery_unplugged

        with battery_unplugged(self.device):
            self.on_battery_held = True
            try:
                yield
            finally:
                self.on_battery_held = False

    @contextlib.contextmanager
    def power_sampling(self, remote_csv: str) -> Iterator[object]:
        """The power sampler around a session (with its own unplug/reset guard unless ``on_battery`` holds one)."""
        if not self.spec.power.enabled:
            yield None
            return
        from android_harness.power import power_sampling

        unplug = self.spec.power.unplug and not self.on_battery_held
        with power_sampling(self.device, remote_csv, self.spec.power.rate_hz, unplug) as sampler:
            yield sampler


def export_for_runner(spec: ExperimentSpec, data, runtime: str, runner: RunnerChoice | None, abi: str,
                      cache: Path) -> Path:
    """Export (cached) ``spec``'s model, checking its operators against the runner the sessions use: every
    operator a native runner build for ``abi`` can register (no build needed), or the Python runner's bindings."""
    from pipeline.export import export_program

    req = export_request(spec, data, runtime)
    if runtime == "executorch" and runner is not None and runner.kind == "native":
        from android_harness.native.build import operators_file

        req.operators = operators_file(abi)
    folder = cache / "exports" / f"{model_label(spec.model.kind)}-{runtime}-{req.cache_key()}"
    export_program(req, folder)
    return folder


def native_runner_for(abi: str, export_dir: Path | None, progress: bool = False) -> Path:
    """The native runner binary for ``abi`` that registers every operator of ``export_dir``'s programs (any
    cached build that has them, else a selective build of those); the full build when ``export_dir`` is None."""
    from android_harness.native.build import build_runner
    from pipeline.export.pte_operators import pte_operators

    ops = None if export_dir is None else pte_operators(sorted(export_dir.glob("*.pte")))
    return build_runner(abi, show_progress=progress, ops=ops)


def deploy_runner(device: AndroidDevice, runner: RunnerChoice, cache: Path, progress: bool = False,
                  export_dir: Path | None = None) -> str:
    """Build (cached by source hash) and deploy the device runner ``runner`` names; returns its sha256.
    A native runner covers ``export_dir``'s programs (``native_runner_for``)."""
    folder = cache / "runner" / runner.kind
    folder.mkdir(parents=True, exist_ok=True)
    if runner.kind == "native":
        local = folder / runner.remote.rsplit("/", 1)[1]
        built = native_runner_for(device.profile.abi, export_dir, progress)
        if not local.is_file() or sha256_file(local) != sha256_file(built):
            shutil.copy2(built, local)
    else:
        local = build_device_zip(folder)
    file_manifest(folder, [local.name])
    deploy(device, folder / DEPLOY_MANIFEST, name="runner", remote_dir=device.storage_path("runner"), show_progress=progress)
    if runner.kind == "native":
        device.shell(["chmod", "755", device.storage_path(runner.remote)])
    return sha256_file(local)


def warm_host_cache(spec: ExperimentSpec, abi: str, cache: Path | None = None) -> None:
    """The host's half of ``prepare_device_run`` without a device: shards, export and (ExecuTorch) the native
    runner for ``abi``, into the host cache, so a phone can boot meanwhile and the run finds them there. The
    runner's operator-independent objects compile while the shards are written and the program exported."""
    from android_harness.native.build import build_core

    cache = Path(cache or edgecl_home() / "cache")
    runtime = spec.export.runtime
    native = RunnerChoice("native", NATIVE_REMOTE) if runtime == "executorch" else None
    with ThreadPoolExecutor(1) as pool:
        core = pool.submit(build_core, abi) if native is not None else None
        data = write_shards(spec, cache)
        export_dir = export_for_runner(spec, data, runtime, native, abi, cache)
        if core is not None:
            core.result()
            native_runner_for(abi, export_dir)


def prepare_device_run(spec: ExperimentSpec, device: AndroidDevice, run_id: str, runtime: str | None = None,
                       progress: bool = True,
                       cache: Path | None = None, reconnect: Callable[[], None] | None = None,
                       served: bool = True) -> DeviceRun:
    """Shards + export + device runner (the native binary or the Python zip, ``runner_choice``), built or
    reused on the host and deployed to ``device``."""
    cache = Path(cache or edgecl_home() / "cache")
    if runtime is not None and runtime != spec.export.runtime:   # validated again: a spec that validates exports
        spec = parse_spec({**spec.to_dict(), "export": {**spec.to_dict()["export"], "runtime": runtime}}, source="--runtime")
    runtime = spec.export.runtime
    runner = choose_runner(device.profile, runtime)   # refuses ORT on a phone without Python before any push
    data = write_shards(spec, cache)
    check_device_ram(spec, data.folder, data.input_shape, data.num_classes, device.profile.ram_total_bytes)
    # a model the runner cannot run is refused here, before anything is pushed
    export_dir = export_for_runner(spec, data, runtime, runner, device.profile.abi, cache)
    file_manifest(data.folder, sorted(p.name for p in data.folder.glob("*.shard")) + ["tasks.json"])
    data_rel = f"data/{data.folder.name}"
    deploy(device, data.folder / DEPLOY_MANIFEST, name=data.folder.name, remote_dir=device.storage_path(data_rel),
           show_progress=progress)
    runner_sha = deploy_runner(device, runner, cache, progress, export_dir)
    if runner.kind == "native" and device.profile.python_cmd:   # sessions started by hand default to the Python runner there
        deploy_runner(device, default_runner(device.profile), cache, progress)
    deploy(device, export_dir / "manifest.json", name=export_dir.name, show_progress=progress)
    return DeviceRun(spec, device, run_id, runtime, data, export_dir, f"models/{export_dir.name}", data_rel,
                     f"replay/{run_id}", runner_sha, reconnect=reconnect or device.adb.revive,
                     served=served, runner=runner)
