"""The folder that is a vphone's filesystem: storage root, sysfs/procfs look-alikes, bin shims.

Layout of ``<home>``: ``storage/`` (storage root; shells start here), ``sys/class/power_supply/
battery/*``, ``sys/class/thermal/thermal_zone0/temp``, ``proc/meminfo``, ``bin/`` (getprop, dumpsys,
cmd, sha256sum, python3), ``props.json`` and ``run/`` (battery control file, daemon state).
"""
from __future__ import annotations

import json
import os
import shlex
import sys
from dataclasses import dataclass
from pathlib import Path

from android_harness.vphone.presets import PhonePreset

SHIMS_PY = Path(__file__).with_name("shims.py")


@dataclass(frozen=True)
class VphoneHome:
    root: Path

    @property
    def storage(self) -> Path:
        return self.root / "storage"

    @property
    def bin(self) -> Path:
        return self.root / "bin"

    @property
    def battery_dir(self) -> Path:
        return self.root / "sys" / "class" / "power_supply" / "battery"

    @property
    def thermal_temp(self) -> Path:
        return self.root / "sys" / "class" / "thermal" / "thermal_zone0" / "temp"

    @property
    def meminfo(self) -> Path:
        return self.root / "proc" / "meminfo"

    @property
    def run(self) -> Path:
        return self.root / "run"


def write_atomic(path: Path, text: str) -> None:
    """Readers (device-side samplers) never see a half-written counter."""
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(text)
    os.replace(tmp, path)


def props_for(preset: PhonePreset, home: Path, serial: str) -> dict[str, str]:
    return {
        "ro.product.model": preset.model,
        "ro.product.name": preset.product,
        "ro.product.device": preset.device,
        "ro.product.manufacturer": preset.manufacturer,
        "ro.build.version.sdk": str(preset.sdk),
        "ro.build.version.release": str({34: 14, 33: 13, 29: 10}.get(preset.sdk, preset.sdk - 20)),
        "ro.product.cpu.abi": preset.abi,
        "ro.build.fingerprint": f"edgecl/{preset.product}/{preset.device}:vphone/{preset.name}/sdk{preset.sdk}:user/simulated",
        "ro.serialno": serial,
        "edgecl.vphone": "1",
        "edgecl.vphone.root": str(home),
        "edgecl.vphone.preset": preset.name,
    }


def meminfo_text(ram_bytes: int) -> str:
    total_kb = ram_bytes // 1024
    avail = int(total_kb * 0.45)
    rows = [("MemTotal", total_kb), ("MemFree", int(total_kb * 0.12)), ("MemAvailable", avail),
            ("Buffers", int(total_kb * 0.01)), ("Cached", int(total_kb * 0.30)),
            ("SwapTotal", total_kb // 2), ("SwapFree", total_kb // 3)]
    return "".join(f"{k + ':':<16}{v:>8} kB\n" for k, v in rows)


def create_home(root: Path, preset: PhonePreset, serial: str) -> VphoneHome:
    """Create (or refresh) the layout; storage/ content survives a restart."""
    home = VphoneHome(root.resolve())
    for d in (home.storage, home.bin, home.battery_dir, home.thermal_temp.parent,
              home.meminfo.parent, home.run):
        d.mkdir(parents=True, exist_ok=True)
    write_atomic(home.root / "props.json", json.dumps(props_for(preset, home.root, serial), indent=1))
    write_atomic(home.meminfo, meminfo_text(preset.ram_bytes))
    write_atomic(home.battery_dir / "type", "Battery\n")
    write_atomic(home.thermal_temp.parent / "type", "battery\n")
    write_atomic(home.run / "battery_ctl.json", json.dumps({"unplugged": False, "set": {}}))
    py = shlex.quote(sys.executable)
    for tool in ("getprop", "dumpsys", "cmd", "sha256sum"):
        script = home.bin / tool
        write_atomic(script, f'#!/bin/sh\nexec {py} -S -I {shlex.quote(str(SHIMS_PY))} {tool} '
                             f'{shlex.quote(str(home.root))} "$@"\n')
        script.chmod(0o755)
    python3 = home.bin / "python3"
    write_atomic(python3, f'#!/bin/sh\nexec {py} "$@"\n')
    python3.chmod(0o755)
    return home
