"""Where an ExecuTorch training step spends its time, per kernel, with and without the speed passes.

Exports each model's training program (bench/export_step.py's configuration: batch 32, 50% weight
masks, DER++-shaped batch) with ``fast_passes`` off and on, runs ``forward_backward`` with ETDump
enabled, and sums each kernel's time per step (the minimum over the repeats of every instruction,
so a busy shared host inflates it less). This is the profile behind the export's speed passes.

Run: ``python bench/et_op_profile.py [--models small_cnn,mlp] [--repeats 5] [--top 8]``
"""
from __future__ import annotations

import argparse
import collections
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

from results_io import command_line, write_results_json  # noqa: E402


def profile(model: str, fast: bool, repeats: int, workdir: Path) -> dict[str, float]:
    """Milliseconds per step by kernel name for one exported program."""
    import numpy as np
    from executorch.devtools import Inspector
    from executorch.extension.pybindings.portable_lib import _load_for_executorch_from_buffer
    from executorch.extension.training import TrainingModule
    from export_step import request
    from torch import from_numpy

    from android_harness.device.backends import load_backend
    from pipeline.export import export_program
    from pipeline.export.reference import replay_batch

    req = request(model, "executorch", fast)
    folder = export_program(req, workdir / f"{model}-{fast}").folder
    backend = load_backend(folder)
    full = dict(replay_batch(req, seed=0))
    for name in backend.signature.mask_names:
        full[backend.signature.mask_input_name(name)] = backend.masks[name]
    inputs = [from_numpy(np.ascontiguousarray(a)) for a in backend.signature.check_inputs(full)]
    program = (folder / "training.pte").read_bytes()  # the module does not copy it: keep it alive
    module = _load_for_executorch_from_buffer(program, enable_etdump=True)
    training = TrainingModule(module)
    for _ in range(repeats + 1):
        training.forward_backward("forward", inputs)
    dump = workdir / f"{model}-{fast}.etdp"
    module.write_etdump_result_to_file(str(dump))
    per_op: dict[str, float] = collections.defaultdict(float)
    for block in Inspector(etdump_path=str(dump)).event_blocks:
        for event in block.events:
            if event.perf_data is not None and event.name.startswith("native_call_"):
                per_op[event.name[len("native_call_"):]] += min(event.perf_data.raw)
    return dict(per_op)


def main() -> None:
    from export_step import CONFIGS

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--models", default="mlp,small_cnn,cnn1d,resnet18_reduced")
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--top", type=int, default=8)
    args = ap.parse_args()
    command = command_line("et_op_profile")
    print(command, flush=True)
    from rich.progress import Progress

    models = [m for m in args.models.split(",") if m in CONFIGS]
    rows: list[dict] = []
    workdir = Path(tempfile.mkdtemp(prefix="et_op_profile-"))
    with Progress() as bar:
        task = bar.add_task("profiles", total=2 * len(models))
        for model in models:
            for fast in (False, True):
                variant = "fast" if fast else "portable"
                bar.update(task, description=f"{model}: {variant}")
                ops = profile(model, fast, args.repeats, workdir)
                total = sum(ops.values())
                rows.append({"name": model, "metric": f"{variant}_total_op_ms", "value": total, "unit": "ms", "goal": None})
                for op, ms in sorted(ops.items(), key=lambda kv: -kv[1])[: args.top]:
                    rows.append({"name": model, "metric": f"{variant}_{op}_ms", "value": ms, "unit": "ms",
                                 "goal": None, "share": ms / total if total else 0.0})
                bar.advance(task)
    write_results_json("et_op_profile", command, rows, indent=2)
    for r in rows:
        share = f"  {100 * r['share']:5.1f}%" if "share" in r else ""
        print(f"{r['name']:18s} {r['metric']:44s} {r['value']:10.2f} ms{share}")


if __name__ == "__main__":
    main()
