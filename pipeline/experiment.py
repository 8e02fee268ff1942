"""``run_experiment``: export (cached) -> deploy -> one device session per task -> a results folder.

Each task is its own session; it resumes from the previous session's final checkpoint, so the
model, masks, optimizer state, TDM's last gradient and the replay store's position carry over
exactly (docs/semantics.md 10). Before each task a ``TaskTuner`` (Miro) may choose that task's
whole ``TaskConfig`` (EM, SB, swap, sparsity, DDR fraction), which the session runs; it measures
candidates through the ``Profiler`` calls of ``pipeline.profiling_session.DeviceProfiler``
(profiling sessions on the same device, from the same checkpoints). Power is sampled around every
session when ``spec.power.enabled`` (``power.csv`` and, on phones with ODPM rails, ``rails.txt`` in
the session folder); each session's energy is ``pipeline.energy.measure_session`` on the device's
clock: the best counter, its resolution, whether the window is precise, and the energy per phase
(program load, training, evaluation, relaunches, pauses), which sum to the session's.

Results folder (docs/contracts.md): spec.json, env.json, export/manifest.json, sessions/<id>/,
summary.json, accuracy_matrix.csv (class-IL, rows = after task), energy.csv, miro.json (the tuner's).
"""
from __future__ import annotations

import contextlib
import csv
import json
import platform
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Protocol

import numpy as np
from rich import box
from rich.console import Console
from rich.table import Table

from android_harness.android_device import AndroidDevice
from android_harness.device.events import read_events
from android_harness.device.fileio import write_text_atomic
from android_harness.session import SessionDriver
from android_harness.device.metrics import summarize
from pipeline.config import ExperimentSpec
from pipeline.device_run import DeviceRun, prepare_device_run
from pipeline.energy import IdleBaseline, idle_baseline, measure_session
from pipeline.errors import PowerError, SessionError
from pipeline.miro.tuner import TaskInfo
from pipeline.run_journal import RunJournal
from pipeline.session_budget import check_session_space, session_write_bytes
from pipeline.task_config import TaskConfig

MAX_RELAUNCHES = 2


class TaskTuner(Protocol):
    """Chooses each task's whole configuration (``pipeline.miro.tuner.MiroTuner`` implements it)."""

    def choose(self, task: TaskInfo) -> TaskConfig: ...


TunerFactory = Callable[["DeviceRun"], TaskTuner]


@dataclass
class TaskRun:
    task: int
    session_id: str
    config: TaskConfig
    result: dict
    seconds: float
    energy_j: float | None = None
    notes: list[str] = field(default_factory=list)
    energy: dict = field(default_factory=dict)     # the session's energy record (session_energy)


def _git_revision() -> str:
    try:
        return subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True, timeout=10,
                              cwd=Path(__file__).resolve().parents[1]).stdout.strip() or "unknown"
    except OSError:
        return "unknown"


def _write_json(path: Path, data: Any) -> None:
    write_text_atomic(path, json.dumps(data, indent=1, default=str))


def write_env(run: DeviceRun, folder: Path) -> None:
    from importlib import metadata

    versions = {}
    for dist in ("edgecl", "torch", "executorch", "onnxruntime-training", "numpy", "adbutils"):
        try:
            versions[dist] = metadata.version(dist)
        except metadata.PackageNotFoundError:
            versions[dist] = None
    profile = run.device.profile
    _write_json(folder / "env.json", {"git_revision": _git_revision(), "python": platform.python_version(),
                                      "versions": versions, "device_profile": profile.to_json(),
                                      "simulated": profile.simulated, "runtime": run.runtime,
                                      "runner_sha256": run.runner_sha256, "runner": run.runner.kind if run.runner else None})


