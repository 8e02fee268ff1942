"""``edgecl doctor``: what will work on a phone and what will not, with the fix for each.

``collect`` gathers ``DoctorFacts`` in a few shell round trips (the profile probe, one batch for
storage, Python, counters, battery, rails, thermal and memory); ``verdicts`` turns facts into one
``Check`` per line and is pure, so every verdict is testable from facts alone. ``adb_check`` covers
the adb server and the device's state before anything else can be asked. A session can run when
the device is ready, the storage root is writable and a runner is available (the device's Python
with a training runtime, or the native runner).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from android_harness.adb_server import DeviceEntry, ServerAddress
from android_harness.android_device import AndroidDevice
from android_harness.battery_parse import BatteryState, parse_dumpsys_battery
from android_harness.rail_parse import NoRailsError, parse_rails
from android_harness.discovery import READY, discover
from android_harness.profile import DeviceProfile, parse_meminfo_total
from android_harness.shell_quote import quote
from android_harness.storage_space import parse_df_available
from android_harness.errors import DeviceError, PowerError

OK, WARN, FAIL, INFO = "ok", "warn", "fail", "info"
POWER_STATS_SERVICE = "android.hardware.power.stats.IPowerStats/default"
MIN_SDK = 26                   # Android 8: Termux's Python and adb's shell v2 are both there
MIN_PYTHON = (3, 10)
LOW_FREE_BYTES = 500 * 2**20
LOW_AVAILABLE_RAM = 512 * 2**20
HOT_C = 45.0
RUNTIMES = ("executorch", "onnxruntime")
PY_PROBE = ("import sys, importlib.util as u; print(sys.version.split()[0]); "
            "print(' '.join(m for m in ('numpy', 'executorch', 'onnxruntime') if u.find_spec(m)))")
STOP_CHARGING = ("unplug the USB cable and use adb over Wi-Fi (`adb tcpip 5555`, then `adb connect <phone-ip>:5555`), "
                 "or a hub that cuts VBUS; `dumpsys battery unplug` (which edgecl runs) only hides the charger, "
                 "charging goes on")


@dataclass(frozen=True)
class Check:
    """One line of the doctor's screen."""

    name: str
    verdict: str          # ok | warn | fail | info
    found: str
    fix: str = ""
    blocks_session: bool = False


@dataclass
class DoctorFacts:
    """What the phone says about itself (raw enough to judge, parsed enough to test)."""

    profile: DeviceProfile
    release: str = ""
    storage_writable: bool = False
    storage_error: str = ""
    storage_free: int | None = None
    python_version: str = ""
    python_modules: list[str] = field(default_factory=list)
    runner_deployed: bool = False
    counters: dict[str, str] = field(default_factory=dict)      # current_now / voltage_now / charge_counter raw
    battery: BatteryState | None = None
    rails: list[str] | None = None                              # ODPM rail names; None = no IPowerStats
    rails_error: str = ""                                       # why the IPowerStats dump could not be read
    thermal_c: float | None = None
    mem_total: int = 0
    mem_available: int = 0


def adb_check(serial: str | None, server: ServerAddress | None = None) -> tuple[Check, str | None]:
    """The adb server (never started here) and the device's state; the serial to probe when it is ready."""
    server = server or ServerAddress.from_env()
    if not server.is_up():
        return Check("adb", FAIL, f"no adb server on {server.host}:{server.port}",
                     "start one with `adb start-server` (Android platform-tools), or set ANDROID_ADB_SERVER_PORT to "
                     "the port of yours", True), None
    try:
        entries = discover(server)
    except DeviceError as exc:
        return Check("adb", FAIL, str(exc), "restart the server: `adb kill-server && adb start-server`", True), None
    return adb_verdict(entries, serial)


STATE_FIXES = {
    "unauthorized": "unlock the phone and accept the 'Allow USB debugging?' prompt (if none shows: Developer options "
                    "> Revoke USB debugging authorisations, then replug)",
    "offline": "replug the cable, or `adb reconnect offline`; toggle USB debugging to restart adbd",
    "no permissions": "add a udev rule for the phone's USB vendor id (Linux) and replug",
}


