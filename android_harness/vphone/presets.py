"""Named virtual-phone presets: what the simulated phone is, what it has, and how its battery behaves.

The default presets are STOCK phones: arm64-v8a, a toybox command set with mksh as ``sh`` (what
``adb shell`` offers on a current Pixel or Galaxy), no Python. ``pixel7-termux`` keeps a Python on
the device PATH for the Python device runner; ``pixel7-x86_64`` runs host-arch binaries natively
(like an x86_64 emulator image) for speed: neither is a stock phone, and both say so in their name.

Every figure names its source. Keys marked (S) are secondary-source measurements, (C) published
claims, (D) our own assumption; perf_anchors.md section 3 is the project's copy of those sources.
Everything a vphone reports is simulated and labelled so (``getprop edgecl.vphone`` = 1).
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace

from android_harness.device.errors import ConfigError


@dataclass(frozen=True)
class PhonePreset:
    """Identity, size and power model of one simulated phone."""

    name: str
    model: str
    product: str
    device: str
    manufacturer: str
    sdk: int
    abi: str
    cores: int
    ram_bytes: int
    battery_mah: float           # design capacity
    idle_w: float                # whole-phone power with the CPU idle (screen off, radios idle)
    active_w_per_core: float     # extra power per fully busy core
    max_soc_w: float             # cap on CPU power however many cores are busy
    charge_ma: float             # charger current into the phone while plugged
    current_unit: str            # "uA" or "mA" in current_now
    current_positive_when: str   # "charging" or "discharging"
    gauge_period_s: float        # fuel gauge refresh of current_now / charge_counter / capacity
    gauge_noise_ma: float        # 1-sigma noise on each published current sample
    unplug_stops_charging: bool  # real phones: False (unplug only fakes "no charger")
    sources: dict[str, str] = field(default_factory=dict)
    link_mb_s: float = 0.0       # adb link bandwidth each way in MB/s; 0 = unthrottled loopback
    has_python: bool = False     # a python3 on the device PATH (termux-style preset only)
    toolbox: str = "toybox"      # "toybox" (Android's, with mksh as sh) or "busybox" (busybox-static)
    odpm_rails: tuple["OdpmRail", ...] = ()   # on-device power monitor rails (Pixel 6 and later)
    note: str = ""               # what makes this preset differ from a stock phone, if anything
    data_size_mb: int = 0        # /data as an ext4 partition of this many MiB (data_partition.py); 0 = a host folder

    def with_overrides(self, **changes: object) -> "PhonePreset":
        unknown = sorted(set(changes) - set(self.__dataclass_fields__))
        if unknown:
            raise ConfigError([f"unknown vphone preset field {k!r}" for k in unknown], "vphone preset")
        out = replace(self, **changes)
        problems = out.problems()
        if problems:
            raise ConfigError(problems, "vphone preset")
        return out

    def problems(self) -> list[str]:
        out = []
        if self.abi not in ABIS:
            out.append(f"abi: expected one of {sorted(ABIS)}, got {self.abi!r}")
        if self.toolbox not in TOOLBOXES:
            out.append(f"toolbox: expected one of {TOOLBOXES}, got {self.toolbox!r}")
        if not isinstance(self.data_size_mb, int) or isinstance(self.data_size_mb, bool) or \
                not (self.data_size_mb == 0 or self.data_size_mb >= MIN_DATA_MB):
            out.append(f"data_size_mb: expected 0 (a host folder) or an integer >= {MIN_DATA_MB}, got {self.data_size_mb!r}")
        return out

    @property
    def stock(self) -> bool:
        """A phone as sold: no Python, the phone's own ABI."""
        return not self.has_python and self.abi == "arm64-v8a"


@dataclass(frozen=True)
class OdpmRail:
    """One ODPM channel: ``idle_w`` always, plus ``cpu_share`` of the CPU's active power."""

    rail: str            # e.g. S2M_VDD_CPUCL2
    subsystem: str       # e.g. CPU(big)
    idle_w: float
    cpu_share: float
    consumer: str = ""   # the HAL's energy-consumer name for this rail, if it has one


ABIS = {"arm64-v8a": "aarch64", "x86_64": "x86_64"}      # preset ABI -> ELF machine it runs natively
TOOLBOXES = ("toybox", "busybox")
MIN_DATA_MB = 8                  # an ext4 with its journal and inode tables, and room for a deploy


_GIB = 1024 ** 3
_SD888 = ("perf_anchors.md s3: SD888 SPECint 1 core, A78 1.88 W / X1 3.35 W (S, tekfiz.com, "
          "Golden Reviewer); S21U PCMark system peak ~9 W (C, anandtech.com/show/16463 p.5)")
_IDLE = "(D) assumption: ~0.6 W screen-off idle with adb attached; no anchor in perf_anchors.md"

_ODPM_SOURCE = ("ODPM on Pixel 6 and later, rail names device-specific; names as in "
                "tests/data/power/ipowerstats_pixel6_hal2.txt; split of the power model (D)")