def session_energy(folder: Path, profile: Any = None, *, idle: IdleBaseline | None = None,
                   allow_charging: bool = False) -> dict[str, Any]:
    """The energy record of a pulled session folder: ``measure_session``'s summary (energy_j, error_j,
    precise, source, resolution_s, duration_s, phases_j: joules per phase, summing to energy_j; note),
    or energy_j None and the reason in ``note`` when the trace cannot be trusted."""
    try:
        m = measure_session(folder, profile, idle=idle, allow_charging=allow_charging,
                            simulated=getattr(profile, "simulated", None))
    except PowerError as exc:
        return {"energy_j": None, "error_j": None, "precise": False, "source": None, "resolution_s": None,
                "note": str(exc)}
    record = m.summary()
    if m.error and not record.get("note"):
        record["note"] = m.error
    return record


def run_idle_baseline(folder: Path, run: DeviceRun) -> IdleBaseline | None:
    """The idle baseline measured before the run (``folder/idle``), None where there is none or it is unusable."""
    if not (folder / "idle" / "power.csv").exists():
        return None
    try:
        return idle_baseline(folder / "idle", run.device.profile, simulated=run.device.profile.simulated)
    except PowerError:
        return None


def memory_warning(events: list[dict]) -> str | None:
    """The runner's growth in memory during a session (its peak RSS over the ``resources`` events, less its
    RSS at the start) against what the phone had available then: past it, a phone's low-memory killer may
    stop the runner. None when it fit, or no probe came after the start."""
    start = next((e.get("device") or {} for e in events if e["type"] == "session_start"), {})
    peak = max((e.get("peak_rss_bytes", -1) for e in events if e["type"] == "resources"), default=-1)
    available, at_start = start.get("mem_available_bytes", -1), start.get("rss_bytes", -1)
    if min(peak, available, at_start) < 0 or peak - at_start <= available:
        return None
    return (f"the runner's memory peaked at {peak / 2**20:.0f} MiB, more than the {available / 2**20:.0f} MiB the phone "
            f"had available when the session started: a phone's low-memory killer may stop it (lower replay.em_size "
            f"and replay.sb_size, or miro.ram_share)")


def run_session(run: DeviceRun, session_spec, local: Path, progress: bool = True,
                idle: IdleBaseline | None = None) -> tuple[dict, dict[str, Any]]:
    """Start one session (power sampled around it), stream it to the end (relaunching a runner that
    died), pull its folder; returns result.json and the session's energy record (session_energy)."""
    driver = SessionDriver(run.device, run.reconnect, served=run.served, runner=run.runner)
    remote = driver.remote_dir(session_spec.session_id)
    sampling = run.power_sampling(f"{remote}/power.csv")
    need = session_write_bytes(run.export_dir, session_spec.keep_checkpoints, session_spec.replay.sb_size,
                               len(session_spec.tasks), run.data.input_shape, run.data.num_classes)
    sid = session_spec.session_id
    driver.through_drops(lambda: driver.clear_unfollowed(sid), sid)   # (its space counts as free)
    driver.through_drops(lambda: check_session_space(run.device, run.device.storage_path(), need, sid), sid)
    with sampling:
        # a resumed run, or a start the link cut short, follows the session already there
        handle = driver.through_drops(lambda: driver.start_or_attach(session_spec), sid)
        epochs = session_spec.train.epochs * len(session_spec.tasks)
        progressed = True
        for attempt in range(1 + MAX_RELAUNCHES):
            seen = len(handle.events)
            try:
                result = driver.stream(handle, progress=progress, total_epochs=epochs)
                break
            except SessionError as exc:
                # only a runner that exited (OOM kill, crash) is resumed from its checkpoint, and only while
                # relaunches make progress: a failure that repeats at the same point is deterministic
                if exc.cause != "exited" or attempt == MAX_RELAUNCHES or not progressed:
                    raise
                check_session_space(run.device, run.device.storage_path(), need, session_spec.session_id)
                driver.relaunch(handle)
            finally:
                progressed = any(e["type"] in ("step", "epoch", "checkpoint") for e in handle.events[seen + 1:])
    driver.through_drops(lambda: driver.collect(handle, local), sid)
    return result, session_energy(local, run.device.profile, idle=idle, allow_charging=run.spec.power.allow_charging)


