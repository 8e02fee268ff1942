"""``edgecl runner build|path``: build the native device runner and say where it is."""
from __future__ import annotations

import json

import typer

runner_app = typer.Typer(help="The native device runner (edgecl-runner): build it, find it.", no_args_is_help=True)
ABI_HELP = "arm64-v8a (phones), x86_64 (this host), or all"


def _abis(abi: str) -> list[str]:
    from android_harness.native import ABIS
    from pipeline.errors import ConfigError

    if abi == "all":
        return list(ABIS)
    if abi not in ABIS:
        raise ConfigError(f"--abi: {abi!r} (expected {', '.join(ABIS)} or all)")
    return [abi]


@runner_app.command("build")
def build(abi: str = typer.Option("all", "--abi", help=ABI_HELP),
          jobs: int = typer.Option(2, "--jobs", "-j", min=1, help="parallel compile jobs"),
          force: bool = typer.Option(False, "--force", help="rebuild from scratch even when a cached build exists")) -> None:
    """Build edgecl-runner from the vendored sources (cached by source hash) and print each binary's path."""
    import time

    from android_harness.native import build_runner

    for a in _abis(abi):
        t0 = time.perf_counter()
        path = build_runner(a, jobs=jobs, force=force)
        info = json.loads((path.parent / "build.json").read_text())
        took = time.perf_counter() - t0
        how = f"built in {took:.0f} s" if took > 1 else "cached"
        print(f"{a}: {path} ({info['size_bytes'] / 1e6:.1f} MB, {info['operators']} operators, {how})")


@runner_app.command("path")
def path(abi: str = typer.Option(..., "--abi", help="arm64-v8a or x86_64")) -> None:
    """Print the path of edgecl-runner built from the current sources; an error if it is not built yet."""
    from android_harness.native import ABIS, BINARY_NAME, NativeBuildError, output_dir
    from pipeline.errors import ConfigError

    if abi not in ABIS:
        raise ConfigError(f"--abi: {abi!r} (path needs one of {', '.join(ABIS)})")
    binary = output_dir(abi) / BINARY_NAME
    if not binary.is_file():
        raise NativeBuildError(abi, f"not built for the current sources (run `edgecl runner build --abi {abi}`)")
    print(binary)


def register(app: typer.Typer) -> None:
    app.add_typer(runner_app, name="runner")
