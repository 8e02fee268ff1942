"""Power service: the device-side sampler started/stopped detached and the unplug/reset guard (the
host reads what it writes: ``pipeline.energy``; standalone traces: ``pipeline.energy.standalone``).

The sampler runs ON the phone and writes power.csv (and rails.txt where the phone has ODPM rails)
under the storage root, so a USB cut loses no sample; the host only starts it, renews its lease,
asks it to stop and pulls the files. A phone without Python (a stock phone) gets the shell-only
sampler (``power_shell.py``), a first-class path: it samples the same counters and rails, stamps
CLOCK_BOOTTIME (aligned with events through their ``t_boot``), and bounds itself the same way.
Bounded by the session: the sampler drains and stops when the session's result.json appears, when
asked, or when the host stops renewing its lease (a killed host never leaves it running).
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
from typing import TYPE_CHECKING, Iterator

from android_harness import device_scripts as scripts
from android_harness.battery_parse import BatteryState, parse_dumpsys_battery
from android_harness.power_shell import shell_sampler_script
from android_harness.power_units import CHARGING_INTO_A, EXTERNAL_POWER_STATUS
from android_harness.rail_parse import NoRailsError, parse_rails
from android_harness.shell_quote import detached, quote
from android_harness.errors import AdbError, DeviceError, PowerError

if TYPE_CHECKING:
    from android_harness.android_device import AndroidDevice

log = logging.getLogger(__name__)

SAMPLER_PY = Path(__file__).parent / "device" / "sampler.py"
REMOTE_SAMPLER_PY = "runner/edgecl_sampler.py"
REMOTE_SAMPLER_SH = "runner/edgecl_sampler.sh"
START_TIMEOUT_S = 10.0
STOP_TIMEOUT_S = 5.0
POLL_S = 0.1
POWER_STATS_SERVICE = "android.hardware.power.stats.IPowerStats/default"
IIO_ENERGY_GLOB = "/sys/bus/iio/devices/iio:device*/energy_value"
UNPLUG_SETTLE_S = 3.0          # bound on the wait for the fuel gauge to report the battery after `unplug`
LEASE_S = 120.0                # the sampler drains and stops this long after the host's last renewal
RENEW_S = 15.0
DRAIN_REFRESHES = 2            # gauge refreshes sampled past the end (a gauge reports a period late)
DRAIN_MAX_S = 40.0
RAIL_PERIOD_S = 1.0


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
            "temp": f"{d}/temp", "energy_counter": f"{d}/energy_now"}


@dataclass(frozen=True)
class RailSource:
    """How this phone's ODPM rails are read: iio ``energy_value`` files (cheap) or a command."""

    files: tuple[str, ...] = ()
    cmd: str | None = None
    rails: int = 0


_RAIL_SOURCES: dict[tuple[str, str], RailSource | None] = {}


def detect_rails(device: "AndroidDevice") -> RailSource | None:
    """The phone's ODPM rails (Pixel 6 and later), or None; probed once per device build."""
    key = (device.serial, device.profile.fingerprint)
    if key in _RAIL_SOURCES:
        return _RAIL_SOURCES[key]
    iio, hal = device.batch([f"for f in {IIO_ENERGY_GLOB}; do [ -r \"$f\" ] && echo \"$f\"; done; true",
                             ["dumpsys", POWER_STATS_SERVICE]], check=False, timeout=30, idempotent=True)
    source = None
    files = tuple(ln.strip() for ln in iio.stdout.splitlines() if ln.strip())
    if files:
        text = device.shell(["cat", *files], check=False, timeout=20).stdout
        source = _rail_source(device, text, files=files)
    if source is None:
        source = _rail_source(device, hal.stdout, cmd=f"dumpsys {POWER_STATS_SERVICE}")
    _RAIL_SOURCES[key] = source
    return source


