"""The ``edgecl`` command: one Typer app; each area registers its commands from its own module."""
from __future__ import annotations

import sys

import typer
from rich.console import Console
from rich.markup import escape

from pipeline.errors import EdgeclError

app = typer.Typer(
    name="edgecl",
    help="Sparse continual learning on Android phones: export training programs, run them over adb, measure energy.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

_CLI_MODULES = (
    "pipeline.cli.data_cmds",
    "pipeline.cli.train_cmds",
    "pipeline.cli.export_cmds",
    "pipeline.cli.device_cmds",
    "pipeline.cli.run_cmds",
    "pipeline.cli.power_cmds",
    "pipeline.cli.demo_cmd",
    "pipeline.cli.tune_cmd",
    "pipeline.cli.sweep_cmd",
    "pipeline.cli.doctor_cmd",
    "pipeline.cli.runner_cmds",
)


@app.command()
def version() -> None:
    """Print edgecl's version and the runtime stack it was installed with."""
    from importlib import metadata

    for dist in ("edgecl", "torch", "executorch", "onnxruntime-training", "onnx", "adbutils", "numpy"):
        try:
            print(f"{dist:22s} {metadata.version(dist)}")
        except metadata.PackageNotFoundError:
            print(f"{dist:22s} (not installed)")


def _register_all() -> None:
    """Every CLI module registers its commands; one that fails to import fails the CLI (never a missing command)."""
    import importlib

    for name in _CLI_MODULES:
        importlib.import_module(name).register(app)


_register_all()


@app.callback()
def _root(verbose: bool = typer.Option(False, "--verbose", "-v", help="show torch/ExecuTorch/ONNX's own warnings "
                                       "and log lines (silenced by default)")) -> None:
    """Sparse continual learning on Android phones: export training programs, run them over adb, measure energy."""
    if not verbose:
        from pipeline.cli.options import quiet_third_party

        quiet_third_party()


def main() -> None:
    """Entry point: an ``EdgeclError`` becomes one clear line and its exit code; anything else is a bug."""
    try:
        app()
    except EdgeclError as exc:
        Console(stderr=True).print(f"[bold red]error:[/] {escape(str(exc))}", highlight=False, soft_wrap=True)
        sys.exit(exc.exit_code)


if __name__ == "__main__":
    main()
