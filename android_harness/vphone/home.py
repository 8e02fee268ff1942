"""The host folder behind one vphone, and what each part becomes inside the phone.

    <home>/system   -> /system (read-only): toybox or busybox, mksh, getprop/dumpsys/..., /system/etc
    <home>/data     -> /data: /data/local/tmp (shell's), /data/media/0 (= /sdcard, /storage/emulated/0),
                       /data/misc/adb/adb_keys (the keys adbd accepts)
    <home>/sys      -> /sys (read-only): class/power_supply/battery/*, class/thermal/thermal_zone0/*
    <home>/proc     -> /proc/meminfo, /proc/cpuinfo, /proc/sys/kernel/arch over the phone's own procfs
    <home>/svc      -> /dev/socket/edgecl_vphone (read-only): PowerStats dump, powerctl FIFO; its ctl/
                       (the shell's drop folder: battery control) -> /dev/socket/edgecl_vphone/ctl (svc_channel.py)
    <home>/run      (host only) daemon.json, daemon.log
    <home>/props.json (host only) the phone's properties; says the folder is a vphone home

``/data`` survives a restart (and a reboot); the rest is rebuilt at every boot. Files the shell
creates are owned by uid 2000 on the host too (the phone's user namespace maps 2000 to 2000).
"""
from __future__ import annotations

import json
import os
import shutil
from dataclasses import dataclass
from pathlib import Path

from android_harness.device.fileio import write_text_atomic
from android_harness.vphone.presets import ABIS, PhonePreset
from android_harness.vphone.rootfs import build_system
from android_harness.vphone.svc_channel import CTL, create_channel

SHELL_UID = 2000          # AID_SHELL
SYSTEM_UID = 1000         # AID_SYSTEM
STORAGE_ROOT = "/data/local/tmp"
SDCARD = "/storage/emulated/0"
ADB_KEYS = "/data/misc/adb/adb_keys"
# (path under <home>/data, uid, gid, mode) as on a phone; the shell may write only its own folders
DATA_DIRS = (("", SYSTEM_UID, SYSTEM_UID, 0o771), ("local", 0, 0, 0o751), ("local/tmp", SHELL_UID, SHELL_UID, 0o771),
             ("misc", SYSTEM_UID, SYSTEM_UID, 0o1771), ("misc/adb", SYSTEM_UID, SYSTEM_UID, 0o2750),
             ("media", SYSTEM_UID, SYSTEM_UID, 0o771), ("media/0", SHELL_UID, SHELL_UID, 0o771),
             ("user_de", SYSTEM_UID, SYSTEM_UID, 0o711), ("user_de/0", SYSTEM_UID, SYSTEM_UID, 0o771),
             ("user_de/0/com.android.shell", SHELL_UID, SHELL_UID, 0o700))


@dataclass(frozen=True)
class VphoneHome:
    root: Path

    @property
    def system(self) -> Path:
        return self.root / "system"

    @property
    def data(self) -> Path:
        return self.root / "data"

    @property
    def sys(self) -> Path:
        return self.root / "sys"

    @property
    def proc(self) -> Path:
        return self.root / "proc"

    @property
    def svc(self) -> Path:
        return self.root / "svc"

    @property
    def svc_ctl(self) -> Path:
        """The shell's drop folder: read only through ``svc_channel.read_drop``."""
        return self.svc / CTL

    @property
    def run(self) -> Path:
        return self.root / "run"

    @property
    def battery_dir(self) -> Path:
        return self.sys / "class" / "power_supply" / "battery"

    @property
    def thermal_temp(self) -> Path:
        return self.sys / "class" / "thermal" / "thermal_zone0" / "temp"

    @property
    def meminfo(self) -> Path:
        return self.proc / "meminfo"

    @property
    def adb_keys(self) -> Path:
        return self.data / ADB_KEYS.removeprefix("/data/")

    def host_path(self, phone_path: str) -> Path:
        """Where a phone path under /data lives on the host (for tests and seeding only)."""
        if phone_path.startswith(SDCARD + "/") or phone_path == SDCARD:
            phone_path = "/data/media/0" + phone_path[len(SDCARD):]
        if not phone_path.startswith("/data/"):
            raise ValueError(f"{phone_path}: only /data and the sdcard are stored in the home")
        return self.data / phone_path.removeprefix("/data/")


def write_atomic(path: Path, text: str) -> None:
    """Readers (device-side samplers) never see a half-written counter."""
    write_text_atomic(path, text)


