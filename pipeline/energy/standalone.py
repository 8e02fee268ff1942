"""Standalone power traces (the idle baseline before a run, ``edgecl trace``): recorded with the
phone's sampler (``android_harness.power``), then read the way sessions' traces are read.

Host code: it sits above the power service, which only samples and pulls the files.
"""
from __future__ import annotations

import contextlib
import logging
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from android_harness.battery_parse import BatteryState
from android_harness.power import STOP_TIMEOUT_S, PowerSampler, battery_state, battery_unplugged
from pipeline.energy.loading import load_trace
from pipeline.energy.rails import read_rails_log
from pipeline.energy.session import idle_baseline
from pipeline.energy.trace import PowerTrace
from pipeline.errors import PowerError

if TYPE_CHECKING:
    from android_harness.android_device import AndroidDevice

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class StandaloneTrace:
    """A trace recorded on its own (not around a session): the files, the normalised trace, the
    battery before it and the ODPM rails' mean powers where the phone has them."""

    local_csv: Path
    remote_csv: str
    trace: PowerTrace
    battery_before: BatteryState | None = None     # `dumpsys battery` before unplug: level, charger, temp
    rails_w: dict[str, float] | None = None        # ODPM mean power per rail, where the phone has it
    local_rails: Path | None = None                # rails.txt beside power.csv, where sampled


def record_trace(device: AndroidDevice, seconds: float, out_dir: Path, rate_hz: float = 10.0,
                 name: str | None = None, unplug: bool = True, use_shell: bool | None = None,
                 sleep: Callable[[float], None] = time.sleep) -> StandaloneTrace:
    """Sample for ``seconds`` (the sampler stops itself, so a USB cut cannot make it run on), pull,
    normalise with the device profile; ODPM rails, where the phone has them, go to rails.txt."""
    if seconds <= 0:
        raise PowerError(f"trace length must be positive, got {seconds} s")
    name = name or time.strftime("trace-%Y%m%d-%H%M%S")
    remote = device.storage_path("traces", name, "power.csv")
    before = battery_state(device)
    guard = battery_unplugged(device) if unplug else contextlib.nullcontext()
    with guard:
        sampler = PowerSampler(device, remote, rate_hz, seconds=seconds, use_shell=use_shell, end_file=None)
        sampler.start()
        try:
            sleep(seconds)
            sampler.wait(timeout_s=STOP_TIMEOUT_S + 2.0)
        finally:
            sampler.stop(drain=False)
    local = sampler.pull(Path(out_dir) / "power.csv")
    rails_path = local.with_name("rails.txt") if sampler.rail_source is not None else None
    rails_w = None
    if rails_path is not None:
        series = read_rails_log(rails_path)
        span = float(series.t[-1] - series.t[0])
        if len(series) >= 2 and span > 0:
            rails_w = {r: float(series.energy_uws[-1, k] - series.energy_uws[0, k]) / 1e6 / span
                       for k, r in enumerate(series.rails)}
    return StandaloneTrace(local, remote, load_trace(local, device.profile), before, rails_w, rails_path)


def measure_idle_baseline(device: AndroidDevice, out_dir: Path, seconds: float = 10.0,
                          rate_hz: float = 10.0, unplug: bool = True) -> tuple[float | None, StandaloneTrace]:
    """Mean power (W) with nothing of ours running, measured before a run and reported beside it
    (``out_dir/power.csv`` is what the report reads; ``idle_baseline`` reads it the
    way sessions are read). None, with a warning, if unusable: a baseline is no reason to stop the run."""
    rec = record_trace(device, seconds, out_dir, rate_hz, name=time.strftime("idle-%Y%m%d-%H%M%S"), unplug=unplug)
    try:
        return idle_baseline(Path(out_dir), device.profile).power_w, rec
    except PowerError as exc:
        log.warning("[%s] idle baseline not usable: %s", device.serial, exc)
        return None, rec
