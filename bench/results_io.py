"""Writes benchmark results: ``bench/results/<script>.json`` and the script's section of ``bench/RESULTS.md``.

One copy of the write logic the bench scripts share, so every result file is written the same way:
atomically (temp file then ``os.replace``), and each script's RESULTS.md section is kept between
``<!-- bench/<script>.py start -->`` / ``<!-- bench/<script>.py end -->`` markers, replaced in place
or appended when absent. ``BENCH_DIR`` is read at call time so tests can point it at a temp folder.
"""
from __future__ import annotations

import json
import os
import platform
import shlex
import sys
from pathlib import Path

BENCH_DIR = Path(__file__).resolve().parent
HEADER = "# Benchmark results\n"


def _atomic_write(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` via a sibling temp file, so readers never see half a file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text)
    os.replace(tmp, path)


def command_line(script: str) -> str:
    """The results' ``command``: ``python bench/<script>.py`` and this run's arguments, shell-quoted."""
    return f"python bench/{script}.py " + " ".join(shlex.quote(a) for a in sys.argv[1:])


def shared_host() -> str:
    """The machine, its cores and the 1-min load at the time of the call (the end of a run), for a
    result's environment line: the cores are shared, so absolute times are noisy."""
    return (f"{platform.machine()}, {os.cpu_count()} cores shared with other jobs (1-min load "
            f"{os.getloadavg()[0]:.1f} at the end)")


def load_row(goal: str = "") -> dict:
    """The host's 1-min load average at the end of a run, as a results row (the cores are shared)."""
    return {"name": "host_load_average_1min", "metric": "load", "value": round(os.getloadavg()[0], 2), "unit": "",
            "goal": goal}


def markers(script: str) -> tuple[str, str]:
    """Start and end markers of ``script``'s section in RESULTS.md (``script`` without ``.py``)."""
    return f"<!-- bench/{script}.py start -->", f"<!-- bench/{script}.py end -->"


def write_results_json(script: str, command: str, rows: list[dict], *, indent: int = 1,
                       trailing_newline: bool = False, **extra) -> Path:
    """Write ``bench/results/<script>.json`` as ``{"command", **extra, "rows"}`` and return its path.

    ``indent`` and ``trailing_newline`` keep each script's existing file layout byte for byte.
    """
    path = BENCH_DIR / "results" / f"{script}.json"
    text = json.dumps({"command": command, **extra, "rows": rows}, indent=indent)
    _atomic_write(path, text + ("\n" if trailing_newline else ""))
    return path


def write_section(script: str, markdown: str) -> None:
    """Replace ``script``'s marked section of ``bench/RESULTS.md`` with ``markdown``, or append it."""
    path = BENCH_DIR / "RESULTS.md"
    start, end = markers(script)
    block = f"{start}\n{markdown}\n{end}"
    text = path.read_text() if path.exists() else HEADER
    i = text.find(start)
    j = text.find(end, i) if i >= 0 else -1
    if j >= 0:
        text = text[:i] + block + text[j + len(end):]
    else:
        text = text.rstrip() + "\n\n" + block + "\n"
    _atomic_write(path, text)
