"""The native runner's C++ parts, alone and against their Python counterparts (docs/semantics.md).

``edgecl-units`` runs the C++ unit cases (android_harness/native/tests/*.cpp: streams, water filling,
top-k ties, schedules, DDR/DGM/TDM, the replay store's recovery rules, checkpoints, events) and
helper commands that compute one part on inputs made here, compared exactly with the Python code
the Python runner uses: SplitMix64 streams, SparCL schedules, TDM updates (unstructured and
structured) and DGM masks, the EM build, the shard and replay-record formats (both directions),
``.npy`` bytes, JSON floats, SGD/AdamW. Both ABIs (arm64 under qemu-aarch64-static).
"""
from __future__ import annotations

import io
import json
import subprocess
from pathlib import Path

import numpy as np
import pytest

from android_harness.device.backends.numpy_optim import NumpyOptimizer
from android_harness.device.replay.em_build import em_refs
from android_harness.device.replay.storage import RecordFormat, StorageTier
from android_harness.device.rng import Stream
from android_harness.device.shards import write_shard
from android_harness.device.sparcl import ddr_counts, ddr_schedule, gradient_mask, tdm_schedule, tdm_update
from android_harness.native import ABIS
from tests._native_bins import command, units_binary

pytestmark = [pytest.mark.slow, pytest.mark.timeout(2400)]  # a first build compiles the runtime


@pytest.fixture(scope="module", params=ABIS)
def units(request):
    abi = request.param
    binary = units_binary(abi)

    def run(*args: str, check: bool = True) -> subprocess.CompletedProcess:
        out = subprocess.run(command(abi, binary, *args), capture_output=True, text=True, timeout=300)
        if check:
            assert out.returncode == 0, out.stderr
        return out

    return run


def test_cpp_unit_cases_pass(units) -> None:
    out = units()
    assert "FAIL" not in out.stdout, out.stdout
    passed, total = out.stdout.strip().splitlines()[-1].split(" cases")[0].split(" of ")
    assert passed == total and int(total) >= 29


def test_streams_equal_python(units) -> None:
    for row in json.loads(units("rng-json").stdout):
        s = Stream(*row["key"])
        assert row["next"] == [s.next() for _ in range(4)]
        assert row["below"] == [s.below(n) for n in (1, 2, 3, 10, 1000, 1 << 40, (1 << 64) - 1)]
        assert row["shuffle"] == s.shuffle(np.arange(20)).tolist()
        assert row["sample"] == s.sample(50, 7).tolist()


@pytest.mark.parametrize("args", [(50, 0.75, 0.1, 0.01, 0.9, 1000, 0.3, [0.1, 0.2, 0.3, 0.4]),
                                  (5, 0.5, 0.2, 0.01, 0.9, 80, 0.2, [0.2, 0.4]),
                                  (7, 0.9, 0.15, 0.05, 0.8, 333, 0.25, [0.15, 0.35, 0.5]),
                                  (3, 0.5, 0.5, 0.2, 0.9, 17, 0.3, [0.1, 0.2, 0.9]),
                                  (1, 0.75, 0.1, 0.01, 0.9, 10, 0.3, [0.5]),
                                  (12, 0.95, 0.1, 0.0, 1.0, 1, 0.1, [0.3])])
def test_schedules_equal_python(units, args) -> None:
    epochs, s, every, swap, freeze, n, fraction, steps = args
    out = json.loads(units("schedule-json", epochs, s, every, swap, freeze, n, fraction, *steps).stdout)
    assert out["tdm"] == [[e.epoch, e.kind, e.drop_to, e.grow_to, e.freeze] for e in tdm_schedule(epochs, s, every, swap, freeze)]
    assert out["ddr"] == {str(e): k for e, k in ddr_counts(n, ddr_schedule(epochs, steps, fraction)).items()}


