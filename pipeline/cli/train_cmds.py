"""``edgecl train-host SPEC.toml``: the reference continual-learning run on this machine (PyTorch eager)."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import typer
from rich.console import Console
from rich.table import Table

from pipeline.config import load_spec, parse_overrides


def _matrix_table(title: str, m: np.ndarray) -> Table:
    table = Table(title=title)
    table.add_column("after task")
    for j in range(len(m)):
        table.add_column(f"T{j + 1}", justify="right")
    for i, row in enumerate(m):
        table.add_row(str(i + 1), *["" if np.isnan(v) else f"{v:.1f}" for v in row])
    return table


def train_host_cmd(
    spec_path: Path = typer.Argument(..., metavar="SPEC.toml", help="experiment spec"),
    out: Path = typer.Option(None, "--out", help="result folder (default results/host/<name>-<spec digest>)"),
    set_: list[str] = typer.Option([], "--set", help="override a spec key, e.g. --set train.epochs=2 (repeatable)"),
    quiet: bool = typer.Option(False, "--quiet", help="no progress bars"),
) -> None:
    """Train the spec's CL recipe on the host (the engine on torch eager, one session per task), then print and save the metrics."""
    from pipeline.cl.trainer import train_host

    spec = load_spec(spec_path, parse_overrides(set_))
    out = out or Path("results") / "host" / f"{spec.name}-{spec.digest()}"
    console = Console()
    console.print(f"[bold]{spec.name}[/]: {spec.train.method} on {spec.data.kind} "
                  f"({spec.data.tasks} tasks x {spec.data.classes_per_task} classes), model {spec.model.kind}")
    if spec.sparcl.enabled:
        sp = spec.sparcl
        console.print(f"SparCL: sparsity {sp.sparsity:g} ({'structured' if sp.structured else 'unstructured'}), "
                      f"TDM {'on' if sp.tdm else 'off'}, DDR {'on' if sp.ddr else 'off'}, DGM {'on' if sp.dgm else 'off'}")
    result = train_host(spec, progress=not quiet, out=out)
    flops = result.extra["training_flops"]
    console.print(_matrix_table("class-IL accuracy (%)", result.class_il))
    console.print(_matrix_table("task-IL accuracy (%)", result.task_il))
    summary = Table(title="summary")
    summary.add_column("metric")
    summary.add_column("value", justify="right")
    for k, v in result.summary.items():
        summary.add_row(k, f"{v:.2f}")
    summary.add_row("rows trained", str(sum(c.samples for c in result.costs)))
    summary.add_row("DDR removed", str(sum(c.removed for c in result.costs)))
    summary.add_row("training FLOPs", f"{flops['total']:.3e}")
    summary.add_row("wall time (s)", f"{result.wall_s:.2f}")
    console.print(summary)
    console.print(f"results in {out}")


def register(app: typer.Typer) -> None:
    app.command("train-host")(train_host_cmd)