def adb_verdict(entries: list[DeviceEntry], serial: str | None) -> tuple[Check, str | None]:
    """The adb line from the server's device list (pure): which device, and whether it is ready."""
    chosen = [e for e in entries if e.serial == serial] if serial else entries
    if serial and not chosen:
        seen = ", ".join(f"{e.serial} ({e.state})" for e in entries) or "none"
        return Check("adb", FAIL, f"{serial} is not attached; devices: {seen}",
                     "check the cable (a data cable, not charge-only), or `adb connect HOST:PORT` over Wi-Fi", True), None
    ready = [e for e in chosen if e.state == READY]
    if len(ready) > 1:
        return Check("adb", FAIL, f"{len(ready)} devices ready ({', '.join(e.serial for e in ready)})",
                     "pick one with --serial (or ANDROID_SERIAL)", True), None
    if ready:
        e = ready[0]
        return Check("adb", OK, f"{e.serial}: authorised, state device ({e.model or 'model unknown'})"), e.serial
    if not chosen:
        return Check("adb", FAIL, "no device attached", "attach a phone with USB debugging on (Settings > Developer "
                     "options), or start a virtual one with `edgecl vphone start`", True), None
    e = chosen[0]
    return Check("adb", FAIL, f"{e.serial}: state {e.state}", STATE_FIXES.get(e.state, "replug the phone"), True), None


def _int(text: str) -> int | None:
    text = text.strip()
    return int(text) if re.fullmatch(r"-?\d+", text) else None


def rail_facts(dump: str) -> tuple[list[str] | None, str]:
    """(rail names, "") from the IPowerStats dump; (None, "") on a phone without rails; (None, why)
    when the dump could not be read (cut short, another command's output)."""
    try:
        return sorted({r.rail for r in parse_rails(dump).rails}), ""
    except NoRailsError:
        return None, ""
    except PowerError as exc:
        return None, str(exc)


def collect(device: AndroidDevice) -> DoctorFacts:
    """Probe the phone afresh (profile), then one batch of shell commands for everything else."""
    p = device.refresh_profile()
    root = p.storage_root
    probe_file = f"{root}/.edgecl-doctor-probe"
    py = p.python_cmd
    py_cmd = f"{quote(py)} -c {quote(PY_PROBE)} 2>&1" if py else "true"
    counters = [p.current_now_path, p.voltage_now_path, p.charge_counter_path]
    cnt_cmd = "; ".join(f"echo \"$(cat {quote(c)} 2>/dev/null)\"" if c else "echo" for c in counters)
    res = device.batch([
        ["getprop", "ro.build.version.release"],
        f"mkdir -p {quote(root)} && echo ok > {quote(probe_file)} && rm -f {quote(probe_file)}",
        f"df -k {quote(root)} 2>/dev/null",
        py_cmd,
        f"test -f {quote(root + '/runner/edgecl_device.pyz')}",
        cnt_cmd,
        ["dumpsys", "battery"],
        f"dumpsys {POWER_STATS_SERVICE} 2>&1",
        f"cat {quote(p.thermal_path)} 2>/dev/null" if p.thermal_path else "true",
        ["cat", p.meminfo_path],
    ], check=False, timeout=60, idempotent=True)
    release, write, df, pyv, runner, cnt, battery, rails, thermal, mem = res
    facts = DoctorFacts(profile=p, release=release.stdout.strip(), storage_writable=write.ok,
                        storage_error=(write.stderr or write.stdout).strip(), storage_free=parse_df_available(df.stdout),
                        runner_deployed=runner.ok)
    lines = pyv.stdout.strip().splitlines()
    if py and pyv.ok and lines:
        facts.python_version = lines[0].strip()
        facts.python_modules = lines[1].split() if len(lines) > 1 else []
    facts.counters = dict(zip(("current_now", "voltage_now", "charge_counter"), cnt.stdout.split("\n")))
    try:
        facts.battery = parse_dumpsys_battery(battery.stdout)
    except PowerError:
        facts.battery = None
    facts.rails, facts.rails_error = rail_facts(rails.stdout)
    raw_t = _int(thermal.stdout) if p.thermal_path else None
    if raw_t is not None:
        facts.thermal_c = raw_t / (1000.0 if p.thermal_unit == "mC" else 10.0)
    facts.mem_total = parse_meminfo_total(mem.stdout)
    m = re.search(r"^MemAvailable:\s+(\d+)\s*kB", mem.stdout, flags=re.M)
    facts.mem_available = int(m.group(1)) * 1024 if m else 0
    return facts