PIXEL_RAILS = (
    OdpmRail("S4M_VDD_CPUCL0", "CPU(little)", 0.010, 0.20, "CPUCL0"),
    OdpmRail("S3M_VDD_CPUCL1", "CPU(mid)", 0.008, 0.30, "CPUCL1"),
    OdpmRail("S2M_VDD_CPUCL2", "CPU(big)", 0.006, 0.50, "CPUCL2"),
    OdpmRail("S2S_VDD_G3D", "GPU", 0.004, 0.0, "GPU"),
    OdpmRail("S1M_VDD_MIF", "Memory", 0.060, 0.0),
    OdpmRail("S5M_VDD_INT", "INT", 0.040, 0.0),
    OdpmRail("VSYS_PWR_DISPLAY", "Display", 0.0, 0.0, "DISPLAY"),      # screen off
    OdpmRail("VSYS_PWR_MODEM", "Modem", 0.050, 0.0),
)

PRESETS: dict[str, PhonePreset] = {
    "pixel7": PhonePreset(
        name="pixel7", model="Pixel 7 (edgecl vphone)", product="panther", device="panther",
        manufacturer="Google", sdk=34, abi="arm64-v8a", cores=8, ram_bytes=8 * _GIB,
        battery_mah=4355.0, idle_w=0.6, active_w_per_core=1.88, max_soc_w=9.0, charge_ma=1500.0,
        current_unit="uA", current_positive_when="charging", gauge_period_s=1.0,
        gauge_noise_ma=15.0, unplug_stops_charging=True,
        sources={
            "battery_mah, ram, cores": "(C) Google Pixel 7 spec sheet (4355 mAh typical, 8 GB, 8 cores)",
            "active_w_per_core, max_soc_w": _SD888 + " -- a mid core, used as the typical busy core",
            "idle_w": _IDLE,
            "current_unit/sign": "Pixels report uA, Android convention positive into battery",
            "charge_ma": "(D) USB-PD charging current at mid charge",
            "gauge_period_s": "(D) shortened for tests/demo; real gauges refresh every ~1-30 s",
            "unplug_stops_charging": "(D) demo default so discharge is measurable; set False for a real phone",
            "odpm_rails": _ODPM_SOURCE,
        }, odpm_rails=PIXEL_RAILS),
    "galaxy_s21": PhonePreset(
        name="galaxy_s21", model="SM-G998B (edgecl vphone)", product="p3sxxx", device="p3s",
        manufacturer="samsung", sdk=33, abi="arm64-v8a", cores=8, ram_bytes=12 * _GIB,
        battery_mah=5000.0, idle_w=0.7, active_w_per_core=1.88, max_soc_w=9.0, charge_ma=2000.0,
        current_unit="mA", current_positive_when="charging", gauge_period_s=2.0,
        gauge_noise_ma=20.0, unplug_stops_charging=True,
        sources={
            "battery_mah, ram": "(C) Samsung Galaxy S21 Ultra spec sheet (5000 mAh, 12 GB)",
            "active_w_per_core, max_soc_w": _SD888,
            "idle_w": _IDLE,
            "current_unit": "Samsung reports mA (home-assistant/android#2846)",
            "charge_ma": "(D) 25 W charging at ~4 V, averaged",
            "gauge_period_s": "(D) shortened for tests/demo",
            "unplug_stops_charging": "(D) demo default; set False for real-phone behaviour",
        }),
    "mi_a1": PhonePreset(
        name="mi_a1", model="Mi A1 (edgecl vphone)", product="jasmine", device="tissot",
        manufacturer="Xiaomi", sdk=29, abi="arm64-v8a", cores=8, ram_bytes=4 * _GIB,
        battery_mah=3080.0, idle_w=0.5, active_w_per_core=0.6, max_soc_w=4.0, charge_ma=1000.0,
        current_unit="uA", current_positive_when="discharging", gauge_period_s=2.0,
        gauge_noise_ma=25.0, unplug_stops_charging=False,
        sources={
            "battery_mah, ram": "(C) Xiaomi Mi A1 spec sheet (3080 mAh, 4 GB)",
            "current_unit/sign": "Mi A1 reports uA, positive when discharging (amps#1)",
            "active_w_per_core, max_soc_w": "(D) Cortex-A53 class core, well below the SD888 anchors",
            "idle_w": _IDLE,
            "charge_ma": "(D) 5 V / 2 A charger, averaged",
            "unplug_stops_charging": "unplug does not stop charging on a real phone",
        }),
}

for _stock in ("pixel7", "galaxy_s21", "mi_a1"):
    PRESETS[f"{_stock}-termux"] = replace(
        PRESETS[_stock], name=f"{_stock}-termux", has_python=True,
        note="termux-style: a python3 (the host's interpreter and packages, read-only) on the device PATH")
PRESETS["pixel7-x86_64"] = replace(
    PRESETS["pixel7"], name="pixel7-x86_64", abi="x86_64",
    note="x86_64 ABI: host-arch binaries run natively for speed (like an x86_64 emulator image), not a phone's ABI")

DEFAULT_PRESET = "pixel7"
PYTHON_PRESET = "pixel7-termux"
USB2_LINK_MB_S = 40.0
USB2_LINK_SOURCE = ("(D) USB 2.0 high-speed is 480 Mbit/s = 60 MB/s raw; adb push over USB 2 "
                    "typically reaches 30-45 MB/s -- an assumption, not a measured anchor")


def get_preset(name: str) -> PhonePreset:
    try:
        return PRESETS[name]
    except KeyError:
        raise ConfigError(f"unknown vphone preset {name!r}; expected one of {sorted(PRESETS)}",
                          "vphone --preset") from None
