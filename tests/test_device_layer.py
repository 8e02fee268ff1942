"""Host-only parts of the device layer and the vphone: quoting, server address, unit/sign
inference, the power model, adb key checks and the phone's Android commands in its sandbox (no adb
server needed)."""
from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from android_harness.adb_server import ServerAddress
from android_harness.deploy import _parse_sha256sum
from android_harness.storage_space import parse_df_available, parse_df_size
from android_harness.profile import infer_convention, parse_getprop, parse_meminfo_total
from android_harness.shell_quote import join
from android_harness.rail_parse import parse_power_stats
from android_harness.vphone.auth import AdbPublicKey, parse_public_key
from android_harness.vphone.home import create_home, props_for
from android_harness.vphone.power import BatteryModel, CpuMeter, read_ctl
from android_harness.vphone.presets import PRESETS, get_preset
from android_harness.vphone.sandbox import Sandbox
from android_harness.vphone.system_services import SystemServices
from pipeline.errors import ConfigError, DeviceError

NASTY = ["a b", "$(echo pwned)", "`echo pwned`", "x'y\"z", "new\nline", "*", "-rf", "; echo pwned", "\\", ""]


def test_join_round_trips_through_a_real_shell() -> None:
    out = subprocess.run(["sh", "-c", "printf '%s\\0' " + join(NASTY)], capture_output=True, check=True).stdout
    assert out.split(b"\0")[:-1] == [a.encode() for a in NASTY]
    with pytest.raises(ValueError):
        join(["a\0b"])


def test_server_address_from_env() -> None:
    assert ServerAddress.from_env({"ADB_SERVER_SOCKET": "tcp:10.0.0.2:5555"}) == ServerAddress("10.0.0.2", 5555)
    assert ServerAddress.from_env({"ADB_SERVER_SOCKET": "tcp:6000"}) == ServerAddress("127.0.0.1", 6000)
    assert ServerAddress.from_env({"ANDROID_ADB_SERVER_PORT": "5099"}) == ServerAddress("127.0.0.1", 5099)
    assert ServerAddress.from_env({}) == ServerAddress("127.0.0.1", 5037)
    with pytest.raises(DeviceError, match="ADB_SERVER_SOCKET"):
        ServerAddress.from_env({"ADB_SERVER_SOCKET": "localfilesystem:/x"})


@pytest.mark.parametrize("raw,status,expected", [
    (1_200_000, "Charging", ("uA", "charging")),        # Pixel
    (-450_000, "Discharging", ("uA", "charging")),
    (1200, "Charging", ("mA", "charging")),             # Samsung
    (326_171, "Discharging", ("uA", "discharging")),    # old Qualcomm/Xiaomi
    (-326_171, "Charging", ("uA", "discharging")),
    (-8000, "Discharging", ("uA", "charging")),         # an idle phone's 8 mA in uA (0.03 W), not 8 A
    (-450, "Discharging", ("mA", "charging")),          # Samsung discharging
])
def test_infer_convention(raw: int, status: str, expected: tuple[str, str]) -> None:
    assert infer_convention(raw, status)[:2] == expected


def test_infer_convention_uses_the_hosts_plausibility_rule() -> None:
    """The probe and the trace normalisation share one rule (power_units.current_unit), with the
    battery's own voltage in whatever unit it reports."""
    for volts_raw in (3_870_000, 3870, None):
        unit, sign, how = infer_convention(-8000, "Discharging", volts_raw)
        assert (unit, sign) == ("uA", "charging") and "P=V*I" in how, how
    unit, _, how = infer_convention(-3950, "Discharging", 3_900_000)    # 0.0154 W as uA, 15.4 W as mA
    assert unit == "uA" and "the trace decides" in how
    assert infer_convention(0, "Full")[0] == "uA"


def test_parsers() -> None:
    assert parse_getprop("[ro.a]: [x y]\n[b]: []\n") == {"ro.a": "x y", "b": ""}
    assert parse_meminfo_total("MemTotal:        7823412 kB\nMemFree: 1 kB\n") == 7823412 * 1024
    df = "Filesystem 1K-blocks Used Available Use% Mounted on\n/dev/block/dm-5 115000000 2000 9876 1% /data\n"
    assert parse_df_available(df) == 9876 * 1024 and parse_df_available("garbage") is None
    assert parse_df_size(df) == 115000000 * 1024 and parse_df_size("garbage") is None
    assert parse_df_size(df.replace(" 115000000 ", " - ")) is None
    h = "a" * 64
    assert _parse_sha256sum(f"{h}  x y\n{h} *b\nsha256sum: c: No such file\n") == {"x y": h, "b": h}


