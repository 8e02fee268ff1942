"""Power service: the device-side sampler started/stopped detached, the unplug/reset guard, and
standalone traces (idle baseline, ``edgecl trace``).

The sampler runs ON the phone and writes power.csv under the storage root, so a USB cut loses no
sample; the host only starts it, stops it and pulls the file. A phone without Python gets the
shell-only sampler (``sampler_shell.py``), whose timestamps are CLOCK_BOOTTIME (no monotonic clock
in sh), good for standalone traces but not for aligning with events.
"""
from __future__ import annotations

import contextlib
import io
import logging
import signal
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterator

import numpy as np

from android_harness.battery_parse import (BatteryState, RailSnapshot, parse_dumpsys_battery, parse_power_stats,
                                           rail_power_w)
from android_harness.power_shell import shell_sampler_script
from android_harness.shell_quote import quote
from pipeline.errors import AdbError, DeviceError, PowerError

if TYPE_CHECKING:
    from android_harness.android_device import AndroidDevice
    from pipeline.energy import PowerTrace

log = logging.getLogger(__name__)

SAMPLER_PY = Path(__file__).parent / "device" / "sampler.py"
REMOTE_SAMPLER_PY = "runner/edgecl_sampler.py"
REMOTE_SAMPLER_SH = "runner/edgecl_sampler.sh"
START_TIMEOUT_S = 10.0
STOP_TIMEOUT_S = 5.0
POLL_S = 0.1
POWER_STATS_SERVICE = "android.hardware.power.stats.IPowerStats/default"
UNPLUG_SETTLE_S = 1.0          # at least one fuel-gauge refresh after `unplug`


def detached(cmd: str, log_file: str) -> str:
    """Shell text that runs ``cmd`` in its own session (adbd hangs up the shell's process group when
    the stream closes), immune to SIGHUP, with no terminal fds held open."""
    tail = f" >{quote(log_file)} 2>&1 </dev/null &"
    return (f"if command -v setsid >/dev/null 2>&1; then setsid nohup {cmd}{tail} "
            f"else nohup {cmd}{tail} fi")


def counter_files(device: "AndroidDevice") -> dict[str, str]:
    """The profile's counter files, by power.csv column; PowerError if the battery was not found."""
    p = device.profile
    if not p.power_supply_dir or not p.current_now_path:
        raise PowerError(f"[{device.serial}] no readable battery power_supply folder with current_now was "
                         "found on this device; set power_supply_dir/current_now_path in a profile override")
    d = p.power_supply_dir.rstrip("/")
    return {"current": p.current_now_path, "voltage": p.voltage_now_path or f"{d}/voltage_now",
            "charge_counter": p.charge_counter_path or f"{d}/charge_counter",
            "capacity": p.capacity_path or f"{d}/capacity", "status": p.status_path or f"{d}/status",
            "temp": f"{d}/temp"}


