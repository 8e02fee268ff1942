"""``edgecl datasets``: which datasets this machine can load, and where each comes from."""
from __future__ import annotations

from pathlib import Path

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from pipeline.datasets import CATALOG, availability, load_raw


def datasets(
    root: Path = typer.Option(None, "--root", help="folder to look in for datasets that read files (IDX, CIFAR)"),
    load: bool = typer.Option(False, "--load", help="also load each available dataset and show its sizes"),
) -> None:
    """List the datasets edgecl knows, whether each is available here, and where it came from."""
    table = Table(title="edgecl datasets")
    table.add_column("name", no_wrap=True)
    for col in ("classes", "shape", "here"):
        table.add_column(col)
    table.add_column("source (or how to get it)", overflow="fold")
    if load:
        table.add_column("train / test")
    for name, info in CATALOG.items():
        ok, where = availability(name, root if (root is not None and info.package is None) else None)
        row = [name, str(info.num_classes), "x".join(map(str, info.sample_shape)),
               "[green]yes[/]" if ok else "[red]no[/]", escape(f"{where}: {info.origin}" if ok else f"{info.origin} ({where})")]
        if load:
            if ok and not (info.needs_root and root is None):
                ds = load_raw(name, root if info.package is None else None, 0.25, 0)
                row.append(f"{len(ds.y_train)} / {len(ds.y_test)}")
            else:
                row.append("-")
        table.add_row(*row)
    console = Console()
    console.print(table)
    console.print("your own data: [bold]kind = \"arrays\"[/] (an .npz, an .npy + data.labels, or a folder of .npy: "
                  "x/y or x_train/y_train/x_test/y_test; N×F, N×C×T or N×C×H×W) or [bold]kind = \"ts\"[/] "
                  "(UEA/UCR <Name>_TRAIN.ts / _TEST.ts), with data.path; see README \"Bring your own\"",
                  highlight=False)


def register(app: typer.Typer) -> None:
    app.command("datasets")(datasets)
