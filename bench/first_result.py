"""A newcomer's first result: the README's first command on a fresh checkout, timed phase by phase.

    python bench/first_result.py [--keep]

Clones this repository's HEAD into a temporary folder and runs the README quick start's first command
there, as a newcomer would, read from the README itself: each ``&&`` step is a phase (the system
packages' script, a new venv, the install, ``edgecl demo``), with an empty ``EDGECL_HOME`` (so the native
runner is built from its sources). The system packages are taken as present (the script's first phase
checks them) and pip's download cache is the machine's. Each phase is timed, and the demo's output lines
are time-stamped, so the report shows where the time goes. The goal is the whole command within 3 minutes
on this 2-core machine.
"""
from __future__ import annotations

import argparse
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "bench"))
from results_io import command_line, load_row, shared_host, write_results_json, write_section  # noqa: E402

GOAL_S = 180.0
SCRIPT = "first_result"


def _phase(name: str, argv: list[str], cwd: Path, env: dict[str, str], log: list[str]) -> float:
    """Run one phase, its output time-stamped into ``log``; its wall time in seconds (fails loudly)."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(argv, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            stdin=subprocess.DEVNULL)
    assert proc.stdout is not None
    for line in proc.stdout:
        log.append(f"{time.perf_counter() - t0:7.1f}s {name}: {line.rstrip()}")
    rc = proc.wait()
    seconds = time.perf_counter() - t0
    if rc != 0:
        sys.exit(f"{name} failed (exit {rc}):\n" + "\n".join(log[-30:]))
    return seconds


def readme_steps(readme: Path) -> list[list[str]]:
    """The quick start's first command, as its ``&&`` steps (each an argv)."""
    m = re.search(r"## Quick start\n.*?```bash\n(.+?)\n```", readme.read_text(), re.S)
    if m is None:
        sys.exit(f"{readme}: no bash block under '## Quick start'")
    return [shlex.split(step) for step in m.group(1).split("&&")]


def phase_name(argv: list[str]) -> str:
    """A step's name in the results: the script, module or program it runs, with its subcommand."""
    words = [w for w in argv if not w.startswith("-") and w != "bash"]
    return "_".join(Path(w).stem for w in words[:2]).replace(".", "_").replace("-", "_")


def measure(work: Path) -> tuple[dict[str, float], list[str]]:
    clone = work / "edgecl"
    subprocess.run(["git", "clone", "-q", str(REPO), str(clone)], check=True)
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH", "ANDROID_SERIAL")}
    env["EDGECL_HOME"] = str(work / "home")
    env["TERM"] = "dumb"
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    log: list[str] = []
    phases = {}
    for argv in readme_steps(clone / "README.md"):
        name = phase_name(argv)
        phases[name] = _phase(name, argv, clone, env, log)
    return phases, log


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--keep", action="store_true", help="keep the temporary clone (its path is printed)")
    args = ap.parse_args()
    work = Path(tempfile.mkdtemp(prefix="edgecl-first-"))
    try:
        phases, log = measure(work)
    finally:
        if args.keep:
            print(f"kept {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)
    total = sum(phases.values())
    rows = [{"name": "readme_command_1", "metric": "wall_time", "value": round(total, 1), "unit": "s",
             "goal": f"<= {GOAL_S:.0f}"}]
    rows += [{"name": f"phase_{k}", "metric": "wall_time", "value": round(v, 1), "unit": "s", "goal": ""}
             for k, v in phases.items()]
    rows.append(load_row())
    command = command_line(SCRIPT)
    write_results_json(SCRIPT, command, rows)
    met = "met" if total <= GOAL_S else "NOT met"
    table = "\n".join(f"| {r['name']} | {r['value']} {r['unit']} | {r['goal']} |" for r in rows)
    last = list(phases)[-1]
    demo_lines = [line for line in log if f" {last}: " in line][-12:]
    write_section(SCRIPT, "\n".join([
        "## First result: README command 1 on a fresh checkout", "",
        f"`{command}` on {shared_host()}. A new clone, a new venv, an empty `EDGECL_HOME` (the native runner "
        "is built from source), system packages present, pip's download cache as the machine has it.", "",
        f"Whole command: **{total:.0f} s** against a goal of {GOAL_S:.0f} s: {met}.", "",
        "| row | value | goal |", "|---|---|---|", table, "",
        "The demo's last lines, time-stamped from its start:", "", "```", *demo_lines, "```"]))
    print(f"README command 1: {total:.0f} s ({met}); " + ", ".join(f"{k} {v:.0f} s" for k, v in phases.items()))


if __name__ == "__main__":
    main()