class PowerSampler:
    """One detached sampler writing ``remote_csv``. Mobly-style service: ``stop`` never raises;
    pause/resume are no-ops because the sampler lives on the device and survives a USB cut."""

    def __init__(self, device: "AndroidDevice", remote_csv: str, rate_hz: float = 10.0,
                 seconds: float | None = None, use_shell: bool | None = None) -> None:
        if not 0 < rate_hz <= 1000:
            raise PowerError(f"sampler rate must be in (0, 1000] Hz, got {rate_hz}")
        self.device, self.remote_csv, self.rate_hz, self.seconds = device, remote_csv, rate_hz, seconds
        self.use_shell = (device.profile.python_cmd is None) if use_shell is None else use_shell
        base = remote_csv.rsplit("/", 1)[0]
        self.remote_dir = base
        self.pid_file = f"{remote_csv}.pid"
        self.stop_file = f"{remote_csv}.stop"
        self.log_file = f"{remote_csv}.log"
        self.pid: int | None = None

    def _launch_command(self) -> str:
        files = counter_files(self.device)
        if self.use_shell:
            script = self.device.storage_path(REMOTE_SAMPLER_SH)
            return detached(f"sh {quote(script)}", self.log_file)
        py = self.device.profile.python_cmd or "python3"
        args = [py, self.device.storage_path(REMOTE_SAMPLER_PY), "--out", self.remote_csv, "--rate",
                f"{self.rate_hz:g}", "--stop-file", self.stop_file, "--pid-file", self.pid_file]
        for col, path in files.items():
            args += [f"--{col.replace('_', '-')}", path]
        if self.seconds:
            args += ["--seconds", f"{self.seconds:g}"]
        return detached(" ".join(quote(a) for a in args), self.log_file)

    def _install(self) -> None:
        self.device.shell(["mkdir", "-p", self.remote_dir, self.device.storage_path("runner")])
        if self.use_shell:
            text = shell_sampler_script(counter_files(self.device), self.remote_csv, self.rate_hz,
                                        self.stop_file, self.pid_file, self.seconds)
            self.device.adb.push(io.BytesIO(text.encode()), self.device.storage_path(REMOTE_SAMPLER_SH), mode=0o755)
        else:
            self.device.push(SAMPLER_PY, self.device.storage_path(REMOTE_SAMPLER_PY))

    def start(self) -> None:
        """Install, launch detached, and wait for the sampler's pid file (it writes it once running)."""
        self._install()
        self.device.shell(["rm", "-f", self.pid_file, self.stop_file])
        # The launching shell waits for the pid file: by then the sampler has left the shell's
        # process group, which adbd (and the vphone) hang up when this stream closes.
        tries = int(START_TIMEOUT_S / POLL_S)
        self.device.shell(f"{self._launch_command()}\ni=0; while [ ! -s {quote(self.pid_file)} ] && "
                          f"[ $i -lt {tries} ]; do sleep {POLL_S}; i=$((i + 1)); done; true",
                          timeout=START_TIMEOUT_S + 20)
        deadline = time.monotonic() + START_TIMEOUT_S
        while time.monotonic() < deadline:
            res = self.device.shell(f"cat {quote(self.pid_file)} 2>/dev/null", check=False, idempotent=True)
            if res.stdout.strip().isdigit():
                self.pid = int(res.stdout.strip())
                return
            time.sleep(POLL_S)
        tail = self.device.shell(f"tail -n 5 {quote(self.log_file)} 2>/dev/null", check=False).stdout.strip()
        raise PowerError(f"[{self.device.serial}] power sampler did not start within {START_TIMEOUT_S:g} s"
                         + (f": {tail}" if tail else ""))

    def is_alive(self) -> bool:
        if self.pid is None:
            return False
        try:
            return self.device.shell(["kill", "-0", str(self.pid)], check=False, idempotent=True).ok
        except DeviceError:
            return False

    def wait(self, timeout_s: float) -> bool:
        """Wait for a sampler started with ``seconds`` to finish by itself; True if it did."""
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if not self.is_alive():
                return True
            time.sleep(min(0.5, max(deadline - time.monotonic(), 0.01)))
        return not self.is_alive()

    def stop(self) -> None:
        """Stop file + SIGTERM, wait, SIGKILL as a last resort. Never raises."""
        if self.pid is None:
            return
        try:
            self.device.shell(f"touch {quote(self.stop_file)}; kill -TERM {self.pid} 2>/dev/null; true", check=False)
            deadline = time.monotonic() + STOP_TIMEOUT_S
            while time.monotonic() < deadline and self.is_alive():
                time.sleep(POLL_S)
            if self.is_alive():
                log.warning("[%s] sampler %d ignored SIGTERM; killing it", self.device.serial, self.pid)
                self.device.shell(["kill", "-KILL", str(self.pid)], check=False)
        except Exception:
            log.exception("[%s] stopping the power sampler failed", self.device.serial)
        finally:
            self.pid = None

    def pause(self) -> None:
        """Nothing to do: the sampler keeps running on the device while USB is away."""

    def resume(self) -> None:
        """Nothing to do (see ``pause``)."""

    def pull(self, local: Path) -> Path:
        local.parent.mkdir(parents=True, exist_ok=True)
        try:
            self.device.pull(self.remote_csv, local)
        except AdbError as exc:
            raise PowerError(f"[{self.device.serial}] cannot pull {self.remote_csv}: {exc}") from exc
        return local


def _battery_cmd(device: "AndroidDevice", verb: str) -> None:
    res = device.shell(["dumpsys", "battery", verb], check=False, timeout=20)
    if not res.ok:
        res = device.shell(["cmd", "battery", verb], check=False, timeout=20)
    if not res.ok:
        raise PowerError(f"[{device.serial}] `dumpsys battery {verb}` failed (exit {res.exit_code}): "
                         f"{(res.stderr or res.stdout).strip()[:200]}")