def _published_ua(preset_name: str, tmp: Path, cpu_s: float, unplugged: bool) -> float:
    preset = get_preset(preset_name).with_overrides(gauge_noise_ma=0.0)
    home = create_home(tmp / preset_name, preset, "t")
    model = BatteryModel(preset, home)
    ctl = {"unplugged": unplugged, "set": {}}
    for _ in range(10):
        model.step(0.5, cpu_s * 0.5, ctl)
    model.publish(ctl)
    raw = int((home.battery_dir / "current_now").read_text())
    ua = raw * (1000 if preset.current_unit == "mA" else 1)
    return ua if preset.current_positive_when == "charging" else -ua


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_power_model_units_sign_and_load(name: str, tmp_path: Path) -> None:
    p = get_preset(name)
    idle = _published_ua(name, tmp_path / "i", 0.0, unplugged=True)
    busy = _published_ua(name, tmp_path / "b", 2.0, unplugged=True)
    v = 3.45 + 0.75 * 0.8                                  # open-circuit volts at 80 % charge
    still_charging = 0.0 if p.unplug_stops_charging else p.charge_ma * 1000   # real-phone behaviour
    assert idle == pytest.approx(still_charging - p.idle_w / v * 1e6, rel=0.02)
    assert busy == pytest.approx(still_charging - (p.idle_w + 2 * p.active_w_per_core) / v * 1e6, rel=0.02)
    plugged = _published_ua(name, tmp_path / "p", 0.0, unplugged=False)
    assert plugged == pytest.approx(p.charge_ma * 1000 - p.idle_w / v * 1e6, rel=0.02)
    assert all(src for src in p.sources.values())