@pytest.mark.parametrize("structured", [False, True])
@pytest.mark.parametrize("with_grad", [False, True])
def test_tdm_update_equals_python(units, tmp_path: Path, structured: bool, with_grad: bool) -> None:
    rng = np.random.default_rng(7)
    for trial, (shape, drop, grow) in enumerate([((16, 9), 0.75, 0.7), ((8, 130), 0.5, 0.45), ((33, 3, 3, 3), 0.9, 0.85),
                                                 ((4, 300), 0.6, 0.6)]):
        w = (rng.standard_normal(shape) * 0.1).astype(np.float32)
        w[0, :3] = w[1, :3]  # ties across units
        mask = (rng.random(shape) < 0.4).astype(np.float32)
        if structured:
            mask = np.broadcast_to(mask.reshape(shape[0], -1)[:, :1].reshape((-1,) + (1,) * (len(shape) - 1)), shape).copy()
        w *= mask
        g = (rng.standard_normal(shape) * 0.01).astype(np.float32) if with_grad else None
        folder = tmp_path / f"t{trial}-{structured}-{with_grad}"
        folder.mkdir()
        np.save(folder / "w.npy", w.reshape(shape[0], -1))
        np.save(folder / "mask.npy", mask.reshape(shape[0], -1))
        if g is not None:
            np.save(folder / "g.npy", g.reshape(shape[0], -1))
        units("tdm-update", folder, 11, 2, trial, 0.5, drop, grow, int(structured))
        res = tdm_update({"w": w}, {"w": mask}, None if g is None else {"w": g}, drop, grow, 0.5, Stream(11, 6, 2, trial),
                         ["w"], structured)
        want_w = np.where(res.survivors["w"] == 0, np.float32(0), w).astype(np.float32)
        assert np.load(folder / "mask_out.npy").tobytes() == res.masks["w"].reshape(shape[0], -1).tobytes()
        assert np.load(folder / "kept.npy").astype(bool).tolist() == (res.survivors["w"] > 0).reshape(shape[0], -1).tolist()
        assert np.load(folder / "w_out.npy").tobytes() == want_w.reshape(shape[0], -1).tobytes()


