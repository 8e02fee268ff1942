"""The host side of the sampler service without a phone: which ODPM source it picks and what it
asks the samplers to do (a fake device answers the probe)."""
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace

import pytest

from android_harness import power
from android_harness.adb import ShellResult

DATA = Path(__file__).parent / "data" / "power"
IIO = str(DATA / "iio_energy_value_pixel6.txt")


@pytest.fixture(autouse=True)
def fresh_rail_probe_cache(monkeypatch):
    """Each test's fake phone is probed anew: the cache is keyed by fingerprint, and a fake's id-based
    fingerprint can repeat once an earlier fake is freed."""
    monkeypatch.setattr(power, "_RAIL_SOURCES", {})


@dataclass
class FakeDevice:
    """Answers the rail probe the way a phone would: a list of readable energy_value files, the
    HAL dump, and ``cat`` of those files."""

    iio_files: list[str]
    hal_text: str
    serial: str = "fake"
    calls: list[str] = field(default_factory=list)

    @property
    def profile(self):
        return SimpleNamespace(fingerprint=f"fp-{id(self)}", python_cmd="python3",
                               power_supply_dir="/sys/class/power_supply/battery",
                               current_now_path="/sys/class/power_supply/battery/current_now", voltage_now_path=None,
                               charge_counter_path=None, capacity_path=None, status_path=None, storage_root="/data/local/tmp/edgecl")

    def batch(self, cmds, **kw):
        self.calls += [str(c) for c in cmds]
        return [ShellResult("iio", "".join(f + "\n" for f in self.iio_files), "", 0),
                ShellResult("hal", self.hal_text, "", 0 if self.hal_text else 1)]

    def shell(self, cmd, **kw):
        self.calls.append(str(cmd))
        if isinstance(cmd, list) and cmd[0] == "cat":
            return ShellResult("cat", "".join(Path(f).read_text() for f in cmd[1:]), "", 0)
        return ShellResult(str(cmd), "", "", 0)

    def storage_path(self, *parts):
        return "/".join(["/data/local/tmp/edgecl", *parts])


def test_iio_files_are_preferred_to_dumpsys():
    dev = FakeDevice([IIO], (DATA / "ipowerstats_pixel6_hal2.txt").read_text())
    src = power.detect_rails(dev)
    assert src.files == (IIO,) and src.cmd is None and src.rails == 16
    assert power.detect_rails(dev) is src                    # probed once per device build


def test_dumpsys_when_no_readable_iio_and_none_without_odpm():
    dev = FakeDevice([], (DATA / "ipowerstats_pixel6_hal2.txt").read_text())
    src = power.detect_rails(dev)
    assert src.files == () and src.cmd == f"dumpsys {power.POWER_STATS_SERVICE}" and src.rails == 16
    assert power.detect_rails(FakeDevice([], (DATA / "ipowerstats_no_odpm.txt").read_text())) is None


def test_an_unreadable_rail_dump_falls_back_loudly(caplog):
    """A cut dump is not a phone without rails: the session falls back to the battery counters and
    the log says why (a phone without the service stays quiet)."""
    cut = (DATA / "ipowerstats_pixel6_hal2.txt").read_text()[:-80]
    with caplog.at_level("WARNING", logger=power.__name__):
        assert power.detect_rails(FakeDevice([], cut)) is None
        assert power.detect_rails(FakeDevice([], (DATA / "ipowerstats_no_odpm.txt").read_text())) is None
    assert [r.getMessage() for r in caplog.records] == [
        "[fake] ODPM rails unreadable (dumpsys android.hardware.power.stats.IPowerStats/default), energy comes from "
        "the battery counters: IPowerStats dump: the energy meter table has no end banner (output cut short?)"]


@pytest.mark.parametrize("use_shell", [False, True])
def test_sampler_is_told_its_bounds_and_rails(use_shell, monkeypatch):
    pushed = {}
    dev = FakeDevice([IIO], "")
    dev.adb = SimpleNamespace(push=lambda data, remote, mode=0o644: pushed.setdefault(remote, data.read().decode()))
    dev.push = lambda local, remote: pushed.setdefault(remote, "python sampler")
    s = power.PowerSampler(dev, "/data/local/tmp/edgecl/sessions/s1/power.csv", 10, use_shell=use_shell)
    s._install()
    cmd = s._launch_command()
    assert s.end_file == "/data/local/tmp/edgecl/sessions/s1/result.json"
    if use_shell:
        script = pushed["/data/local/tmp/edgecl/runner/edgecl_sampler.sh"]
        assert "sessions/s1/result.json" in script and "power.csv.lease" in script and "RAIL_MODE=files" in script
        assert IIO in script and "sessions/s1/rails.txt" in script
    else:
        for flag in ("--end-file", "--lease-file", "--lease-s", "--drain-refreshes", "--rails-out", "--rails-file"):
            assert flag in cmd
        assert IIO in cmd
