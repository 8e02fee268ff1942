"""Loading a results folder (docs/contracts.md, "Results folder") into what the report draws.

Everything is optional except the folder itself, which must be a run's results (a ``sessions/``
folder or ``spec.json``): a report of a run that died half-way shows what there is and says what
is missing, rather than failing; a folder of something else (an ``edgecl trace`` folder, a
project folder) is refused before anything is written into it.
"""
from __future__ import annotations

import csv
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from android_harness.device.events import read_events
from pipeline.energy import EnergyRow, IdleBaseline, PowerTrace, idle_baseline, measure_session
from pipeline.errors import ConfigError, EdgeclError, PowerError


@dataclass
class SessionData:
    session_id: str
    folder: Path
    events: list[dict[str, Any]]
    trace: PowerTrace | None
    trace_error: str | None
    rows: list[EnergyRow]
    spec: dict[str, Any] = field(default_factory=dict)
    result: dict[str, Any] = field(default_factory=dict)

    @property
    def role(self) -> str:
        """"profiling" for Miro's candidate runs, else "training"."""
        kind = str(self.spec.get("kind") or self.spec.get("purpose") or self.spec.get("role") or "")
        return "profiling" if "profil" in kind or any(e.get("type") == "phase_start" and e.get("phase") == "profiling"
                                                      for e in self.events) else "training"


@dataclass
class ResultsData:
    folder: Path
    simulated: bool
    env: dict[str, Any]
    summary: dict[str, Any]
    profile: dict[str, Any] | None
    sessions: list[SessionData]
    accuracy: np.ndarray | None           # rows: after task i, cols: task j (class-IL)
    accuracy_source: str
    idle: IdleBaseline | None
    idle_note: str
    miro: dict[str, Any] | None
    problems: list[str] = field(default_factory=list)
    spec: dict[str, Any] = field(default_factory=dict)        # spec.json: the resolved experiment spec
    manifest: dict[str, Any] = field(default_factory=dict)    # export/manifest.json
    compare: dict[str, Any] | None = None                     # compare.json: Miro against the static runs

    @property
    def idle_w(self) -> float | None:
        return self.idle.power_w if self.idle is not None else None

    @property
    def energy_rows(self) -> list[EnergyRow]:
        return [r for s in self.sessions for r in s.rows]

    @property
    def acc_scale(self) -> float:
        """100 when accuracies are percentages (the runner's), 1 when fractions."""
        vals = [float(e["class_il"]) for e in self.evals()]
        if self.accuracy is not None and not np.isnan(self.accuracy).all():
            vals.append(float(np.nanmax(self.accuracy)))
        return 100.0 if vals and max(vals) > 1.0 else 1.0

    def evals(self) -> list[dict[str, Any]]:
        return sorted((e for s in self.sessions if s.role == "training" for e in s.events if e.get("type") == "eval"),
                      key=lambda e: float(e["t"]))


def _json(path: Path, problems: list[str]) -> dict[str, Any]:
    if not path.exists():
        return {}
    try:
        data = json.loads(path.read_text())
        return data if isinstance(data, dict) else {"value": data}
    except (OSError, ValueError) as exc:
        problems.append(f"{path.name}: unreadable ({exc})")
        return {}


def find_profile(obj: Any) -> dict[str, Any] | None:
    """The DeviceProfile dict anywhere inside env.json (it is the dict with the counter conventions)."""
    if isinstance(obj, dict):
        if "current_unit" in obj and "current_positive_when" in obj:
            return obj
        for v in obj.values():
            if (found := find_profile(v)) is not None:
                return found
    elif isinstance(obj, list):
        for v in obj:
            if (found := find_profile(v)) is not None:
                return found
    return None


def _flag(obj: Any, key: str = "simulated") -> bool:
    if isinstance(obj, dict):
        return bool(obj.get(key)) or any(_flag(v, key) for v in obj.values())
    if isinstance(obj, list):
        return any(_flag(v, key) for v in obj)
    return False


def read_accuracy_csv(path: Path) -> np.ndarray:
    """``after_task,task0,task1,..`` rows (pipeline.cl.results format); blanks are NaN."""
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    if len(rows) < 2:
        raise EdgeclError(f"{path}: no accuracy rows")
    body = rows[1:]
    m = np.full((len(body), len(rows[0]) - 1), np.nan)
    for i, row in enumerate(body):
        for j, cell in enumerate(row[1:]):
            if cell.strip():
                m[i, j] = float(cell)
    return m