def test_cpu_meter_counts_only_the_phones_processes() -> None:
    burn = [sys.executable, "-c", "import time\nt=time.process_time()\nwhile time.process_time()-t<0.6: pass"]
    ours = subprocess.Popen(["setsid", *burn])        # setsid: it leaves its session, still ours
    meter = CpuMeter(lambda pid: pid == ours.pid)
    used = meter.sample()                             # a process new to the meter counts from its start
    other = subprocess.Popen(burn)
    while os.waitid(os.P_PID, ours.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is None:
        time.sleep(0.2)
        used += meter.sample()
    used += meter.sample()                            # ended, not yet reaped: its last CPU is still in /proc
    ours.wait()
    other.wait()
    assert 0.55 <= used < 0.9, used                   # its 0.6 s burn (in whole ticks) and its start, however loaded
    meter2 = CpuMeter(lambda pid: pid == os.getpid())
    meter2.sample()
    t = time.process_time()
    while time.process_time() - t < 0.3:
        pass
    total = meter2.sample()
    by_uid = meter2.by_uid
    assert list(by_uid) == [os.getuid()] and by_uid[os.getuid()] == total > 0.2, by_uid   # the uid its namespace shows


def test_adb_key_signature_check(tmp_path: Path) -> None:
    """A signature by adb-shell's signer (the adb client's scheme) verifies; a changed token or
    signature does not; malformed key lines are refused."""
    from adb_shell.auth.keygen import keygen
    from adb_shell.auth.sign_pythonrsa import PythonRSASigner

    keygen(str(tmp_path / "k"))
    pub = (tmp_path / "k.pub").read_text()
    key = parse_public_key(pub)
    assert key.exponent == 65537 and key.modulus.bit_length() == 2048
    signer = PythonRSASigner(pub, (tmp_path / "k").read_text())
    token = os.urandom(20)
    sig = signer.Sign(token)
    assert key.verify(token, sig)
    assert not key.verify(bytes(20), sig)
    assert not key.verify(token, sig[:-1] + bytes([sig[-1] ^ 1]))
    assert not AdbPublicKey(key.modulus + 2, key.exponent).verify(token, sig)
    for bad in ("", "!!!", "QUFBQQ== x@y"):
        with pytest.raises(ValueError):
            parse_public_key(bad)


def test_phone_commands_in_the_sandbox(tmp_path: Path) -> None:
    """getprop, dumpsys battery (unplug/set/reset) and the PowerStats dump, run by the phone's own
    mksh + toybox as uid 2000 inside a booted sandbox, without Python."""
    preset = get_preset("pixel7")
    home = create_home(tmp_path / "h", preset, "t")
    model = BatteryModel(preset, home)
    model.publish({"unplugged": False, "set": {}})
    model.step(1.0, 1.0, {}, {2000: 0.75, 10123: 0.25})
    model.publish_rails()
    box = Sandbox.boot(home, preset)
    try:
        SystemServices(box.init_pid, home.run, props_for(preset, "t")).publish(home.system)

        def run(cmd: str) -> subprocess.CompletedProcess:
            return subprocess.run(box.shell_argv(cmd), env=box.shell_env(), capture_output=True, text=True, timeout=30)

        assert "USB powered: true" in run("dumpsys battery").stdout
        assert run("cmd battery unplug").returncode == 0
        out = run("dumpsys battery").stdout
        assert "UPDATES STOPPED" in out and "USB powered: false" in out
        run("dumpsys battery set level 42")
        assert "level: 42" in run("dumpsys battery").stdout
        assert read_ctl(home) == {"unplugged": True, "set": {"level": 42}}
        run("dumpsys battery reset")
        assert "UPDATES STOPPED" not in run("dumpsys battery").stdout
        assert run("dumpsys battery set bogus 1").returncode != 0
        assert run("getprop edgecl.vphone").stdout == "1\n"
        assert run("getprop ro.product.cpu.abi").stdout == "arm64-v8a\n"
        assert run("getprop no.such.prop fallback").stdout == "fallback\n"
        assert run("id -u; command -v python3 python; echo $?").stdout == "2000\n1\n"
        import hashlib
        want = hashlib.sha256((home.system / "etc" / "passwd").read_bytes()).hexdigest()
        r = run("sha256sum /system/etc/passwd /nope; echo rc=$?")
        assert r.stdout == f"{want}  /system/etc/passwd\nrc=1\n"
        assert r.stderr == "sha256sum: /nope: No such file or directory\n"
        snap = parse_power_stats(run("dumpsys android.hardware.power.stats.IPowerStats/default").stdout)
        assert [r.rail for r in snap.rails] == [r.rail for r in preset.odpm_rails]
        big = snap.by_rail()["S2M_VDD_CPUCL2"].energy_uws          # 1 s with one busy core
        assert big == pytest.approx((0.006 + 0.5 * preset.active_w_per_core) * 1e6, abs=10)
        active = 0.5 * preset.active_w_per_core * 1e6                 # its CPU-driven part, by uid
        assert snap.attribution_uws["CPUCL2"] == pytest.approx({2000: 0.75 * active, 10123: 0.25 * active}, abs=10)
        assert "GPU" not in snap.attribution_uws and snap.consumers_uws["GPU"] == pytest.approx(0.004e6, abs=10)
    finally:
        box.kill()


def test_unknown_preset_and_override_fields() -> None:
    with pytest.raises(ConfigError, match="pixel7"):
        get_preset("nokia3310")
    with pytest.raises(ConfigError, match="warp"):
        get_preset("pixel7").with_overrides(warp=1)


def test_sysfs_attributes_change_in_place(tmp_path: Path) -> None:
    """Like kernel attributes: a reader holding the file open (the device sampler's pread) sees
    every new value, and a shorter value never leaves a stale tail that breaks parsing."""
    from android_harness.vphone.power import write_attribute

    path = tmp_path / "current_now"
    write_attribute(path, "-1778480")
    fd = os.open(path, os.O_RDONLY)
    try:
        for value in ("-99000", "5", "Not charging", "-1234567890"):
            write_attribute(path, value)
            assert os.pread(fd, 64, 0).decode().strip() == value
            assert os.pread(fd, 64, 0).endswith(b"\n")
    finally:
        os.close(fd)


class _ShellOutput:
    """What one adb shell round trip returned (the poll's script is the device's; its output is fixed here)."""

    def __init__(self, stdout: str) -> None:
        self.stdout, self.stderr, self.exit_code = stdout, "", 0


class _OneReplyDevice:
    serial = "fixed-reply"

    def __init__(self, stdout: str) -> None:
        self.reply = _ShellOutput(stdout)

    def shell(self, cmd: str, **kw) -> _ShellOutput:
        return self.reply


def test_events_created_between_the_size_check_and_the_tail_are_not_missing() -> None:
    """The poll sizes events.jsonl, then tails it: a runner that creates it in between (a served session
    starting) gave "missing" with events read, and the watchdog ended a healthy session (events_missing)."""
    from android_harness.runner_choice import RunnerChoice
    from android_harness.session import OUT_MARK, SessionDriver, SessionHandle, _Watchdog

    line = '{"seq":0,"t":1.0,"t_boot":1.0,"type":"session_start"}\n'
    device = _OneReplyDevice(f"S\nmissing\n{OUT_MARK}\n{OUT_MARK}\n{line}")
    driver = SessionDriver(device, runner=RunnerChoice("native", "runner/edgecl-runner"))
    handle = SessionHandle("s", "/data/local/tmp/edgecl/sessions/s")
    p = driver.poll(handle)
    assert [e["seq"] for e in p.events] == [0] and p.events_size == len(line) and not p.truncated
    assert _Watchdog().check(handle, p) is None


def test_the_paused_runner_limit_comes_from_the_environment_or_is_refused_in_one_line(monkeypatch) -> None:
    """A run waits STOPPED_MAX_S on a paused runner, or $EDGECL_PAUSED_LIMIT_S (one who pauses it on purpose)."""
    from android_harness.session import PAUSED_LIMIT_ENV, STOPPED_MAX_S, paused_limit_s

    monkeypatch.delenv(PAUSED_LIMIT_ENV, raising=False)
    assert paused_limit_s() == STOPPED_MAX_S
    monkeypatch.setenv(PAUSED_LIMIT_ENV, "600")
    assert paused_limit_s() == 600.0
    for bad in ("ten", "0", "-5", "nan"):
        monkeypatch.setenv(PAUSED_LIMIT_ENV, bad)
        with pytest.raises(ConfigError, match=f"{PAUSED_LIMIT_ENV}='{bad}': a number of seconds above 0"):
            paused_limit_s()


class _LocalShellDevice:
    """Runs the host's shell text in /bin/sh under a local storage root (the device's own shell semantics)."""

    serial = "local-sh"

    def __init__(self, root: Path) -> None:
        from types import SimpleNamespace
        self.root = root
        self.profile = SimpleNamespace(storage_root=str(root))

    def storage_path(self, *parts: str) -> str:
        return str(self.root.joinpath(*parts))

    def shell(self, cmd: str, **kw) -> _ShellOutput:
        out = subprocess.run(["sh", "-c", cmd], capture_output=True, text=True, timeout=60)
        reply = _ShellOutput(out.stdout)
        reply.stderr, reply.exit_code = out.stderr, out.returncode
        return reply


def test_the_host_and_a_serving_runner_writing_runner_pid_together_never_collide(tmp_path: Path) -> None:
    """A served submit copies server.pid into the session's runner.pid while the server, taking the
    session, writes runner.pid itself (temp then rename). They shared the temp name runner.pid.tmp, so
    one's rename took the other's file and the runner died with FileNotFoundError (a CI failure)."""
    import threading
    from android_harness.device.fileio import write_text_atomic
    from android_harness.runner_choice import RunnerChoice
    from android_harness.session import SERVER_PID, SessionDriver

    device = _LocalShellDevice(tmp_path)
    (tmp_path / "runner").mkdir()
    (tmp_path / SERVER_PID).write_text(str(os.getpid()))   # a live "server" so the submit starts none
    session = tmp_path / "sessions" / "s"
    session.mkdir(parents=True)
    driver = SessionDriver(device, served=True, runner=RunnerChoice("native", "runner/edgecl-runner"))
    stop, errors = threading.Event(), []

    def server() -> None:
        while not stop.is_set():
            try:
                write_text_atomic(session / "runner.pid", str(os.getpid()))
            except OSError as exc:
                errors.append(exc)
                return

    thread = threading.Thread(target=server)
    thread.start()
    try:
        for _ in range(40):
            driver._submit("s", "")
    finally:
        stop.set()
        thread.join()
    assert not errors, errors[0]
    assert (session / "runner.pid").read_text() == str(os.getpid())


def test_a_phone_named_with_its_server_is_looked_up_there_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """`edgecl run --serial S@HOST:PORT` listed every default server first, and the user's tcp:5037 one
    (autostarted on loopback, as the adb CLI does) was started behind a run that never used it."""
    from android_harness import pool
    from android_harness.adb_server import DeviceEntry

    asked: list[ServerAddress] = []

    def listing(server: ServerAddress) -> list[DeviceEntry]:
        asked.append(server)
        return [DeviceEntry("S", "device", "lab-phone")]

    monkeypatch.setattr(pool, "list_devices", listing)
    default, lab = ServerAddress("127.0.0.1", 5037, autostart=True), ServerAddress.parse("10.0.0.5:5037")
    (member,) = pool.resolve_pool([default], ["S@10.0.0.5:5037"])
    assert member.server == lab and asked == [lab]
    asked.clear()
    assert [m.server for m in pool.resolve_pool([default], ["S@10.0.0.5:5037", "S"])] == [lab, default]
    assert asked == [default, lab]                  # a phone named without its server needs the defaults
