"""Power sampler overhead on the device: CPU time of the sampler process (from /proc/<pid>/stat over a
window) as a share of one core, and achieved vs requested rate, at 10 Hz and 50 Hz (Python sampler)
and 10 Hz (sh-only fallback, children's CPU included).

Runs against the phone named by ANDROID_SERIAL, else a virtual phone it starts behind a private
adb server. On the vphone the sampler is a real process on this host's CPU reading the vphone's
counter files, so its CPU share is real for this machine (a phone's little core is slower);
the device itself is simulated and labelled so.

Run: ``python bench/sampler.py [--window 15]``
"""
from __future__ import annotations

import argparse
import os
import platform
import statistics
import tempfile
import time
from pathlib import Path

from rich.progress import track

from android_harness import vphone
from android_harness.adb import Adb
from android_harness.adb_server import ServerAddress, start_private_server
from android_harness.android_device import AndroidDevice
from android_harness.power import PowerSampler
from pipeline.energy import read_power_csv
from results_io import command_line, write_results_json, write_section
from android_harness.vphone.manager import free_port

GOAL_CPU_10HZ = 3.0          # percent of one core
WARMUP_S = 1.5




def cpu_ticks_and_uptime(device: AndroidDevice, pid: int, with_children: bool) -> tuple[int, float, int]:
    """(utime+stime[+cutime+cstime] ticks, uptime s, CLK_TCK) read in one shell call on the device."""
    out = device.shell(f"cat /proc/{pid}/stat; cat /proc/uptime; getconf CLK_TCK 2>/dev/null || echo 100").stdout
    stat, uptime, tck = out.strip().splitlines()[:3]
    fields = stat[stat.rfind(")") + 2:].split()
    ticks = int(fields[11]) + int(fields[12])
    if with_children:
        ticks += int(fields[13]) + int(fields[14])
    return ticks, float(uptime.split()[0]), int(tck)


def measure(device: AndroidDevice, rate: float, window: float, use_shell: bool, tmp: Path, tag: str) -> dict:
    remote = device.storage_path("bench", f"sampler-{tag}", "power.csv")
    device.shell(["rm", "-rf", remote.rsplit("/", 1)[0]])
    s = PowerSampler(device, remote, rate_hz=rate, use_shell=use_shell)
    s.start()
    try:
        time.sleep(WARMUP_S)
        c0, u0, tck = cpu_ticks_and_uptime(device, s.pid, use_shell)
        for _ in track(range(int(window * 4)), description=f"{tag}: {rate:g} Hz for {window:g} s", transient=True):
            time.sleep(0.25)
        c1, u1, _ = cpu_ticks_and_uptime(device, s.pid, use_shell)
    finally:
        s.stop()
    raw = read_power_csv(s.pull(tmp / f"{tag}.csv"))
    t = raw.t
    gaps = [b - a for a, b in zip(t, t[1:])]
    return {"cpu_pct": 100.0 * (c1 - c0) / tck / (u1 - u0), "achieved_hz": (len(t) - 1) / (t[-1] - t[0]),
            "gap_p99_ms": 1000 * sorted(gaps)[int(0.99 * (len(gaps) - 1))], "gap_median_ms": 1000 * statistics.median(gaps),
            "overruns": int(raw.meta.get("stopped_overruns", 0) or 0), "rows": len(t), "tick_s": 1 / tck}


def run(device: AndroidDevice, window: float, tmp: Path) -> list[dict]:
    sim = device.profile.simulated
    where = " (vphone: simulated device, host CPU)" if sim else f" ({device.profile.model})"
    results = {tag: measure(device, rate, window, shell, tmp, tag)
               for tag, rate, shell in (("py10", 10.0, False), ("py50", 50.0, False), ("sh10", 10.0, True))}
    for tag, r in results.items():
        print(f"{tag}: cpu {r['cpu_pct']:.3f}% of one core, {r['achieved_hz']:.2f} Hz achieved, "
              f"gap median {r['gap_median_ms']:.1f} ms p99 {r['gap_p99_ms']:.1f} ms, overruns {r['overruns']}")
    rows = []
    for tag, label, rate in (("py10", "python_10hz", 10), ("py50", "python_50hz", 50), ("sh10", "sh_10hz", 10)):
        r = results[tag]
        rows += [
            {"name": f"sampler_cpu_{label}{where}", "metric": "cpu share of one core", "value": round(r["cpu_pct"], 3),
             "unit": "%", "goal": f"<= {GOAL_CPU_10HZ:g}" if rate == 10 else ""},
            {"name": f"sampler_rate_{label}{where}", "metric": "achieved rate", "value": round(r["achieved_hz"], 3),
             "unit": "Hz", "goal": f"{rate} (requested)"},
            {"name": f"sampler_gap_p99_{label}{where}", "metric": "99th percentile sample gap",
             "value": round(r["gap_p99_ms"], 2), "unit": "ms", "goal": f"{1000 / rate:g} nominal"},
        ]
    rows.append({"name": "sampler_cpu_python_50hz_ratio_vs_python_10hz", "metric": "cpu ratio",
                 "value": round(results["py50"]["cpu_pct"] / max(results["py10"]["cpu_pct"], 1e-9), 3), "unit": "x",
                 "goal": ""})
    rows.append({"name": "sampler_cpu_sh_10hz_ratio_vs_python_10hz", "metric": "cpu ratio",
                 "value": round(results["sh10"]["cpu_pct"] / max(results["py10"]["cpu_pct"], 1e-9), 3), "unit": "x",
                 "goal": ""})
    return rows


def markdown(command: str, rows: list[dict], window: float) -> str:
    """This script's section of bench/RESULTS.md (between its markers)."""
    table = "\n".join(f"| {r['name']} | {r['value']} {r['unit']} | {r['goal']} |" for r in rows)
    return (f"## Power sampler overhead (bench/sampler.py)\n\n`{command}`\n\n"
            f"CPU time of the sampler process from /proc/<pid>/stat (sh fallback: with its `sleep` children) over "
            f"a {window:g} s window after {WARMUP_S:g} s warm-up, as a share of one core; achieved rate and sample "
            "gaps from the CSV it wrote. On the vphone the sampler is a real process on this 2-core shared host "
            "(simulated device).\n\n| figure | value | goal |\n|---|---|---|\n" + table)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--window", type=float, default=15.0, help="seconds of CPU accounting per configuration")
    args = ap.parse_args()
    command = command_line("sampler")
    print(f"command: {command}")
    print(f"host: {platform.platform()}, python {platform.python_version()}, cpus {os.cpu_count()}")
    with tempfile.TemporaryDirectory(prefix="edgecl-bench-sampler-") as tmp_s:
        tmp = Path(tmp_s)
        serial = os.environ.get("ANDROID_SERIAL")
        if serial:
            rows = run(AndroidDevice(Adb(serial, ServerAddress.from_env())), args.window, tmp)
        else:
            os.environ["EDGECL_HOME"] = str(tmp / "edgecl_home")
            port = free_port()
            server_proc = start_private_server(port)
            server = ServerAddress("127.0.0.1", port)
            info = vphone.start(server=server, base=tmp, home=tmp / "phone")
            try:
                rows = run(AndroidDevice(Adb(info.serial, server)), args.window, tmp)
            finally:
                vphone.stop(info, server, base=tmp)
                server_proc.kill()
                server_proc.wait(timeout=10)
    results = write_results_json("sampler", command, rows)
    write_section("sampler", markdown(command, rows, args.window))
    print(f"wrote {results} and {results.parents[1] / 'RESULTS.md'}")


if __name__ == "__main__":
    main()
