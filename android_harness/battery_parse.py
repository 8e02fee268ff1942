"""Parser for ``dumpsys battery`` (host side, no adb here; ODPM rails: rail_parse.py, perfetto:
perfetto_parse.py).

``dumpsys battery`` is BatteryService.dumpInternal: ``Current Battery Service state:``
then ``  key: value`` lines (voltage in mV, temperature in 0.1 degC, charge counter in uAh); OEMs
append their own lines, kept verbatim in ``extra``. Every known field is bounded: a level above the
scale, a voltage of 0 or a temperature of 500 degC is a PowerError naming the field, not a value.
A dump cut short (a last line without its line end, as ``temperature: 2`` of ``temperature: 291``,
or no ``technology`` line, which BatteryService prints after the numbers on every release) is a
PowerError too: a cut number would read as another, plausible one.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from android_harness.errors import PowerError
from android_harness.power_text_kind import refuse_foreign

BATTERY_HEADER = "Current Battery Service state:"
UPDATES_STOPPED = "(UPDATES STOPPED"
STATUS_NAMES = {1: "Unknown", 2: "Charging", 3: "Discharging", 4: "Not charging", 5: "Full"}


@dataclass(frozen=True)
class BatteryState:
    """One ``dumpsys battery`` answer, in the units BatteryService prints."""

    ac_powered: bool
    usb_powered: bool
    wireless_powered: bool
    dock_powered: bool | None
    status: int
    level: int
    scale: int
    voltage_mv: int
    temperature_dc: int              # tenths of a degree Celsius
    charge_counter_uah: int | None
    max_charging_current_ua: int | None
    max_charging_voltage_uv: int | None
    health: int | None
    present: bool
    technology: str
    updates_stopped: bool            # after `dumpsys battery unplug`/`set`: the state is frozen
    extra: dict[str, str] = field(default_factory=dict)   # OEM and newer-release lines, verbatim

    @property
    def plugged(self) -> bool:
        return self.ac_powered or self.usb_powered or self.wireless_powered or bool(self.dock_powered)

    @property
    def status_name(self) -> str:
        return STATUS_NAMES.get(self.status, f"status {self.status}")

    @property
    def temperature_c(self) -> float:
        return self.temperature_dc / 10.0

    @property
    def voltage_v(self) -> float:
        return self.voltage_mv / 1000.0


_KNOWN = {
    "AC powered": "ac_powered", "USB powered": "usb_powered", "Wireless powered": "wireless_powered",
    "Dock powered": "dock_powered", "Max charging current": "max_charging_current_ua",
    "Max charging voltage": "max_charging_voltage_uv", "Charge counter": "charge_counter_uah",
    "status": "status", "health": "health", "present": "present", "level": "level",
    "scale": "scale", "voltage": "voltage_mv", "temperature": "temperature_dc", "technology": "technology",
}
_BOOLS = {"ac_powered", "usb_powered", "wireless_powered", "dock_powered", "present"}
_BOUNDS = {  # field -> (lo, hi, what): what a battery can report (BatteryManager constants, a Li-ion cell)
    "status": (1, 5, "BATTERY_STATUS_* 1..5"), "health": (1, 7, "BATTERY_HEALTH_* 1..7"),
    "level": (0, 100_000, "a level"), "scale": (1, 100_000, "a scale"),
    "voltage_mv": (2500, 5500, "a battery voltage in mV"), "temperature_dc": (-400, 1000, "0.1 degC"),
    "charge_counter_uah": (0, 100_000_000, "a charge in uAh"),
    "max_charging_current_ua": (0, 50_000_000, "a current in uA"),
    "max_charging_voltage_uv": (0, 30_000_000, "a voltage in uV"),
}
_REQUIRED = ("ac_powered", "usb_powered", "status", "level", "voltage_mv", "temperature_dc")
LAST_FIELD = "technology"          # the last line BatteryService prints on every release


def _bool(text: str, key: str) -> bool:
    if text not in ("true", "false"):
        raise PowerError(f"dumpsys battery: {key!r} is {text!r}, expected true/false")
    return text == "true"


def _int(text: str, key: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise PowerError(f"dumpsys battery: {key!r} is {text!r}, expected an integer") from None


def _check_complete(lines: list[str], section_end: int, values: dict[str, object]) -> None:
    """PowerError when the battery section ends the text without a final line end, or lacks the
    ``technology`` line: the output was cut short (a pipe or adb stream closed mid-dump)."""
    if section_end == len(lines) and lines[-1].strip():
        raise PowerError(f"dumpsys battery: output cut short mid-line ({lines[-1].strip()!r} has no line end); "
                         "read `dumpsys battery` again")
    missing = [k for k in _REQUIRED if k not in values]
    if LAST_FIELD not in values:
        raise PowerError("dumpsys battery: " + (f"missing field(s) {', '.join(missing)} and " if missing else "")
                         + f"no {LAST_FIELD!r} line, which BatteryService prints after the numbers: the output "
                         "was cut short; read `dumpsys battery` again")


def parse_dumpsys_battery(text: str) -> BatteryState:
    """Parse ``dumpsys battery``; raises PowerError if it is not a BatteryService dump."""
    lines = text.replace("\r\n", "\n").split("\n")
    start = next((i for i, ln in enumerate(lines) if ln.strip() == BATTERY_HEADER), None)
    if start is None:
        refuse_foreign(text, "`dumpsys battery` output", "run `adb shell dumpsys battery`")
        head = text.strip().splitlines()[:1]
        raise PowerError(f"dumpsys battery: no {BATTERY_HEADER!r} header (got {head[0] if head else 'nothing'!r})")
    values: dict[str, object] = {}
    extra: dict[str, str] = {}
    stopped = False
    section_end = len(lines)
    for i, ln in enumerate(lines[start + 1:], start + 1):
        s = ln.strip()
        if not s:
            continue
        if s.startswith(UPDATES_STOPPED):
            stopped = True
            continue
        if not ln.startswith(" "):
            section_end = i
            break                                   # the next service's section
        key, sep, val = s.partition(":")
        if not sep:
            extra[s] = ""
            continue
        key, val = key.strip(), val.strip()
        name = _KNOWN.get(key)
        if name is None or name in values:
            extra.setdefault(key, val)              # OEM lines may repeat a key in other case/units
        elif name in _BOOLS:
            values[name] = _bool(val, key)
        elif name == "technology":
            values[name] = val
        else:
            values[name] = _int(val, key)
    _check_complete(lines, section_end, values)
    missing = [k for k in _REQUIRED if k not in values]
    if missing:
        raise PowerError(f"dumpsys battery: missing field(s) {', '.join(missing)}")
    for name, (lo, hi, what) in _BOUNDS.items():
        v = values.get(name)
        if v is not None and not lo <= v <= hi:
            key = next(k for k, n in _KNOWN.items() if n == name)
            raise PowerError(f"dumpsys battery: {key!r} is {v}, outside {lo}..{hi} ({what})")
    if values["level"] > values.get("scale", 100):
        raise PowerError(f"dumpsys battery: 'level' is {values['level']}, above 'scale' {values.get('scale', 100)}")
    return BatteryState(
        ac_powered=values["ac_powered"], usb_powered=values["usb_powered"],
        wireless_powered=values.get("wireless_powered", False), dock_powered=values.get("dock_powered"),
        status=values["status"], level=values["level"], scale=values.get("scale", 100),
        voltage_mv=values["voltage_mv"], temperature_dc=values["temperature_dc"],
        charge_counter_uah=values.get("charge_counter_uah"),
        max_charging_current_ua=values.get("max_charging_current_ua"),
        max_charging_voltage_uv=values.get("max_charging_voltage_uv"),
        health=values.get("health"), present=values.get("present", True),
        technology=values.get("technology", ""), updates_stopped=stopped, extra=extra)