def run_experiment(spec: ExperimentSpec, device: AndroidDevice, out_dir: str | Path,
                   tuner: TunerFactory | None = None, runtime: str | None = None,
                   progress: bool = True, served: bool = True, journal: RunJournal | None = None) -> Path:
    """Run ``spec`` on ``device``; return the results folder (``out_dir/<name>-<yyyymmdd-hhmmss>``).
    ``served``: sessions go to the device's persistent runner (False: a fresh runner process per session).
    ``journal``: records each completed task; one opened on an earlier folder resumes that run from its
    last completed task (``pipeline.run_journal``)."""
    journal = journal or RunJournal.create(out_dir, spec.name)
    folder = journal.folder
    # export and deploy first: a refusal (an operator the runner lacks, a phone too small) leaves no folder
    try:
        run = prepare_device_run(spec, device, run_id=journal.run_id, runtime=runtime, progress=progress, served=served)
    except BaseException:
        with contextlib.suppress(OSError):
            folder.rmdir()      # the folder this run reserved, still empty (a resumed one is not: it stays)
        raise
    (folder / "sessions").mkdir(parents=True, exist_ok=True)
    _write_json(folder / "spec.json", spec.to_dict())
    (folder / "export").mkdir(exist_ok=True)
    (folder / "export" / "manifest.json").write_text((run.export_dir / "manifest.json").read_text())
    console = Console(quiet=not progress)
    write_env(run, folder)
    chooser = tuner(run) if tuner is not None else None
    runs: list[TaskRun] = []
    with run.on_battery():
        if spec.power.enabled and spec.power.idle_seconds > 0:   # idle baseline, reported beside the run's energy
            from pipeline.energy.standalone import measure_idle_baseline
            if not (folder / "idle" / "power.csv").exists():      # a resumed run keeps its first baseline
                measure_idle_baseline(device, folder / "idle", spec.power.idle_seconds, spec.power.rate_hz, unplug=False)
        idle = run_idle_baseline(folder, run)
        for t in run.data.tasks:
            done = journal.completed(t)
            if done is not None:
                runs.append(done)
                run.last_checkpoint = done.result["checkpoint"]
                continue
            journal.before_task(run, t)
            config = chooser.choose(run.task_info(t)) if chooser is not None else TaskConfig.from_spec(run.spec)
            sid = f"{run.run_id}-task{t}"
            ss = run.session_spec(sid, [t], task=config, resume_from=run.last_checkpoint)
            t0 = time.perf_counter()
            result, energy = run_session(run, ss, folder / "sessions" / sid, progress, idle)
            if result["status"] != "ok":
                raise SessionError("died", f"task {t + 1}: runner ended with status {result['status']}: {result.get('error')}", sid)
            run.last_checkpoint = result["checkpoint"]
            notes = [energy["note"]] if energy.get("energy_j") is None and energy.get("note") else []
            memory = memory_warning(read_events(str(folder / "sessions" / sid / "events.jsonl"))[0])
            if memory is not None:
                console.print(f"[yellow]warning:[/] task {t + 1}: {memory}", highlight=False)
                notes.append(memory)
            runs.append(TaskRun(t, sid, config, result, time.perf_counter() - t0, energy.get("energy_j"), notes, energy))
            journal.task_done(run, runs[-1])
    summary = write_summary(folder, run, runs)
    console.print(summary_table(summary))
    console.print(f"results: {folder}")
    return folder


def accuracy_matrices(runs: list[TaskRun], n: int) -> tuple[np.ndarray, np.ndarray]:
    class_il, task_il = np.full((n, n), np.nan), np.full((n, n), np.nan)
    for r in runs:
        for row in r.result["evals"]:
            i = int(row["after_task"])
            for j, v in row["class_il"].items():
                class_il[i, int(j)] = v
            for j, v in row["task_il"].items():
                task_il[i, int(j)] = v
    return class_il, task_il


def _phase_j(r: TaskRun, phase: str) -> float | None:
    """Joules of ``phase`` in the task's session (0 when it had none), None without an energy figure."""
    if r.energy_j is None:
        return None
    return float(r.energy.get("phases_j", {}).get(phase, 0.0))