def _rail_source(device: "AndroidDevice", text: str, *, files: tuple[str, ...] = (), cmd: str | None = None
                 ) -> RailSource | None:
    """The source if ``text`` parses; a phone without rails is None quietly, an unreadable dump loudly
    (the session falls back to the battery counters, and the log says why)."""
    try:
        return RailSource(files=files, cmd=cmd, rails=len(parse_rails(text).rails))
    except NoRailsError:
        return None
    except PowerError as exc:
        log.warning("[%s] ODPM rails unreadable (%s), energy comes from the battery counters: %s",
                    device.serial, cmd or " ".join(files), exc)
        return None


class PowerSampler:
    """One detached sampler writing ``remote_csv`` (and ``rails.txt`` beside it when the phone has
    ODPM rails). Mobly-style service: ``stop`` never raises; pause/resume are no-ops because the
    sampler lives on the device and survives a USB cut (its lease outlasts one)."""

    def __init__(self, device: "AndroidDevice", remote_csv: str, rate_hz: float = 10.0,
                 seconds: float | None = None, use_shell: bool | None = None, *, rails: bool = True,
                 end_file: str | None = "", lease_s: float = LEASE_S) -> None:
        if not 0 < rate_hz <= 1000:
            raise PowerError(f"sampler rate must be in (0, 1000] Hz, got {rate_hz}")
        self.device, self.remote_csv, self.rate_hz, self.seconds = device, remote_csv, rate_hz, seconds
        self.use_shell = (device.profile.python_cmd is None) if use_shell is None else use_shell
        base = remote_csv.rsplit("/", 1)[0]
        self.remote_dir = base
        self.remote_rails = f"{base}/rails.txt"
        self.pid_file = f"{remote_csv}.pid"
        self.stop_file = f"{remote_csv}.stop"
        self.lease_file = f"{remote_csv}.lease"
        self.log_file = f"{remote_csv}.log"
        self.end_file = f"{base}/result.json" if end_file == "" else end_file
        self.lease_s = lease_s
        self.want_rails = rails
        self.rail_source: RailSource | None = None
        self.pid: int | None = None
        self._renewals = 0
        self._halt = threading.Event()
        self._keepalive: threading.Thread | None = None

    def _launch_command(self) -> str:
        files = counter_files(self.device)
        if self.use_shell:
            script = self.device.storage_path(REMOTE_SAMPLER_SH)
            return detached(f"sh {quote(script)}", self.log_file)
        py = self.device.profile.python_cmd or "python3"
        args = [py, self.device.storage_path(REMOTE_SAMPLER_PY), "--out", self.remote_csv, "--rate",
                f"{self.rate_hz:g}", "--stop-file", self.stop_file, "--pid-file", self.pid_file,
                "--lease-file", self.lease_file, "--lease-s", f"{self.lease_s:g}",
                "--drain-refreshes", str(DRAIN_REFRESHES), "--drain-max-s", f"{DRAIN_MAX_S:g}"]
        if self.end_file:
            args += ["--end-file", self.end_file]
        for col, path in files.items():
            args += [f"--{col.replace('_', '-')}", path]
        if self.seconds:
            args += ["--seconds", f"{self.seconds:g}"]
        rs = self.rail_source
        if rs is not None:
            args += ["--rails-out", self.remote_rails, "--rails-period", f"{RAIL_PERIOD_S:g}"]
            args += [a for f in rs.files for a in ("--rails-file", f)] if rs.files else ["--rails-cmd", rs.cmd or ""]
        return detached(" ".join(quote(a) for a in args), self.log_file)

    def _install(self) -> None:
        self.device.shell(["mkdir", "-p", self.remote_dir, self.device.storage_path("runner")])
        self.rail_source = detect_rails(self.device) if self.want_rails else None
        if self.use_shell:
            rs = self.rail_source
            text = shell_sampler_script(
                counter_files(self.device), self.remote_csv, self.rate_hz, self.stop_file, self.pid_file, self.seconds,
                end_file=self.end_file or None, lease_file=self.lease_file, lease_s=self.lease_s,
                drain_refreshes=DRAIN_REFRESHES, drain_max_s=DRAIN_MAX_S,
                rails_out=self.remote_rails if rs is not None else None,
                rail_files=list(rs.files) if rs is not None else None, rail_cmd=rs.cmd if rs is not None else None,
                rail_period_s=RAIL_PERIOD_S)
            self.device.adb.push(io.BytesIO(text.encode()), self.device.storage_path(REMOTE_SAMPLER_SH), mode=0o755)
        else:
            self.device.push(SAMPLER_PY, self.device.storage_path(REMOTE_SAMPLER_PY))

    def _renew(self) -> None:
        self._renewals += 1
        self.device.shell(scripts.write_word(self.lease_file, str(self._renewals)), check=False)

    def _keep_alive(self) -> None:
        while not self._halt.wait(min(RENEW_S, self.lease_s / 4)):
            try:
                self._renew()
            except Exception as exc:            # a USB cut: the lease outlasts it, or the sampler stops
                log.debug("[%s] lease renewal failed: %s", self.device.serial, exc)

    def start(self) -> None:
        """Install, launch detached, and wait for the sampler's pid file (it writes it once running)."""
        self._install()
        self.device.shell(["rm", "-f", self.pid_file, self.stop_file])
        self._renew()
        # The launching shell waits for the pid file: by then the sampler has left the shell's
        # process group, which adbd (and the vphone) hang up when this stream closes.
        self.device.shell(f"{self._launch_command()}\n{scripts.wait_written(self.pid_file, START_TIMEOUT_S)}",
                          timeout=START_TIMEOUT_S + 20)
        deadline = time.monotonic() + START_TIMEOUT_S
        while time.monotonic() < deadline:
            res = self.device.shell(scripts.read_file(self.pid_file), check=False, idempotent=True)
            if res.stdout.strip().isdigit():
                self.pid = int(res.stdout.strip())
                self._halt.clear()
                self._keepalive = threading.Thread(target=self._keep_alive, name="sampler-lease", daemon=True)
                self._keepalive.start()
                return
            time.sleep(POLL_S)
        tail = self.device.shell(scripts.log_tails([self.log_file], 5), check=False).stdout.strip()
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
        """Wait for the sampler to finish by itself (``seconds``, or a drain); True if it did."""
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if not self.is_alive():
                return True
            time.sleep(min(POLL_S, max(deadline - time.monotonic(), 0.01)))
        return not self.is_alive()

    def stop(self, drain: bool = True) -> None:
        """Ask the sampler to stop -- after ``DRAIN_REFRESHES`` more gauge refreshes when ``drain``
        (the gauge reports the session's last period one period late), else at once -- wait for it,
        SIGTERM then SIGKILL as a last resort. Never raises."""
        self._halt.set()
        if self._keepalive is not None:
            self._keepalive.join(timeout=RENEW_S + 5)
            self._keepalive = None
        if self.pid is None:
            return
        try:
            term = "" if drain else f"; kill -TERM {self.pid} 2>/dev/null; true"
            self.device.shell(scripts.write_word(self.stop_file, "drain" if drain else "now") + term, check=False)
            if not self.wait(DRAIN_MAX_S + 5.0 if drain else STOP_TIMEOUT_S):
                log.warning("[%s] sampler %d did not stop; SIGTERM", self.device.serial, self.pid)
                self.device.shell(f"kill -TERM {self.pid} 2>/dev/null; true", check=False)
                if not self.wait(STOP_TIMEOUT_S):
                    log.warning("[%s] sampler %d ignored SIGTERM; killing it", self.device.serial, self.pid)
                    self.device.shell(["kill", "-KILL", str(self.pid)], check=False)
        except Exception as exc:           # the phone or its adb server is gone: one line, the sampler stops by itself
            log.warning("[%s] the power sampler was not stopped (%s); it stops by itself when its lease runs out",
                        self.device.serial, exc)
        finally:
            self.pid = None

    def pause(self) -> None:
        """Nothing to do: the sampler keeps running on the device while USB is away."""

    def resume(self) -> None:
        """Nothing to do (see ``pause``)."""

    def pull(self, local: Path) -> Path:
        """power.csv to ``local`` (and rails.txt beside it where rails were sampled)."""
        local.parent.mkdir(parents=True, exist_ok=True)
        try:
            self.device.pull(self.remote_csv, local)
            if self.rail_source is not None:
                self.device.pull(self.remote_rails, local.with_name("rails.txt"))
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


