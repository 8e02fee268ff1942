"""A run's journal: which tasks of a results folder are complete, so a run that stopped (its phone
went offline, the host process was killed, Ctrl-C) goes on from its last completed task instead of
starting over -- on the same phone, reattaching to a session that is still there, or on another
phone, which first gets the last checkpoint (and, for a movable run, the replay store) from the
host's copy. ``run_experiment`` records through it; the device pool (``pipeline.sweep``) opens one
on an earlier folder to resume a run.

Files it adds to the normal results folder:
  sessions/<id>/task.json   one completed task: the TaskRun fields and the device it ran on
  replay/                   the run's replay store as of the last completed task (movable runs whose
                            spec reads the store: a replay method with an EM, swap_ratio > 0 or Miro)
"""
from __future__ import annotations

import json
import shutil
import time
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from android_harness.adb_server import ServerAddress, list_devices
from android_harness.device.fileio import write_text_atomic
from android_harness.device.methods import method
from android_harness.device.paths import under_root
from android_harness.session import SessionDriver, SessionHandle
from pipeline.config import ReplaySpec
from pipeline.errors import ConfigError, DeviceError

if TYPE_CHECKING:
    from pipeline.config import ExperimentSpec
    from pipeline.device_run import DeviceRun
    from pipeline.experiment import TaskRun

TASK_RECORD = "task.json"
REPLAY_COPY = "replay"

TaskListener = Callable[[int, int, str], None]     # (task position, number of tasks, session id)


def device_key(run: "DeviceRun") -> str:
    """Which phone, on which adb server: a serial alone is not unique across servers."""
    return f"{run.device.serial}@{run.device.adb.server}"


def same_phone(recorded: dict, run: "DeviceRun") -> bool:
    """Whether a task record's phone is ``run``'s: its serial names it, whatever adb server reached it (a
    restarted server may listen on another port); the server tells two phones apart only when the
    recorded server is up and also knows that serial (two servers, one serial each)."""
    if recorded["serial"] != run.device.serial:
        return False
    key = device_key(run)
    if recorded["key"] == key:
        return True
    try:
        old = ServerAddress.parse(recorded["key"].rsplit("@", 1)[1])
        listed = {e.serial for e in list_devices(old)}
    except DeviceError:
        return True                  # that server is gone: nothing else can own the serial
    return run.device.serial not in listed


def gauge_of(run: "DeviceRun") -> str:
    """What a phone's energy figures depend on besides its model: its fuel gauge (power_supply name, units, sign)."""
    p = run.device.profile
    supply = p.power_supply_dir.rstrip("/").rsplit("/", 1)[-1] if p.power_supply_dir else "-"
    return f"{supply}|{p.current_unit}|{p.current_positive_when}"


def store_is_read(spec: "ExperimentSpec") -> bool:
    """Whether later tasks read the replay store's flash tier: a replay method builds its EM from it at
    every task start (android_harness/device/replay/em_build.py), swapping and Miro's swap candidates
    read it too. A run moved to another phone without it would start a task with an empty EM."""
    replays = method(spec.train.method).replays and spec.replay.em_size > 0
    return replays or spec.replay.swap_ratio > 0 or spec.miro.enabled


