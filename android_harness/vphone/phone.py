"""Run one virtual phone in this process: adbd daemon + power model over a home folder."""
from __future__ import annotations

import asyncio
import json
import os
import signal
from pathlib import Path

from android_harness.vphone.daemon import bind_loopback, serve
from android_harness.vphone.home import create_home, props_for, write_atomic
from android_harness.vphone.power import BatteryModel, CpuMeter, run_power_model
from android_harness.vphone.presets import PhonePreset
from android_harness.vphone.services import VphoneContext


async def run_vphone(home_dir: Path, port: int, preset: PhonePreset, seed: int = 0) -> None:
    """Serve until SIGTERM/SIGINT. Writes ``<home>/run/daemon.json`` (pid, port, serial) once
    listening, which is how a starter learns the port when it asked for port 0."""
    signal.signal(signal.SIGHUP, signal.SIG_DFL)     # shells must not inherit an ignored SIGHUP
    sock = bind_loopback(port)
    bound = sock.getsockname()[1]
    serial = f"127.0.0.1:{bound}"
    home = create_home(home_dir, preset, serial)
    server = await serve(VphoneContext(home, serial, preset.link_mb_s * 1e6), props_for(preset, home.root, serial), sock)
    power = asyncio.ensure_future(run_power_model(BatteryModel(preset, home, seed=seed),
                                                  CpuMeter(serial), preset.gauge_period_s))
    write_atomic(home.run / "daemon.json", json.dumps(
        {"pid": os.getpid(), "port": bound, "serial": serial, "preset": preset.name,
         "home": str(home.root), "simulated": True}))
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    async with server:
        await stop.wait()
    power.cancel()
    (home.run / "daemon.json").unlink(missing_ok=True)
