"""Parsers for dumpsys battery, the PowerStats HAL dump and perfetto android.power output, on the
test data in tests/data/power (its README says where each file came from)."""
from pathlib import Path

import numpy as np
import pytest

from android_harness.battery_parse import parse_dumpsys_battery
from android_harness.perfetto_parse import parse_perfetto_textproto, parse_trace_processor_counters
from android_harness.rail_parse import parse_power_stats, parse_rails, rail_power_w
from pipeline.errors import PowerError

DATA = Path(__file__).parent / "data" / "power"


def read(name):
    return (DATA / name).read_text()


def test_dumpsys_battery_pixel_on_usb():
    b = parse_dumpsys_battery(read("dumpsys_battery_pixel7_android14_usb.txt"))
    assert b.usb_powered and not b.ac_powered and b.plugged
    assert b.status == 2 and b.status_name == "Charging"
    assert b.voltage_mv == 4213 and b.voltage_v == pytest.approx(4.213)
    assert b.temperature_c == pytest.approx(28.7)
    assert b.charge_counter_uah == 3421000 and b.max_charging_current_ua == 500000
    assert not b.updates_stopped
    assert b.extra == {"Charging state": "1", "Charging policy": "1"}


def test_dumpsys_battery_after_unplug_is_frozen():
    b = parse_dumpsys_battery(read("dumpsys_battery_pixel7_android14_unplugged.txt"))
    assert b.updates_stopped and not b.plugged and b.status_name == "Discharging"


def test_dumpsys_battery_android10_without_dock_line():
    b = parse_dumpsys_battery(read("dumpsys_battery_android10_mi_a1.txt"))
    assert b.dock_powered is None and b.technology == "Li-poly" and b.level == 72


def test_dumpsys_battery_oem_lines_kept_verbatim():
    b = parse_dumpsys_battery(read("dumpsys_battery_samsung_oem_lines.txt"))
    assert b.ac_powered and b.charge_counter_uah == 3992000
    assert b.extra["current now"] == "1240" and b.extra["LED Charging"] == "true"
    assert b.extra["charge counter"] == "3992000"     # OEM duplicate in other case is not confused


def test_dumpsys_battery_from_the_vphone_shim_format():
    text = ("Current Battery Service state:\n  (UPDATES STOPPED -- use 'reset' to restart)\n  AC powered: false\n"
            "  USB powered: false\n  Wireless powered: false\n  Dock powered: false\n  Max charging current: 3000000\n"
            "  Max charging voltage: 5000000\n  Charge counter: 3484000\n  status: 3\n  health: 2\n  present: true\n"
            "  level: 80\n  scale: 100\n  voltage: 4050\n  temperature: 300\n  technology: Li-ion\n"
            "  edgecl vphone: simulated\n")
    b = parse_dumpsys_battery(text)
    assert b.updates_stopped and b.extra["edgecl vphone"] == "simulated"


@pytest.mark.parametrize("text,match", [
    ("Can't find service: battery\n", "header"),
    ("Current Battery Service state:\n  AC powered: maybe\n", "true/false"),
    ("Current Battery Service state:\n  AC powered: true\n  level: x\n", "integer"),
    ("Current Battery Service state:\n  AC powered: true\n", "missing"),
])
def test_dumpsys_battery_bad_input(text, match):
    with pytest.raises(PowerError, match=match):
        parse_dumpsys_battery(text)


def f32_step_uws(uws: float) -> float:
    """The HAL prints ``(float)energyUWs / 1000``: one float32 step at this magnitude, in uWs."""
    return float(np.spacing(np.float32(uws)))


def test_power_stats_rails():
    snap = parse_power_stats(read("ipowerstats_pixel6_hal2.txt"))
    rails = snap.by_rail()
    assert len(rails) == 16 and snap.elapsed_ms is None
    assert rails["S2S_VDD_G3D"].subsystem == "GPU" and rails["VSYS_PWR_RFFE"].subsystem == "Cellular"
    assert rails["S4M_VDD_CPUCL0"].subsystem == "CPU(little)"
    assert rails["S2M_VDD_CPUCL2"].energy_uws == pytest.approx(988731.44e3, abs=f32_step_uws(988731.44e3))
    assert snap.consumers_uws["CPUCL0"] == rails["S4M_VDD_CPUCL0"].energy_uws
    assert snap.consumers_uws["MODEM"] == pytest.approx(rails["VSYS_PWR_MODEM"].energy_uws
                                                        + rails["VSYS_PWR_RFFE"].energy_uws, abs=64)
    assert snap.consumers_uws["Wifi"] == snap.consumers_uws["BT"] == 0.0
    assert snap.attribution_uws == {"GPU": {0: 412080.0, 1000: 38419730.0, 1003: 9120450.0, 10148: 6231910.0,
                                            10203: 2207310.0},
                                    "TPU": {1000: 177200.0, 10148: 11894380.0}}