class RunJournal:
    """The completed tasks of one results folder. ``movable``: the run may continue on another phone,
    so the replay store is copied to the host after each task when later tasks read it."""

    def __init__(self, folder: str | Path, movable: bool = False, on_task: TaskListener | None = None) -> None:
        self.folder = Path(folder)
        self.movable = movable
        self.on_task = on_task

    @classmethod
    def create(cls, out_dir: str | Path, name: str, **kw) -> "RunJournal":
        """A fresh folder ``out_dir/<name>-<yyyymmdd-hhmmss>`` (the normal ``edgecl run`` folder), made by this
        call alone: a name that exists (made in advance, or by a run started in the same second) gets a
        ``-2``, ``-3``, ... suffix, so a run never writes into a folder it did not create (``--resume`` names one)."""
        Path(out_dir).mkdir(parents=True, exist_ok=True)
        stem = f"{name}-{time.strftime('%Y%m%d-%H%M%S')}"
        for n in range(1, 1000):
            folder = Path(under_root(out_dir, stem if n == 1 else f"{stem}-{n}"))
            try:
                folder.mkdir()           # exclusive: fails when the folder exists, whoever made it
            except FileExistsError:
                continue
            return cls(folder, **kw)
        raise ConfigError(f"{out_dir}: {stem} and 998 numbered folders after it exist; move old results away")

    @property
    def run_id(self) -> str:
        return self.folder.name

    def session_id(self, task: int) -> str:
        return f"{self.run_id}-task{task}"

    def _record_path(self, task: int) -> Path:
        return self.folder / "sessions" / self.session_id(task) / TASK_RECORD

    def records(self) -> dict[int, dict]:
        """Every completed task's record, by task index."""
        out = {}
        for path in sorted((self.folder / "sessions").glob(f"*/{TASK_RECORD}")):
            rec = json.loads(path.read_text())
            out[int(rec["task"])] = rec
        return out

    def completed(self, task: int) -> "TaskRun | None":
        """The task's TaskRun when an earlier attempt completed it (its session folder is on the host)."""
        from pipeline.experiment import TaskRun
        from pipeline.task_config import TaskConfig

        path = self._record_path(task)
        if not path.is_file():
            return None
        rec = json.loads(path.read_text())
        config = TaskConfig(ReplaySpec(**rec["config"]["replay"]), rec["config"]["sparsity"], rec["config"]["ddr_fraction"])
        return TaskRun(rec["task"], rec["session_id"], config, rec["result"], rec["seconds"], rec["energy_j"],
                       list(rec["notes"]), dict(rec.get("energy") or {}))

    def before_task(self, run: "DeviceRun", task: int) -> None:
        """Tell the listener; drop what an unfinished pull of this task left; when the last completed task
        ran on another phone, bring its checkpoint (and the replay store) onto this one, so the session
        resumes exactly where that task ended."""
        tasks = run.data.tasks
        if self.on_task is not None:
            self.on_task(tasks.index(task), len(tasks), self.session_id(task))
        shutil.rmtree(self.folder / "sessions" / self.session_id(task), ignore_errors=True)   # an unfinished pull
        done = [r for t, r in self.records().items() if t in tasks and tasks.index(t) < tasks.index(task)]
        if not done:
            return
        last = max(done, key=lambda r: tasks.index(r["task"]))
        if same_phone(last["device"], run):
            return
        self._push_checkpoint(run, last["result"]["checkpoint"])
        self._restore_store(run, last)

    def task_done(self, run: "DeviceRun", task_run: "TaskRun") -> None:
        """Record a completed task (its session folder is already pulled); copy the store when needed."""
        if self.movable and store_is_read(run.spec):
            self._copy_store(run)
        p = run.device.profile
        rec = {**asdict(task_run),
               "device": {"key": device_key(run), "serial": run.device.serial, "model": p.model,
                          "gauge": gauge_of(run), "simulated": p.simulated}}
        write_text_atomic(self._record_path(task_run.task), json.dumps(rec, indent=1, default=str))

    # -- moving a run between phones -----------------------------------------------------------
    def _push_checkpoint(self, run: "DeviceRun", rel: str) -> None:
        local = Path(under_root(self.folder, rel))
        files = sorted(p for p in local.rglob("*") if p.is_file())
        if not files:
            raise DeviceError(run.device.serial, f"cannot resume {self.run_id}: checkpoint {local} is not on the host")
        remote = run.device.storage_path(rel)
        run.device.shell(["rm", "-rf", remote])
        run.device.adb.push_files([(f, f"{remote}/{f.relative_to(local).as_posix()}") for f in files])

    def _restore_store(self, run: "DeviceRun", last: dict) -> None:
        remote = run.device.storage_path(run.replay_rel)
        local = self.folder / REPLAY_COPY
        if local.is_dir():
            run.device.shell(["rm", "-rf", remote])
            files = sorted(p for p in local.rglob("*") if p.is_file())
            run.device.adb.push_files([(f, f"{remote}/{f.relative_to(local).as_posix()}") for f in files])
        elif store_is_read(run.spec):
            raise DeviceError(run.device.serial, f"cannot resume {self.run_id} here: its replay store stayed on "
                                                 f"{last['device']['serial']} (resume it there, or run it as a movable pool run)")
        else:
            run.device.shell(["rm", "-rf", remote])   # never read by this spec: the new phone starts its own store

    def _copy_store(self, run: "DeviceRun") -> None:
        remote = run.device.storage_path(run.replay_rel)
        tmp = self.folder / f".{REPLAY_COPY}.tmp"
        shutil.rmtree(tmp, ignore_errors=True)
        SessionDriver(run.device).collect(SessionHandle(self.run_id, remote), tmp)
        final = self.folder / REPLAY_COPY
        shutil.rmtree(final, ignore_errors=True)
        tmp.rename(final)