@contextlib.contextmanager
def _sigint_deferred() -> Iterator[None]:
    """Hold a second Ctrl-C while the battery is being reset (main thread only)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    pending: list[int] = []
    old = signal.signal(signal.SIGINT, lambda s, f: pending.append(s))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, old)
        if pending:
            raise KeyboardInterrupt


@contextlib.contextmanager
def battery_unplugged(device: "AndroidDevice", settle_s: float = UNPLUG_SETTLE_S) -> Iterator[None]:
    """``dumpsys battery unplug`` before, ``dumpsys battery reset`` after -- always, even on an error
    or Ctrl-C. Unplug only fakes "no charger" to the OS; the phone may still charge (the trace's
    charging detection is what tells). ``settle_s`` lets the fuel gauge publish the new state
    before anything is measured."""
    _battery_cmd(device, "unplug")
    failed = True
    try:
        time.sleep(settle_s)
        yield
        failed = False
    finally:
        with _sigint_deferred():
            try:
                _battery_cmd(device, "reset")
            except Exception as exc:
                log.error("[%s] `dumpsys battery reset` failed: %s; run it by hand", device.serial, exc)
                if not failed:
                    raise


@contextlib.contextmanager
def power_sampling(device: "AndroidDevice", remote_csv: str, rate_hz: float = 10.0,
                   unplug: bool = True, tail_s: float = 0.0) -> Iterator[PowerSampler]:
    """The sampler around a block of work (and the unplug/reset guard around both). ``tail_s`` keeps
    sampling after the block: a fuel gauge reports the last phase's power up to one refresh late."""
    guard = battery_unplugged(device) if unplug else contextlib.nullcontext()
    with guard:
        sampler = PowerSampler(device, remote_csv, rate_hz)
        sampler.start()
        try:
            yield sampler
            time.sleep(tail_s)
        finally:
            sampler.stop()


@dataclass(frozen=True)
class StandaloneTrace:
    local_csv: Path
    remote_csv: str
    trace: "PowerTrace"
    battery_before: BatteryState | None = None     # `dumpsys battery` before unplug: level, charger, temp
    rails_w: dict[str, float] | None = None        # ODPM mean power per rail, where the phone has it


def battery_state(device: "AndroidDevice") -> BatteryState | None:
    """``dumpsys battery`` parsed, or None where the service cannot be read."""
    res = device.shell(["dumpsys", "battery"], check=False, timeout=20)
    try:
        return parse_dumpsys_battery(res.stdout)
    except PowerError:
        return None


def rail_snapshot(device: "AndroidDevice") -> RailSnapshot | None:
    """Cumulative ODPM rail energies (Pixel 6 and later), or None on phones without them."""
    res = device.shell(["dumpsys", POWER_STATS_SERVICE], check=False, timeout=30)
    try:
        return parse_power_stats(res.stdout)
    except PowerError:
        return None


def record_trace(device: "AndroidDevice", seconds: float, out_dir: Path, rate_hz: float = 10.0,
                 name: str | None = None, unplug: bool = True, use_shell: bool | None = None,
                 sleep: Callable[[float], None] = time.sleep) -> StandaloneTrace:
    """Sample for ``seconds`` (the sampler stops itself, so a USB cut cannot make it run on), pull,
    normalise with the device profile."""
    from pipeline.energy import load_trace

    if seconds <= 0:
        raise PowerError(f"trace length must be positive, got {seconds} s")
    name = name or time.strftime("trace-%Y%m%d-%H%M%S")
    remote = device.storage_path("traces", name, "power.csv")
    before = battery_state(device)
    rails0 = rail_snapshot(device)
    rails1 = None
    guard = battery_unplugged(device) if unplug else contextlib.nullcontext()
    with guard:
        sampler = PowerSampler(device, remote, rate_hz, seconds=seconds, use_shell=use_shell)
        t0 = time.monotonic()
        sampler.start()
        try:
            sleep(seconds)
            sampler.wait(timeout_s=STOP_TIMEOUT_S + 2.0)
        finally:
            sampler.stop()
            if rails0 is not None:
                rails1, t1 = rail_snapshot(device), time.monotonic()
    rails_w = rail_power_w(rails0, rails1, t1 - t0) if rails0 is not None and rails1 is not None else None
    local = sampler.pull(Path(out_dir) / "power.csv")
    return StandaloneTrace(local, remote, load_trace(local, device.profile), before, rails_w)


def measure_idle_baseline(device: "AndroidDevice", out_dir: Path, seconds: float = 10.0,
                          rate_hz: float = 10.0, unplug: bool = True) -> tuple[float | None, StandaloneTrace]:
    """Mean power (W) with nothing of ours running, measured before a run and reported beside it
    (``out_dir/power.csv`` is what the report reads). None, with a warning, if the phone was charging:
    a baseline is no reason to stop the run."""
    rec = record_trace(device, seconds, out_dir, rate_hz, name=time.strftime("idle-%Y%m%d-%H%M%S"), unplug=unplug)
    # Leading "charging" samples are the fuel gauge still reporting the period before the unplug;
    # the baseline starts at the first sample on battery (charging later on still refuses it).
    on_battery = np.flatnonzero(~rec.trace.charging)
    t0 = float(rec.trace.t[on_battery[0]]) if len(on_battery) else None
    try:
        return rec.trace.mean_power_w(t0), rec
    except PowerError as exc:
        log.warning("[%s] idle baseline not usable: %s", device.serial, exc)
        return None, rec