def test_dgm_mask_equals_python(units, tmp_path: Path) -> None:
    rng = np.random.default_rng(3)
    for trial, (n, ratio) in enumerate([(64, 0.2), (1000, 0.35), (7, 0.5), (300, 0.0), (50_000, 0.2), (4000, 0.9)]):
        g = (rng.standard_normal(n) * rng.choice([1e-6, 1.0], n)).astype(np.float32)
        g[: n // 4] = g[n // 4: 2 * (n // 4)]  # ties
        if n >= 4000:  # every kind of float the radix select keys: zeros of both signs, subnormals, inf, NaN
            special = np.array([0.0, -0.0, 1e-45, -3e-39, np.inf, -np.inf, np.nan], dtype=np.float32)
            g[rng.choice(n, n // 10, replace=False)] = rng.choice(special, n // 10)
        mask = (rng.random(n) < 0.6).astype(np.float32)
        folder = tmp_path / f"d{trial}"
        folder.mkdir()
        np.save(folder / "g.npy", g)
        np.save(folder / "mask.npy", mask)
        units("dgm-mask", folder, ratio)
        assert np.load(folder / "gmask.npy").tobytes() == gradient_mask(g, mask, ratio).tobytes()


class _Counts:
    """What em_refs asks a storage tier: labels and record counts."""

    def __init__(self, counts: dict[int, int]) -> None:
        self.counts = counts

    def labels(self) -> list[int]:
        return sorted(c for c, n in self.counts.items() if n)

    def count(self, label: int) -> int:
        return self.counts.get(label, 0)


@pytest.mark.parametrize("counts,em_size", [({0: 2, 1: 10, 3: 10}, 10), ({2: 50, 5: 50, 9: 50}, 7), ({0: 1, 1: 2}, 100),
                                            ({c: 30 + 7 * c for c in range(10)}, 173), ({4: 5}, 0)])
def test_em_build_equals_python(units, counts, em_size) -> None:
    out = json.loads(units("em-refs", 5, 2, em_size, *[f"{c}:{n}" for c, n in counts.items()]).stdout)
    assert out == em_refs(_Counts(counts), em_size, 5, 2).tolist()


def test_shards_written_by_python_read_natively(units, tmp_path: Path) -> None:
    """The reader parses as the file's 64 KiB chunks arrive: records of 1036 bytes straddle them."""
    rng = np.random.default_rng(0)
    x = rng.standard_normal((137, 1, 16, 16)).astype(np.float32)
    y = rng.integers(0, 10, 137)
    path = tmp_path / "task0_train.shard"
    write_shard(path, x, y, {"task": 0})
    out = json.loads(units("shard-read", path).stdout)
    import zlib
    assert out == {"count": 137, "shape": [1, 16, 16], "y": y.tolist(), "x_crc": zlib.crc32(x.tobytes())}
    data = bytearray(path.read_bytes())
    failures = {"prefix": (bytes(data[:10]), "truncated shard prefix (10 bytes)"),
                "header": (bytes(data[:30]), "truncated shard header"),
                "extra": (bytes(data) + b"\0" * 7, "7 unexpected bytes after record 136")}
    data[-100] ^= 0x40  # inside the last record
    failures["flipped"] = (bytes(data), "record 136 checksum mismatch")
    failures["cut"] = (bytes(data[:-10]), "truncated at record 136 of 137")
    for name, (content, message) in failures.items():
        path.write_bytes(content)
        bad = units("shard-read", path, check=False)
        assert bad.returncode == 1 and message in bad.stderr, (name, bad.stderr)


def test_replay_records_cross_read(units, tmp_path: Path) -> None:
    """Python writes records, the native reader returns them (and a torn tail / flipped byte are handled alike)."""
    fmt = RecordFormat((3, 5), 4)
    store = StorageTier(str(tmp_path), fmt, budget_bytes=1 << 20)
    ids = np.arange(40)
    x = (ids[:, None] * 0.5 + np.arange(15)).astype(np.float32).reshape(-1, 3, 5)
    logits = (ids[:, None] + np.arange(4)).astype(np.float32)
    store.append(ids, x, ids % 4, logits)
    store.close()
    with open(tmp_path / "class_2.rec", "ab") as f:
        f.write(b"ECR1torn")
    data = bytearray((tmp_path / "class_1.rec").read_bytes())
    data[fmt.record_size * 2 + 40] ^= 0xFF
    (tmp_path / "class_1.rec").write_bytes(bytes(data))
    native = json.loads(units("replay-read", tmp_path, 4, 3, 5).stdout)
    import zlib
    py = StorageTier(str(tmp_path), fmt, budget_bytes=1 << 20, read_only=True)
    want = []
    for label in py.labels():
        for k in range(py.count(label)):
            sid, xs, lg = py.read(label, k)
            want.append([label, k, sid, zlib.crc32(lg.tobytes(), zlib.crc32(xs.tobytes()))])
    assert native == want and len(want) == 39


def test_npy_files_are_numpy_bytes(units, tmp_path: Path) -> None:
    units("npy-write", tmp_path)
    f = np.array([0.5, -1.0, 3.25, 0.0, -0.0, 1e-30], np.float32)
    expected = {"f_2x3": f.reshape(2, 3), "f_6": f, "f_scalar": np.array(f[0]), "i_4x1": np.array([[1], [-2], [1 << 40], [0]]),
                "u_3": np.array([0, 1, 255], np.uint8), "f_0": np.zeros(0, np.float32),
                "f_big": np.zeros((1234567, 0), np.float32)}
    for name, arr in expected.items():
        buf = io.BytesIO()
        np.save(buf, arr)
        assert (tmp_path / f"{name}.npy").read_bytes() == buf.getvalue(), name


def test_json_floats_print_like_python(units) -> None:
    import struct
    for bits, text, r6, r4 in json.loads(units("json-floats").stdout):
        v = struct.unpack("<d", bytes.fromhex(bits)[::-1])[0]
        assert text == json.dumps(v), (bits, text)
        assert (r6, r4) == (round(v, 6), round(v, 4)), bits


@pytest.mark.parametrize("name,momentum,wd", [("sgd", 0.0, 0.0), ("sgd", 0.9, 0.0), ("sgd", 0.9, 5e-4), ("sgd", 0.0, 1e-3),
                                              ("adamw", 0.0, 0.01), ("adamw", 0.0, 0.0)])
def test_optimizer_equals_numpy_optim(units, tmp_path: Path, name: str, momentum: float, wd: float) -> None:
    rng = np.random.default_rng(1)
    p0 = rng.standard_normal(257).astype(np.float32)
    grads = (rng.standard_normal((6, 257)) * 0.1).astype(np.float32)
    grads[:, :5] = 0.0
    np.save(tmp_path / "p0.npy", p0)
    np.save(tmp_path / "grads.npy", grads)
    units("optimizer", tmp_path, name, 0.05, momentum, wd)
    opt = NumpyOptimizer(name, momentum, wd)
    p = {"p": p0.copy()}
    for g in grads:
        opt.step(p, {"p": g}, 0.05)
    assert np.load(tmp_path / "p.npy").tobytes() == p["p"].tobytes()