def _python_check(f: DoctorFacts) -> Check:
    if not f.profile.python_cmd:
        return Check("python", WARN, "no python3 on the device's PATH (stock Android has none)",
                     "the Python runner needs Termux (F-Droid) with `pkg install python` and numpy, executorch or "
                     "onnxruntime; or use the native runner")
    if not f.python_version:
        return Check("python", WARN, f"{f.profile.python_cmd} is there but did not run", "run it by hand with "
                     f"`edgecl shell -- {f.profile.python_cmd} -V` to see why")
    version = tuple(int(x) for x in re.findall(r"\d+", f.python_version)[:2])
    missing = [m for m in ("numpy",) if m not in f.python_modules]
    runtimes = [m for m in RUNTIMES if m in f.python_modules]
    found = f"{f.profile.python_cmd} {f.python_version}; modules: {', '.join(f.python_modules) or 'none of numpy/executorch/onnxruntime'}"
    if version < MIN_PYTHON:
        return Check("python", WARN, found, f"the runner needs Python >= {'.'.join(map(str, MIN_PYTHON))}")
    if missing or not runtimes:
        need = missing + ([] if runtimes else ["executorch or onnxruntime"])
        return Check("python", WARN, found, f"install {', '.join(need)} for the device's python (Termux: pip install ...)")
    return Check("python", OK, found + f" (runtimes: {', '.join(runtimes)})")


def native_runner_check(f: DoctorFacts) -> Check:
    """The native C++ runner: built on this host for the phone's ABI (cached) and pushed by `edgecl run`."""
    from android_harness.native import NativeBuildError
    from android_harness.native.toolchain import toolchain

    abi = f.profile.abi or "unknown"
    try:
        toolchain(abi).check()
    except NativeBuildError as exc:
        return Check("native runner", FAIL, f"cannot be built here for ABI {abi}", str(exc))
    return Check("native runner", OK, f"buildable here for {abi}; `edgecl run` pushes it with the model "
                 "(ExecuTorch sessions)", "")


def _power_check(f: DoctorFacts) -> Check:
    p = f.profile
    if not p.current_now_path:
        return Check("power counters", WARN, "no power_supply with a readable current_now",
                     "energy cannot be measured from the fuel gauge: run with power.enabled = false, or set "
                     "current_now_path in a profile TOML (device.profile) if the phone keeps it elsewhere")
    raw = {k: v.strip() for k, v in f.counters.items()}
    readable = [k for k, v in raw.items() if _int(v) is not None]
    found = (f"{p.power_supply_dir}: " + ", ".join(f"{k}={raw.get(k) or '?'}" for k in ("current_now", "voltage_now",
                                                                                       "charge_counter"))
             + f"; current in {p.current_unit}, positive when {p.current_positive_when} ({p.convention_source})")
    if "current_now" not in readable or "voltage_now" not in readable:
        return Check("power counters", WARN, found, "current_now/voltage_now are not readable by the shell user on "
                     "this phone: energy cannot be measured (power.enabled = false), ODPM rails may still work")
    if p.convention_source.startswith("default"):
        return Check("power counters", WARN, found, "the sign is a guess: run `edgecl doctor` again while the phone "
                     "discharges (cable out), or set current_positive_when in a profile TOML (device.profile)")
    return Check("power counters", OK, found)


def _rails_check(f: DoctorFacts) -> Check:
    rails = f.rails
    if rails:
        return Check("ODPM rails", OK, f"{len(rails)} rails: {', '.join(rails[:8])}" + (" ..." if len(rails) > 8 else ""))
    if f.rails_error:
        return Check("ODPM rails", WARN, f"`dumpsys {POWER_STATS_SERVICE}` unreadable: {f.rails_error}",
                     "energy falls back to the battery counters until the dump reads; run "
                     f"`edgecl shell dumpsys {POWER_STATS_SERVICE}` to see it")
    return Check("ODPM rails", INFO, f"none (`dumpsys {POWER_STATS_SERVICE}` has no energy meter)",
                 "only Pixel 6 and later have on-device power monitors; energy comes from the fuel gauge")


