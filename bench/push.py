"""Deploy throughput vs the adb CLI's ``adb push`` of the same files to the same virtual phone, and
the cost of a no-change redeploy.

Both sides go through the same real adb 36 server (a private one on its own port) to the same
vphone, alternating, ROUNDS times; medians are compared. The deploy time includes everything
deploy() does (local sha256, remote sha256 check, push to temp names, on-device verify, rename);
the CLI time is one ``adb push DIR/. REMOTE`` process. The vphone is a simulated device on
loopback, so absolute MB/s say little about a phone: the ratio is the figure. The vphone is the
default stock preset (RSA auth on, sandboxed shell as uid 2000; deploy's on-device verify runs the
phone's ``sha256sum``: toybox's format over OpenSSL's hardware SHA-256, as a phone's BoringSSL toybox).

Run: ``python bench/push.py [--rounds 3] [--mb 56]``
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

from rich.progress import track

from android_harness import vphone
from android_harness.adb import Adb
from android_harness.adb_server import ServerAddress, adb_binary, start_private_server
from android_harness.android_device import AndroidDevice
from android_harness.deploy import deploy
from android_harness.vphone.presets import USB2_LINK_MB_S, USB2_LINK_SOURCE
from results_io import command_line, load_row, write_results_json, write_section
from android_harness.vphone.manager import free_port

GOAL_RATIO = 0.8


def make_export(folder: Path, total_mb: int) -> Path:
    """A model-export-like folder: one big program, a weights file, a few shards, small metadata."""
    big = total_mb * 1024 * 1024
    sizes = {"model.pte": big * 4 // 7, "weights.bin": big * 2 // 7}
    rest = big - sum(sizes.values())
    sizes.update({f"shards/s{i}.bin": rest // 5 for i in range(4)})
    sizes.update({f"meta/m{i}.json": 64 * 1024 for i in range(8)})
    entries = []
    for rel, size in sizes.items():
        p = folder / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        data = os.urandom(size)
        p.write_bytes(data)
        entries.append({"path": rel, "sha256": hashlib.sha256(data).hexdigest(), "size": size})
    manifest = folder / "manifest.json"
    manifest.write_text(json.dumps({"format": "edgecl-manifest/1", "files": entries}))
    return manifest




def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--mb", type=int, default=56)
    args = ap.parse_args()
    command = command_line("push")
    print(f"command: {command}")
    print(f"host: {platform.platform()}, python {platform.python_version()}, cpus {os.cpu_count()}")
    with tempfile.TemporaryDirectory(prefix="edgecl-bench-push-") as tmp_s:
        tmp = Path(tmp_s)
        os.environ["EDGECL_HOME"] = str(tmp / "edgecl_home")
        port = free_port()
        server_proc = start_private_server(port)
        server = ServerAddress("127.0.0.1", port)
        manifest = make_export(tmp / "export", args.mb)
        rows: list[dict] = []
        try:
            for link_name, link_mb_s in (("loopback", 0.0), ("usb2", USB2_LINK_MB_S)):
                info = vphone.start(server=server, base=tmp, home=tmp / f"phone-{link_name}",
                                    overrides={"link_mb_s": link_mb_s})
                try:
                    rows += run(AndroidDevice(Adb(info.serial, server)), server, manifest, args.rounds, link_name)
                finally:
                    vphone.stop(info, server, base=tmp)
        finally:
            server_proc.kill()
            server_proc.wait()
        rows.append(load_row(f"{os.cpu_count()} cpus shared with other jobs: absolute times are noisy"))
        rows.append({"name": "deploy_payload", "metric": "size", "value": round(
            sum(f.stat().st_size for f in manifest.parent.rglob("*") if f.is_file()) / 1e6, 1), "unit": "MB",
            "goal": f"{len(json.loads(manifest.read_text())['files']) + 1} files, {args.rounds} alternating rounds, medians"})
    write_results_json("push", command, rows, trailing_newline=True)
    for r in rows:
        print(f"{r['name']:40s} {r['value']:>10} {r['unit']:6s} goal {r['goal']}")
    write_section("push", markdown(command, rows))


def run(device: AndroidDevice, server: ServerAddress, manifest: Path, rounds: int, link: str) -> list[dict]:
    total = sum(f.stat().st_size for f in manifest.parent.rglob("*") if f.is_file())
    remote_deploy = device.storage_path("models", "bench")
    remote_cli = device.storage_path("bench_cli")
    adb_cmd = [adb_binary(), "-P", str(server.port), "-s", device.serial]
    t_deploy, t_cli, t_transfer = [], [], []
    for i in track(range(rounds), description=f"push rounds ({link})"):
        order = ("deploy", "cli") if i % 2 == 0 else ("cli", "deploy")
        for side in order:
            device.shell(["rm", "-rf", remote_deploy, remote_cli])
            if side == "deploy":
                t0 = time.perf_counter()
                rep = deploy(device, manifest, name="bench")
                t_deploy.append(time.perf_counter() - t0)
                t_transfer.append(rep.phase_seconds["push"])
                assert rep.bytes_moved == total and not rep.skipped
            else:
                device.shell(["mkdir", "-p", remote_cli])
                t0 = time.perf_counter()
                subprocess.run([*adb_cmd, "push", f"{manifest.parent}/.", remote_cli], check=True,
                               stdout=subprocess.DEVNULL)
                t_cli.append(time.perf_counter() - t0)
    deploy(device, manifest, name="bench")
    t0 = time.perf_counter()
    again = deploy(device, manifest, name="bench")
    t_redeploy = time.perf_counter() - t0
    med_d, med_c = statistics.median(t_deploy), statistics.median(t_cli)
    mb = total / 1e6
    tag = f"_{link}"
    where = f" (vphone on a {link} link, simulated device)"
    return [
        {"name": "deploy_throughput" + tag, "metric": "throughput", "value": round(mb / med_d, 1),
         "unit": "MB/s", "goal": None, "note": where},
        {"name": "adb_cli_push_throughput" + tag, "metric": "throughput", "value": round(mb / med_c, 1),
         "unit": "MB/s", "goal": None, "note": where},
        {"name": f"deploy_throughput{tag}_ratio_vs_adb_cli_push", "metric": "ratio",
         "value": round(med_c / med_d, 3), "unit": "x", "goal": f">= {GOAL_RATIO}"},
        {"name": f"deploy_transfer_phase{tag}_ratio_vs_adb_cli_push", "metric": "ratio",
         "value": round(med_c / statistics.median(t_transfer), 3), "unit": "x",
         "goal": "diagnostic: the data transfer alone (no hash check / verify / rename)"},
        {"name": "redeploy_unchanged_bytes_moved" + tag, "metric": "bytes", "value": again.bytes_moved,
         "unit": "B", "goal": "0"},
        {"name": "redeploy_unchanged_seconds" + tag, "metric": "time", "value": round(t_redeploy, 3),
         "unit": "s", "goal": None, "note": where},
    ]


def markdown(command: str, rows: list[dict]) -> str:
    """This script's section of bench/RESULTS.md (between its markers)."""
    table = "\n".join(f"| {r['name']}{r.get('note', '')} | {r['value']} {r['unit']} | {r['goal'] or ''} |"
                      for r in rows)
    return (f"## Deploy vs `adb push` (bench/push.py)\n\n`{command}`\n\n"
            "Same files, same real adb 36 server, same virtual phone (simulated device: the stock preset, "
            "RSA auth on, sandboxed shell as uid 2000, hardware-SHA sha256sum), alternating rounds, medians. Deploy time includes the remote sha256 check, push to temp names "
            "(sha256 of the sent bytes on the way), on-device verify and rename; `adb push` does none "
            "of these checks. Two links: unthrottled loopback, and a USB-2-like link of "
            f"{USB2_LINK_MB_S:g} MB/s each way ({USB2_LINK_SOURCE}). The transfer-phase rows isolate "
            "the data path; the gap between them and the full-deploy ratio is the verification work "
            "(one on-device sha256 pass over everything pushed, plus two shell round trips), which "
            "weighs most on the unthrottled loopback link.\n\n"
            "| figure | value | goal |\n|---|---|---|\n"
            f"{table}\n\n{verdict(rows)}")


def verdict(rows: list[dict]) -> str:
    """One line per link: the full-deploy ratio against the goal, and where the rest of the time goes."""
    value = {r["name"]: r["value"] for r in rows}
    lines = []
    for link in ("loopback", "usb2"):
        ratio = value.get(f"deploy_throughput_{link}_ratio_vs_adb_cli_push")
        if ratio is None:
            continue
        transfer = value[f"deploy_transfer_phase_{link}_ratio_vs_adb_cli_push"]
        met = "met" if ratio >= GOAL_RATIO else "NOT met"
        slower = " (edgecl's Python sync client against adb's C one)" if transfer < 0.9 else ""
        lines.append(f"- {link}: {ratio} x, goal >= {GOAL_RATIO} {met}; the transfer alone is {transfer} x{slower}"
                     + ("" if ratio >= GOAL_RATIO else
                        " -- the rest is the verification `adb push` does not do: the on-device sha256 of "
                        "everything pushed (one OpenSSL pass) and the two shell round trips (check; verify and "
                        "rename), which weigh most when the link itself is this fast"))
    return "Verdict (this run):\n" + "\n".join(lines)


if __name__ == "__main__":
    main()