def wait_on_battery(device: "AndroidDevice", timeout_s: float = UNPLUG_SETTLE_S) -> bool:
    """Wait until the fuel gauge reports the phone on battery (no charger status, no current into the
    battery): after ``unplug`` it reports the charger for up to one refresh (1 s on many phones), and a
    session or idle baseline shorter than that would hold only that state and its energy be refused.
    False on timeout (a phone that charges on through ``unplug``: its traces say so), or at once without
    readable counters (the sampler then says why)."""
    try:
        files = counter_files(device)
    except PowerError:
        return False
    read = f"cat {quote(files['status'])} {quote(files['current'])} 2>/dev/null"
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        values = [v.strip() for v in device.shell(read, check=False).stdout.splitlines() if v.strip()]
        if len(values) == 2:
            try:
                into_a = device.profile.current_ua(float(values[1])) * 1e-6
            except ValueError:
                into_a = 0.0
            if values[0] not in EXTERNAL_POWER_STATUS and into_a <= CHARGING_INTO_A:
                return True
        time.sleep(0.2)
    return False


@contextlib.contextmanager
def battery_unplugged(device: "AndroidDevice", settle_s: float = UNPLUG_SETTLE_S) -> Iterator[None]:
    """``dumpsys battery unplug`` before, ``dumpsys battery reset`` after -- always, even on an error
    or Ctrl-C. Unplug only fakes "no charger" to the OS; the phone may still charge (the trace's
    charging detection is what tells). Nothing is measured before the fuel gauge publishes the new
    state (``wait_on_battery``, up to ``settle_s``)."""
    _battery_cmd(device, "unplug")
    failed = True
    try:
        wait_on_battery(device, settle_s)
        yield
        failed = False
    finally:
        with _sigint_deferred():
            try:
                _battery_cmd(device, "reset")
            except Exception as exc:
                server = device.adb.server
                log.error("[%s] the phone still believes it is unplugged (%s): once it is reachable run `adb -H %s -P %d "
                          "-s %s shell dumpsys battery reset`", device.serial, exc, server.host, server.port, device.serial)
                if not failed:
                    raise


@contextlib.contextmanager
def power_sampling(device: "AndroidDevice", remote_csv: str, rate_hz: float = 10.0,
                   unplug: bool = True) -> Iterator[PowerSampler]:
    """The sampler around a block of work (and the unplug/reset guard around both). On exit it drains:
    a fuel gauge reports the last period's power one refresh late, so the sampler keeps reading
    until the gauge refreshed ``DRAIN_REFRESHES`` more times (the session's end is then covered)."""
    guard = battery_unplugged(device) if unplug else contextlib.nullcontext()
    with guard:
        sampler = PowerSampler(device, remote_csv, rate_hz)
        sampler.start()
        try:
            yield sampler
        finally:
            sampler.stop(drain=True)


def battery_state(device: "AndroidDevice") -> BatteryState | None:
    """``dumpsys battery`` parsed, or None where the service cannot be read."""
    res = device.shell(["dumpsys", "battery"], check=False, timeout=20)
    try:
        return parse_dumpsys_battery(res.stdout)
    except PowerError:
        return None