def test_power_stats_rows_are_the_hals_printf_formats():
    """Every row of the fixture is one of the HAL's formats, byte for byte (so the parser is tested
    against the real padding, not a hand-aligned approximation)."""
    text = read("ipowerstats_pixel6_hal2.txt") + read("ipowerstats_pixel6_hal2_delta.txt")
    snap = parse_power_stats(read("ipowerstats_pixel6_hal2.txt"))
    meter = {"  %32s   %14.2f mWs" % (f"[{r.rail}]:{r.subsystem}", r.energy_uws / 1000) for r in snap.rails}
    consumers = {"%-12s : %14.2f mWs" % (n, e / 1000) for n, e in snap.consumers_uws.items()}
    uids = {"  %10d - %14.2f mWs" % (u, e / 1000) for rows in snap.attribution_uws.values() for u, e in rows.items()}
    lines = set(text.splitlines())
    assert meter <= lines and consumers <= lines and uids <= lines
    assert "  %32s   %18s" % ("Channel", "Cumulative Energy") in lines
    assert "  %32s   %18s (%14s)" % ("Channel", "Cumulative Energy", "Delta   ") in lines


def test_power_stats_delta_and_rail_power():
    before = parse_power_stats(read("ipowerstats_pixel6_hal2.txt"))
    after = parse_power_stats(read("ipowerstats_pixel6_hal2_delta.txt"))
    assert after.elapsed_ms == 10012
    big = after.by_rail()["S2M_VDD_CPUCL2"]
    assert big.delta_uws == pytest.approx(15371.50e3)
    watts = rail_power_w(before, after, after.elapsed_ms / 1000)
    assert watts["S2M_VDD_CPUCL2"] == pytest.approx(15371.50 / 1000 / 10.012, rel=1e-4)
    assert watts["VSYS_PWR_DISPLAY"] == 0.0
    with pytest.raises(PowerError):
        rail_power_w(before, after, 0)
    with pytest.raises(PowerError, match="reset"):
        rail_power_w(after, before, 10.0)          # accumulators going down: a counter reset


def test_the_three_rail_forms_agree_on_a_rail():
    hal = parse_rails(read("ipowerstats_pixel6_hal2.txt")).by_rail()["S2M_VDD_CPUCL2"]
    fw = parse_rails(read("dumpsys_powerstats_framework_measurements.txt")).by_rail()["S2M_VDD_CPUCL2"]
    iio = parse_rails(read("iio_energy_value_pixel6.txt")).by_rail()["S2M_VDD_CPUCL2"]
    assert fw.energy_uws == iio.energy_uws == 988731440
    assert abs(hal.energy_uws - iio.energy_uws) <= f32_step_uws(iio.energy_uws)   # the HAL prints float32
    assert fw.subsystem == "CPU(big)" and fw.timestamp_ms == 5231204


def test_power_stats_absent():
    with pytest.raises(PowerError, match="no on-device power monitor"):
        parse_power_stats(read("ipowerstats_no_odpm.txt"))


def test_perfetto_textproto_and_trace_processor_agree():
    tp = parse_perfetto_textproto(read("perfetto_android_power.textproto"))
    assert tp.battery["current_ua"] == [(5231204518000, -450000.0), (5231454518000, -462500.0)]
    assert tp.battery["charge_counter_uah"][1][1] == 3199968
    assert tp.rail_subsystem == {"S4M_VDD_CPUCL0": "CPU(little)", "S2S_VDD_G3D": "GPU"}
    assert tp.rail_sampling_rate["S2S_VDD_G3D"] == 1000
    assert tp.rails["S4M_VDD_CPUCL0"] == [(5231204, 412873190.0), (5231454, 412998190.0)]
    csv = parse_trace_processor_counters(read("trace_processor_counters.csv"))
    assert [v for _, v in csv.battery["batt.current_ua"]] == [v for _, v in tp.battery["current_ua"]]
    assert [v for _, v in csv.rails["S2S_VDD_G3D"]] == [v for _, v in tp.rails["S2S_VDD_G3D"]]


def test_perfetto_bad_input():
    with pytest.raises(PowerError, match="android.power"):
        parse_perfetto_textproto("packet {\n  timestamp: 1\n}\n")
    with pytest.raises(PowerError, match="unclosed"):
        parse_perfetto_textproto("packet {\n  battery {\n")
    with pytest.raises(PowerError, match="columns"):
        parse_trace_processor_counters("a,b\n1,2\n")
