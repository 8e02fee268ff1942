"""Units/sign normalisation on vendor-convention power.csv files, charging detection, staleness."""
from pathlib import Path

import numpy as np
import pytest

from pipeline.energy import CounterConvention, load_trace, normalise, parse_power_csv, read_power_csv
from pipeline.errors import PowerError

DATA = Path(__file__).parent / "data" / "power"
VENDORS = {  # file -> (unit, positive_when) the trace must be read with
    "power_pixel_uA_pos_charging.csv": ("uA", "charging"),
    "power_samsung_mA_pos_charging.csv": ("mA", "charging"),
    "power_mi_a1_uA_pos_discharging.csv": ("uA", "discharging"),
    "power_huawei_mA_negative.csv": ("mA", "charging"),
}


@pytest.mark.parametrize("name", sorted(VENDORS))
def test_vendor_conventions_inferred_to_the_same_watts(name):
    tr = load_trace(DATA / name)
    unit, sign = VENDORS[name]
    assert (tr.convention["current_unit"], tr.convention["current_positive_when"]) == (unit, sign)
    # the truth encoded in every file: 0.45 A out of the battery, then 1.20 A (after the gauge catches up)
    assert tr.discharge_a[50] == pytest.approx(0.45, abs=1e-6)
    assert tr.discharge_a[195] == pytest.approx(1.20, abs=1e-6)
    assert 0.45 * 3.85 < tr.power_w[50] < 0.45 * 3.95
    assert tr.charging_samples == 0
    assert 50 < tr.energy_j() < 70


@pytest.mark.parametrize("name", sorted(VENDORS))
def test_profile_convention_matches_inference(name):
    unit, sign = VENDORS[name]
    profile = {"current_unit": unit, "current_positive_when": sign, "voltage_unit": "uV",
               "convention_source": "override test", "simulated": True}
    by_profile = load_trace(DATA / name, profile)
    inferred = load_trace(DATA / name)
    assert by_profile.simulated is True and inferred.simulated is False
    np.testing.assert_allclose(by_profile.power_w, inferred.power_w)


def test_wrong_sign_in_profile_shows_up_as_charging():
    profile = {"current_unit": "uA", "current_positive_when": "discharging", "voltage_unit": "uV",
               "convention_source": "override"}
    tr = load_trace(DATA / "power_pixel_uA_pos_charging.csv", profile)   # Pixel really is + into battery
    assert tr.charging_samples == len(tr)
    with pytest.raises(PowerError, match="charging"):
        tr.energy_j()


def test_default_sign_in_profile_is_reinferred():
    profile = {"current_unit": "uA", "current_positive_when": "charging", "voltage_unit": "uV",
               "convention_source": "default sign (status=?)"}
    tr = load_trace(DATA / "power_mi_a1_uA_pos_discharging.csv", profile)
    assert tr.convention["current_positive_when"] == "discharging"
    assert tr.charging_samples == 0


def test_charging_trace_is_detected_and_energy_refused_unless_allowed():
    tr = load_trace(DATA / "power_qualcomm_charging_uA_pos_discharging.csv")
    assert tr.convention["current_positive_when"] == "discharging"     # -326171 while charging (AccA#27)
    assert tr.charging_samples == len(tr)
    assert any("charging" in w for w in tr.warnings)
    with pytest.raises(PowerError, match="allow_charging"):
        tr.energy_j()
    s = tr.summary()
    assert s["energy_j"] is None and "charging" in s["energy_refused"]
    net = tr.energy_j(allow_charging=True)
    assert net < 0                                                      # energy flowed INTO the battery
    assert tr.summary(allow_charging=True)["energy_j"] == pytest.approx(net)


def _csv(rows, meta="# clock=CLOCK_MONOTONIC\n# rate_hz=10\n"):
    head = meta + "t,current,voltage,charge_counter,capacity,status,temp\n"
    return head + "".join(",".join(str(c) for c in r) + "\n" for r in rows)


