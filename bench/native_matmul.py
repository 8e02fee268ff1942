"""edgecl's tiled matrix product vs portable ExecuTorch's naive one, on the programs' mm/bmm shapes.

Compiles ``bench/native_matmul.cpp`` with the runner's flags (``-O3 -ffp-contract=off``) against
``android_harness/native/kernels/matmul.cpp`` for the host, times both products per shape (best of
3 rounds) and checks the results are byte-identical. Shapes: the (m, n, p) products the exported
training programs of bench/export_step.py's models run (batch 32).

Run: ``python bench/native_matmul.py``
"""
from __future__ import annotations

import json
import subprocess
import tempfile
from pathlib import Path

from results_io import command_line, write_results_json, write_section

ROOT = Path(__file__).resolve().parents[1]
KERNELS = ROOT / "android_harness" / "native" / "kernels"
SHAPES = [  # (model, m, n, p): each model's largest products (bmm: one sample's), from its exported program
    ("mlp", 100, 784, 32), ("mlp", 100, 32, 784), ("mlp", 32, 100, 100),
    ("small_cnn", 32, 144, 196), ("small_cnn", 16, 288, 6272), ("small_cnn", 144, 196, 32), ("small_cnn", 16, 784, 9),
    ("cnn1d", 64, 192, 1024), ("cnn1d", 192, 1024, 64), ("cnn1d", 65, 2048, 32),
    ("resnet18_reduced", 20, 180, 1024), ("resnet18_reduced", 40, 360, 8192), ("resnet18_reduced", 80, 720, 2048),
    ("resnet18_reduced", 160, 1440, 512), ("resnet18_reduced", 180, 1024, 20), ("resnet18_reduced", 360, 8192, 40),
    ("resnet18_reduced", 1440, 512, 160),
]


def main() -> None:
    command = command_line("native_matmul")
    with tempfile.TemporaryDirectory() as tmp:
        exe = Path(tmp) / "native_matmul"
        subprocess.run(["g++", "-std=gnu++17", "-O3", "-ffp-contract=off", "-Wno-psabi", f"-I{KERNELS}",
                        f"-I{ROOT / 'third_party'}", str(ROOT / "bench" / "native_matmul.cpp"), str(KERNELS / "matmul.cpp"),
                        "-o", str(exe)], check=True)
        args = [str(v) for _, m, n, p in SHAPES for v in (m, n, p)]
        out = subprocess.run([str(exe), *args], capture_output=True, text=True, check=True).stdout
    results = [json.loads(line) for line in out.splitlines()]
    rows = []
    for (model, m, n, p), r in zip(SHAPES, results):
        name = f"{model} {m}x{n}x{p}"
        r["tiled_gflops"] = round(2e-3 * m * n * p / r["tiled_us"], 1)
        rows.append({"name": name, "metric": "naive_us", "value": r["naive_us"], "unit": "us", "goal": None})
        rows.append({"name": name, "metric": "tiled_us", "value": r["tiled_us"], "unit": "us", "goal": None})
        rows.append({"name": name, "metric": "speedup", "value": round(r["naive_us"] / r["tiled_us"], 2), "unit": "x",
                     "goal": None})
        rows.append({"name": name, "metric": "tiled_gflops", "value": r["tiled_gflops"], "unit": "GFLOP/s", "goal": None})
        rows.append({"name": name, "metric": "byte_identical", "value": r["identical"], "unit": "", "goal": True})
    write_results_json("native_matmul", command, rows)
    lines = ["## Native matrix product: tiled vs portable naive (bench/native_matmul.py)", "", f"`{command}`", "",
             "x86_64 host build (AVX2 clone where the CPU has it), best of 3 rounds; the arm64 build runs the same "
             "code with NEON. Byte-identical: the tiled product keeps each element's summation order.", "",
             "| shape m x n x p | naive (us) | tiled (us) | speedup | tiled GFLOP/s | byte-identical |",
             "|---|---|---|---|---|---|"]
    for (model, m, n, p), r in zip(SHAPES, results):
        lines.append(f"| {model} {m}x{n}x{p} | {r['naive_us']:.1f} | {r['tiled_us']:.1f} | "
                     f"{r['naive_us'] / r['tiled_us']:.1f} x | {r['tiled_gflops']:.1f} | {'yes' if r['identical'] else 'NO'} |")
    write_section("native_matmul", "\n".join(lines))
    print("\n".join(lines))


if __name__ == "__main__":
    main()