def _charging_check(f: DoctorFacts) -> Check:
    b = f.battery
    if b is None:
        return Check("charging", WARN, "`dumpsys battery` unreadable", "energy samples cannot be checked for charging")
    chargers = [n for n, on in (("AC", b.ac_powered), ("USB", b.usb_powered), ("wireless", b.wireless_powered)) if on]
    found = (f"{b.level}% {b.status_name}, " + (f"on {'+'.join(chargers)} power" if chargers else "no charger")
             + (" (state frozen by `dumpsys battery unplug/set`)" if b.updates_stopped else ""))
    if b.status in (2, 5) or chargers:
        return Check("charging", WARN, found, STOP_CHARGING)
    return Check("charging", OK, found)


def verdicts(f: DoctorFacts) -> list[Check]:
    """One check per line, in the order a user fixes them."""
    p = f.profile
    out = [Check("device", INFO, f"{p.model or '?'} ({'SIMULATED virtual phone' if p.simulated else 'real phone'}), "
                                 f"build {p.fingerprint or '?'}")]
    abi_ok = p.abi in ("arm64-v8a", "x86_64")
    out.append(Check("ABI", OK if abi_ok else WARN, p.abi or "unknown",
                     "" if abi_ok else "the native runner is built for arm64-v8a; a 32-bit or unknown ABI needs "
                                       "`edgecl runner build --abi <abi>` or the Python runner"))
    sdk_ok = p.sdk >= MIN_SDK
    out.append(Check("Android", OK if sdk_ok else WARN, f"Android {f.release or '?'} (SDK {p.sdk})",
                     "" if sdk_ok else f"tested from SDK {MIN_SDK} (Android 8) on; older phones may lack shell v2 or Termux"))
    free = f.storage_free
    if not f.storage_writable:
        out.append(Check("storage", FAIL, f"{p.storage_root} not writable: {f.storage_error or 'permission denied'}",
                         "the storage root must be writable by the shell user (/data/local/tmp is on stock phones); "
                         "set storage_root in a profile TOML (device.profile)", True))
    elif free is not None and free < LOW_FREE_BYTES:
        out.append(Check("storage", WARN, f"{p.storage_root} writable, {free / 2**20:.0f} MB free",
                         f"free space (>= {LOW_FREE_BYTES / 2**20:.0f} MB keeps exports, shards and checkpoints); "
                         "each session is checked against what it will write before it starts"))
    else:
        out.append(Check("storage", OK, f"{p.storage_root} writable"
                         + (f", {free / 2**30:.1f} GB free" if free is not None else ", free space unknown")))
    python = _python_check(f)
    native = native_runner_check(f)
    out += [python, native]
    runnable = python.verdict == OK or native.verdict == OK
    out.append(Check("runner", OK if runnable else FAIL,
                     ("the Python runner " + ("is deployed" if f.runner_deployed else "will be pushed by `edgecl run`"))
                     if python.verdict == OK else ("the native runner" if native.verdict == OK else "no runner can run here"),
                     "" if runnable else "install Python with numpy and a runtime (Termux), or build the native runner",
                     not runnable))
    out.append(_power_check(f))
    out.append(_rails_check(f))
    out.append(_charging_check(f))
    t = f.thermal_c
    out.append(Check("thermal", INFO if t is None else (OK if t < HOT_C else WARN),
                     "no readable thermal zone" if t is None else f"{t:.1f} °C ({p.thermal_path})",
                     "" if t is None or t < HOT_C else "let the phone cool (screen off, no charger): a hot phone "
                                                        "throttles, which changes timing and energy"))
    ram_ok = f.mem_available >= LOW_AVAILABLE_RAM
    out.append(Check("RAM", OK if ram_ok else WARN, f"{f.mem_total / 2**30:.1f} GB total, "
                     f"{f.mem_available / 2**30:.2f} GB available",
                     "" if ram_ok else "close apps: the replay memory (EM + SB) must fit miro.ram_share of what is free"))
    return out


def session_can_run(checks: list[Check]) -> bool:
    return not any(c.blocks_session and c.verdict == FAIL for c in checks)


def diagnose(serial: str | None = None, server: ServerAddress | None = None) -> tuple[str | None, list[Check]]:
    """Every check for the named (or only) device; (serial or None, checks)."""
    first, ready = adb_check(serial, server)
    if ready is None:
        return None, [first]
    device = AndroidDevice.open(ready, server)
    try:
        facts = collect(device)
    except DeviceError as exc:
        return ready, [first, Check("probe", FAIL, str(exc), "see the message; `edgecl shell` runs commands by hand", True)]
    return ready, [first] + verdicts(facts)