def test_charging_status_mid_trace_refuses_only_windows_that_touch_it():
    rows = [(100 + k * 0.1, -500000, 3900000, 3000000, 80, "Charging" if 50 <= k < 60 else "Discharging", 300)
            for k in range(101)]
    tr = normalise(parse_power_csv(_csv(rows)), CounterConvention(), simulated=False)
    assert tr.charging_samples == 10
    assert tr.energy_j(100.0, 104.0) == pytest.approx(0.5 * 3.9 * 4.0)
    with pytest.raises(PowerError):
        tr.energy_j(104.0, 107.0)


def test_frozen_gauge_is_flagged_stale():
    rows = [(100 + k * 0.1, -500000, 3900000, 3000000, 80, "Discharging", 300) for k in range(60)]
    tr = normalise(parse_power_csv(_csv(rows)), CounterConvention(), simulated=False)
    assert tr.gauge.stale
    assert any("never changed" in w for w in tr.warnings)


def test_slow_gauge_refresh_is_measured():
    rows = [(100 + k * 0.1, -(400000 + 1000 * (k // 80)), 3900000, 3000000, 80, "Discharging", 300)
            for k in range(400)]
    tr = normalise(parse_power_csv(_csv(rows)), CounterConvention(), simulated=False)
    assert tr.gauge.update_s == pytest.approx(8.0, abs=0.05)
    assert any("held one reading" in w for w in tr.warnings)


def test_cross_check_agrees_and_a_wrong_unit_override_is_refused():
    tr = load_trace(DATA / "power_huawei_mA_negative.csv")
    assert tr.cross_check().verdict == "ok"
    # uA on mA data is 0.002 W: implausible, so the override is refused before any energy is computed
    with pytest.raises(PowerError, match="current_unit='uA'"):
        load_trace(DATA / "power_huawei_mA_negative.csv",
                   {"current_unit": "uA", "current_positive_when": "charging", "voltage_unit": "uV",
                    "convention_source": "override"})


def test_torn_last_line_dropped_and_bad_rows_named():
    text = _csv([(1.0, -1, 3900000, 1, 80, "Discharging", 300), (1.1, -1, 3900000, 1, 80, "Discharging", 300)])
    raw = parse_power_csv(text + "1.2,-1,39")
    assert len(raw) == 2
    with pytest.raises(PowerError, match="line 6"):
        parse_power_csv(text + "1.2,-1\n", "x.csv")
    with pytest.raises(PowerError, match="header"):
        parse_power_csv("t,current\n1,2\n")
    with pytest.raises(PowerError, match="backwards"):
        normalise(parse_power_csv(_csv([(2.0, -1, 1, 1, 1, "Discharging", 1), (1.0, -1, 1, 1, 1, "Discharging", 1)])),
                  CounterConvention(), simulated=False)


def test_unreadable_current_is_a_clear_error():
    rows = [(1.0 + k, "", 3900000, 1, 80, "Discharging", 300) for k in range(3)]
    with pytest.raises(PowerError, match="current_now"):
        normalise(parse_power_csv(_csv(rows)), CounterConvention(), simulated=False)


def test_bad_convention_names_the_field():
    with pytest.raises(PowerError, match="current_unit"):
        CounterConvention(current_unit="A")


def test_metadata_is_read():
    raw = read_power_csv(DATA / "power_pixel_uA_pos_charging.csv")
    assert raw.meta["rate_hz"] == "10" and raw.meta["clock"] == "CLOCK_MONOTONIC"
    assert raw.meta["stopped_rows"] == "201"


def test_not_charging_status_means_on_a_charger():
    rows = [(100 + k * 0.1, -3000, 3900000, 3000000, 80, "Not charging", 300) for k in range(30)]
    tr = normalise(parse_power_csv(_csv(rows)), CounterConvention(current_unit="uA", current_positive_when="charging",
                                                                  voltage_unit="uV"), simulated=False)
    assert tr.charging_samples == len(tr)
    with pytest.raises(PowerError, match="on a charger"):
        tr.energy_j()