def props_for(preset: PhonePreset, serial: str, boot: int = 1) -> dict[str, str]:
    return {
        "ro.product.model": preset.model,
        "ro.product.name": preset.product,
        "ro.product.device": preset.device,
        "ro.product.manufacturer": preset.manufacturer,
        "ro.build.version.sdk": str(preset.sdk),
        "ro.build.version.release": str({34: 14, 33: 13, 29: 10}.get(preset.sdk, preset.sdk - 20)),
        "ro.product.cpu.abi": preset.abi,
        "ro.product.cpu.abilist": preset.abi,
        "ro.build.fingerprint": f"edgecl/{preset.product}/{preset.device}:vphone/{preset.name}/sdk{preset.sdk}:user/simulated",
        "ro.build.type": "user",
        "ro.build.id": f"EDGECL.SDK{preset.sdk}",
        "ro.build.product": preset.device,
        "ro.build.characteristics": "nosdcard",
        "ro.hardware": preset.device,
        "ro.debuggable": "0",
        "ro.serialno": serial,
        "sys.boot_completed": "1",
        "edgecl.vphone": "1",
        "edgecl.vphone.preset": preset.name,
        "edgecl.vphone.boot": str(boot),              # which boot this is (1 = first since start)
    }


def meminfo_text(ram_bytes: int) -> str:
    total_kb = ram_bytes // 1024
    avail = int(total_kb * 0.45)
    rows = [("MemTotal", total_kb), ("MemFree", int(total_kb * 0.12)), ("MemAvailable", avail),
            ("Buffers", int(total_kb * 0.01)), ("Cached", int(total_kb * 0.30)),
            ("SwapTotal", total_kb // 2), ("SwapFree", total_kb // 3)]
    return "".join(f"{k + ':':<16}{v:>8} kB\n" for k, v in rows)


def cpuinfo_text(preset: PhonePreset) -> str:
    if ABIS[preset.abi] == "x86_64":
        return "".join(f"processor\t: {i}\nvendor_id\t: edgecl-vphone\nmodel name\t: x86_64 (simulated)\n\n"
                       for i in range(preset.cores))
    return "".join(f"processor\t: {i}\nBogoMIPS\t: 49.15\nFeatures\t: fp asimd evtstrm aes pmull sha1 sha2 crc32 "
                   f"atomics fphp asimdhp cpuid asimdrdm lrcpc dcpop asimddp\nCPU implementer\t: 0x41\n"
                   f"CPU architecture: 8\n\n" for i in range(preset.cores)) + "Hardware\t: edgecl vphone (simulated)\n"


def _own(path: Path, uid: int, gid: int, mode: int) -> None:
    path.mkdir(parents=True, exist_ok=True)
    os.chown(path, uid, gid)
    os.chmod(path, mode)


def create_home(root: Path, preset: PhonePreset, serial: str, host_adb_key: Path | None = None,
                boot: int = 1) -> VphoneHome:
    """Create (or refresh) the layout for one boot; ``data/`` content survives. ``host_adb_key``
    (an adbkey.pub) is added to ``/data/misc/adb/adb_keys`` when the file has no keys yet."""
    home = VphoneHome(root.resolve())
    home.root.mkdir(parents=True, exist_ok=True)
    for d in (home.sys, home.proc):
        if d.exists():
            shutil.rmtree(d)
    for d in (home.battery_dir, home.thermal_temp.parent, home.sys / "devices" / "system" / "cpu", home.proc, home.run):
        d.mkdir(parents=True, exist_ok=True)
    create_channel(home.svc, SHELL_UID)
    props = props_for(preset, serial, boot)
    build_system(home.root, preset, props)
    write_atomic(home.root / "props.json", json.dumps(props, indent=1))   # host only: marks a vphone home (manager.remove_home)
    for rel, uid, gid, mode in DATA_DIRS:
        _own(home.data / rel if rel else home.data, uid, gid, mode)
    if host_adb_key is not None and not (home.adb_keys.exists() and home.adb_keys.read_text().strip()):
        write_atomic(home.adb_keys, host_adb_key.read_text().strip() + "\n")
        os.chown(home.adb_keys, SYSTEM_UID, SHELL_UID)
        os.chmod(home.adb_keys, 0o640)
    write_atomic(home.meminfo, meminfo_text(preset.ram_bytes))
    write_atomic(home.proc / "cpuinfo", cpuinfo_text(preset))
    write_atomic(home.proc / "arch", ABIS[preset.abi] + "\n")           # over /proc/sys/kernel/arch
    write_atomic(home.battery_dir / "type", "Battery\n")
    write_atomic(home.thermal_temp.parent / "type", "battery\n")
    return home