def _total(values) -> float | None:
    values = list(values)
    return float(sum(values)) if values and all(v is not None for v in values) else None


def write_summary(folder: Path, run: DeviceRun, runs: list[TaskRun]) -> dict:
    n = len(run.data.tasks)
    class_il, task_il = accuracy_matrices(runs, n)
    with open(folder / "accuracy_matrix.csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["after_task", *[f"task{j}" for j in range(n)]])
        for i in range(n):
            w.writerow([i, *["" if np.isnan(v) else f"{v:.4f}" for v in class_il[i]]])
    summary = {
        "name": run.spec.name, "runtime": run.runtime, "simulated": run.device.profile.simulated,
        "sparcl": run.spec.sparcl.enabled,
        "metrics": summarize(class_il, task_il),
        "tasks": [{"task": r.task, "session_id": r.session_id, "seconds": round(r.seconds, 3),
                   "iterations": r.result["iterations"], "energy_j": r.energy_j, "notes": r.notes,
                   "loading_j": _phase_j(r, "loading"), "training_j": _phase_j(r, "training"), "energy": r.energy,
                   "config": r.config.to_dict(),
                   "class_il": float(np.nanmean(class_il[r.task, : r.task + 1]))} for r in runs],
        "energy_j": _total(r.energy_j for r in runs),
        "loading_j": _total(_phase_j(r, "loading") for r in runs),     # program loads, apart from training
        "training_j": _total(_phase_j(r, "training") for r in runs),
    }
    _write_json(folder / "summary.json", summary)
    return summary


def summary_table(summary: dict) -> Table:
    sim = " (simulated)" if summary["simulated"] else ""
    m = summary["metrics"]
    table = Table(title=f"{summary['name']} on {summary['runtime']}{sim}: class-IL {m.get('class_il', float('nan')):.2f}%, "
                        f"task-IL {m.get('task_il', float('nan')):.2f}%", title_justify="left")
    table.box, table.pad_edge, table.collapse_padding = box.SIMPLE_HEAD, False, True   # 11 columns in 80 characters
    for col in ("task", "EM", "SB", "swap", "sparse", "DDR", "cIL %", "s", "load J", "train J", "energy J"):
        table.add_column(col, justify="right")
    sparcl = summary.get("sparcl", True)  # a dense run trains no mask and removes no rows, whatever its config says
    for t in summary["tasks"]:
        c, e = t["config"], t.get("energy", {})
        table.add_row(str(t["task"] + 1), str(c["em_size"]), str(c["sb_size"]), f"{c['swap_ratio']:g}",
                      f"{c['sparsity']:g}" if sparcl else "dense", f"{c['ddr_fraction']:g}" if sparcl else "-",
                      f"{t['class_il']:.2f}", _seconds(t), _joules(t.get("loading_j")),
                      _joules(t.get("training_j")), _joules(t["energy_j"], e.get("precise", True)))
    sources = sorted({t["energy"]["source"] for t in summary["tasks"] if (t.get("energy") or {}).get("source")})
    table.caption = (f"energy{sim} from {', '.join(sources) or 'no counter'}; load J = program load (launch to the "
                     "first phase), apart from training; s = the session's span, (N paused) = of it with its runner "
                     "stopped; ~ = imprecise (under 3 counter periods); cIL = class-IL; 95 % bounds in summary.json")
    return table


def _seconds(task: dict) -> str:
    """The session's own span when its events gave one (a resumed run followed it only in part), with the
    time its runner was paused (SIGSTOP) said apart; else the host's time for the task."""
    e = task.get("energy") or {}
    paused = e.get("paused_s") or 0.0
    text = f"{e.get('duration_s') or task['seconds']:.1f}"
    return f"{text} ({paused:.0f} paused)" if paused >= 0.5 else text


def _joules(value: float | None, precise: bool = True) -> str:
    return "-" if value is None else ("" if precise else "~") + f"{value:.2f}"
