"""``edgecl export``: a spec's model + loss + SparCL masks -> an on-device training program."""
from __future__ import annotations

from pathlib import Path

import typer
from rich.console import Console
from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn
from rich.table import Table



def _human(n: float) -> str:
    for unit in ("", "K", "M", "G", "T"):
        if abs(n) < 1000:
            return f"{n:.1f}{unit}" if unit else f"{n:.0f}"
        n /= 1000
    return f"{n:.1f}P"


def export_spec(spec_path: Path, runtime: str | None, out: Path | None, cache: Path | None, force: bool,
                fast_passes: bool | None, operators: Path | None = None):
    from android_harness.cache_dir import edgecl_home
    from pipeline.config import load_spec
    from pipeline.experiment_prep import export_request, write_shards
    from pipeline.export import export_program

    spec = load_spec(spec_path, {"export.runtime": runtime} if runtime else None)   # validated like the spec's own
    runtime = spec.export.runtime
    out = out or spec.export.out or Path("exports") / f"{spec.name}-{runtime}"
    cache = cache or edgecl_home() / "cache"
    console = Console()
    with Progress(SpinnerColumn(), TextColumn("{task.description}"), TimeElapsedColumn(), console=console, transient=True) as bar:
        task = bar.add_task("preparing task data", total=None)
        data = write_shards(spec, cache)
        bar.update(task, description="building the export request")
        req = export_request(spec, data, runtime)
        if fast_passes is not None:
            req.fast_passes = fast_passes
        req.operators = operators
        result = export_program(req, out, progress=lambda msg: bar.update(task, description=msg), force=force)
    _summary(console, result)
    return result


def _summary(console: Console, result) -> None:
    m = result.manifest
    table = Table(title=f"{m['model']['kind']} -> {m['runtime']}  ({'cached' if result.reused else f'{result.seconds:.1f} s'})")
    table.add_column("file")
    table.add_column("role")
    table.add_column("size", justify="right")
    for f in m["files"]:
        table.add_row(f["path"], f["role"], f"{f['size'] / 1024:.1f} KiB")
    console.print(table)
    sig = m["signature"]
    console.print(
        f"folder {result.folder}\n"
        f"parameters {m['parameter_count']:,}  masked weights {m['masked_weights']:,} (sparsity {m['sparsity']:.1%} of masked layers)\n"
        f"batch {m['batch_size']} x {m['model']['input_shape']}  classes {m['model']['num_classes']}  "
        f"masks {len(sig['mask_names'])}  FLOPs/step {_human(m['flops_per_step'])}\n"
        f"optimizer {m['optimizer']['name']}  passes: "
        + (", ".join(f"{p['name']}{'*' if p['modified'] else ''}" for p in m["passes"]) or "none")
        + ("" if not m["structured"]["kept_channels"] else f"\nchannels kept: { {k: len(v) for k, v in m['structured']['kept_channels'].items()} }"),
        highlight=False,
    )


def register(app: typer.Typer) -> None:
    @app.command("export")
    def export_cmd(
        spec: Path = typer.Argument(..., help="experiment TOML"),
        runtime: str = typer.Option(None, "--runtime", "-r", help="executorch | ort (default: the spec's export.runtime)"),
        out: Path = typer.Option(None, "--out", "-o", help="export folder (default: export.out or exports/<name>-<runtime>)"),
        cache: Path = typer.Option(None, help="where task data shards are cached (default: $EDGECL_HOME/cache, "
                                   "i.e. ~/.cache/edgecl/cache)"),
        force: bool = typer.Option(False, "--force", help="export again even if the folder holds a matching export"),
        fast_passes: bool = typer.Option(None, "--fast-passes/--no-fast-passes", help="override export.fast_passes"),
        ops: Path = typer.Option(None, "--ops", exists=True, dir_okay=False,
                                 help="ExecuTorch: check the programs' operators against this list (one name per line, "
                                      "e.g. the native runner's ops.txt) instead of the Python bindings' registry"),
    ) -> None:
        """Export the spec's training program (+ manifest.json) for an on-device runtime."""
        export_spec(spec, runtime, out, cache, force, fast_passes, ops)