def _accuracy(folder: Path, sessions: list[SessionData]) -> tuple[np.ndarray | None, str]:
    for name in ("accuracy_matrix.csv", "accuracy_class_il.csv"):
        if (folder / name).exists():
            return read_accuracy_csv(folder / name), name
    for s in sessions:
        if s.role == "training" and s.result.get("accuracy_class_il"):
            m = np.array([[np.nan if v is None else v for v in row] for row in s.result["accuracy_class_il"]], float)
            return m, f"sessions/{s.session_id}/result.json"
    evals = [e for s in sessions if s.role == "training" for e in s.events if e.get("type") == "eval"]
    if evals:
        n = 1 + max(max(int(e["after_task"]), int(e["task"])) for e in evals)
        m = np.full((n, n), np.nan)
        for e in evals:
            m[int(e["after_task"]), int(e["task"])] = float(e["class_il"])
        return m, "eval events"
    return None, "none"


def load_session(folder: Path, profile: dict[str, Any] | None, simulated: bool, idle: IdleBaseline | None,
                 allow_charging: bool) -> SessionData:
    """A session folder with its energies from ``measure_session`` (the experiment's own figure)."""
    events = read_events(str(folder / "events.jsonl"))[0] if (folder / "events.jsonl").exists() else []
    spec = _json(folder / "session.json", [])
    result = _json(folder / "result.json", [])
    trace, err, rows = None, None, []
    try:
        m = measure_session(folder, profile, idle=idle, allow_charging=allow_charging, simulated=simulated)
        trace, rows, err = m.trace, m.rows, m.error
    except PowerError as exc:
        err = str(exc)
    return SessionData(folder.name, folder, events, trace, err, rows, spec, result)


def check_results_folder(folder: Path) -> None:
    """``ConfigError`` (exit 2) unless ``folder`` holds a run's results."""
    if not folder.is_dir():
        raise EdgeclError(f"results folder {folder} does not exist")
    if (folder / "sessions").is_dir() or (folder / "spec.json").is_file():
        return
    if (folder / "power.csv").is_file() and (folder / "summary.json").is_file():
        raise ConfigError(f"{folder} is an `edgecl trace` folder (power.csv, summary.json), not a run's results; "
                          "its trace.json opens in https://ui.perfetto.dev and nothing here is rewritten",
                          source="edgecl report")
    raise ConfigError(f"{folder} is not a results folder: it has no sessions/ and no spec.json (expected the "
                      "results/<name>-<time>/ folder that `edgecl run` prints)", source="edgecl report")


def run_allow_charging(spec: dict[str, Any]) -> bool:
    """The run's own ``power.allow_charging`` (spec.json): the setting its summary.json energy was measured with."""
    return bool((spec.get("power") or {}).get("allow_charging", False))


def load_results(results_dir: str | Path, allow_charging: bool | None = None) -> ResultsData:
    """``allow_charging`` None: the run's own setting, so the report shows the energy the run measured."""
    folder = Path(results_dir)
    check_results_folder(folder)
    problems: list[str] = []
    spec = _json(folder / "spec.json", problems)
    if allow_charging is None:
        allow_charging = run_allow_charging(spec)
    env = _json(folder / "env.json", problems)
    summary = _json(folder / "summary.json", problems)
    miro = _json(folder / "miro.json", problems) or None
    profile = find_profile(env)
    simulated = _flag(env) or bool(profile and profile.get("simulated")) or bool(miro and miro.get("simulated"))
    session_dirs = sorted(p for p in (folder / "sessions").glob("*") if p.is_dir()) if (folder / "sessions").is_dir() else []
    simulated = simulated or any(_flag(_json(d / "session.json", [])) for d in session_dirs)
    idle, idle_note = None, "no idle baseline measured (idle/power.csv absent)"
    if (folder / "idle" / "power.csv").exists():
        try:
            idle = idle_baseline(folder / "idle", profile, simulated=simulated)
            idle_note = f"{idle.seconds:.1f} s before the run, {idle.battery_source or 'odpm_rails'}"
        except PowerError as exc:
            idle_note = f"idle baseline unusable: {exc}"
    elif isinstance(summary.get("idle_w"), (int, float)):
        idle = IdleBaseline(float(summary["idle_w"]), 0.0, "summary.json", None, 0.0, 0.0)
        idle_note = "from summary.json"
    sessions = [load_session(d, profile, simulated, idle, allow_charging) for d in session_dirs]
    sessions.sort(key=lambda s: float(s.events[0]["t"]) if s.events else float("inf"))
    accuracy, acc_source = _accuracy(folder, sessions)
    if not sessions:
        problems.append("no sessions/ folder: nothing was run or pulled")
    for s in sessions:
        if s.trace_error:
            problems.append(f"session {s.session_id}: {s.trace_error}")
    return ResultsData(folder, simulated, env, summary, profile, sessions, accuracy, acc_source,
                       idle, idle_note, miro, problems, spec,
                       _json(folder / "export" / "manifest.json", problems),
                       _json(folder / "compare.json", problems) or None)
