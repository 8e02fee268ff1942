"""The phone's ``/system``: a toybox (or busybox) command set with mksh as ``sh``, as ``adb shell``
offers it on a current Pixel or Galaxy, plus the Android commands the vphone provides itself.

Host builds of Debian's toybox 0.8.9 / busybox-static 1.35 and mksh stand in for the phone's own
(they run natively: only binaries pushed to the phone run under qemu on an arm64 preset). toybox is
dynamically linked, so it is installed as Android installs its binaries: a copy whose ELF
interpreter is ``/system/bin/linker64`` (here glibc's loader), its libraries in ``/system/lib64``
and a loader cache at ``/system/etc/ld.so.cache`` (``/etc`` is ``/system/etc`` on Android).
Nothing of the host's ``/usr`` is visible on a stock preset.

``sha256sum`` is not Debian toybox's generic C (about 90 MB/s here): Android builds toybox against
BoringSSL, whose SHA-256 uses the CPU's SHA instructions, so the phone's ``sha256sum`` is a small
mksh front end over OpenSSL's (``/system/libexec/sha256``, SHA-NI on this host), installed the same
way as toybox. Output and errors follow toybox's format.
"""
from __future__ import annotations

import os
import platform
import shutil
import struct
import subprocess
from pathlib import Path

from android_harness.vphone.device_tools import TOOLS, machine_tools
from android_harness.vphone.presets import ABIS, PhonePreset
from android_harness.vphone.stock_tools import STOCK_TOOLS

TOYBOX = Path("/usr/bin/toybox")
BUSYBOX = Path("/usr/bin/busybox")
MKSH = Path("/usr/lib/x86_64-linux-musl/bin/mksh")       # Debian mksh, static (musl)
LINKER = Path("/lib64/ld-linux-x86-64.so.2")
OPENSSL = Path("/usr/bin/openssl")
LIB_DIR = Path("/lib/x86_64-linux-gnu")
PT_INTERP = 3
# applets of the Debian builds that a stock Android shell does not have, or that the vphone replaces
NOT_ON_ANDROID = {"su", "login", "passwd", "mkpasswd", "sulogin", "halt", "poweroff", "reboot", "sh",
                  "ash", "hush", "bash", "init", "linuxrc"}
# commands a stock Android shell has that Debian's toybox build lacks (Android ships toybox's own
# tr/expr/gzip/diff/vi/dd and one-true-awk): taken from busybox-static when it is installed
ANDROID_EXTRAS = ("awk", "dd", "diff", "expr", "gzip", "tr", "vi")
PASSWD = "root:x:0:0:root:/:/system/bin/sh\nsystem:x:1000:1000:system:/:/system/bin/sh\nshell:x:2000:2000:shell:/:/system/bin/sh\n"
GROUP = "root:x:0:\nsystem:x:1000:\nshell:x:2000:\neverybody:x:9997:\n"


class RootfsError(Exception):
    """A tool the phone's /system needs is missing on this host."""


def _need(path: Path, package: str) -> Path:
    if not path.exists():
        raise RootfsError(f"{path} missing: install the Debian package {package} (scripts/system_deps.sh)")
    return path


def set_interpreter(elf: Path, interp: str) -> None:
    """Rewrite the PT_INTERP path of a 64-bit little-endian ELF in place (the new path must fit)."""
    with open(elf, "r+b") as f:
        head = f.read(64)
        if head[:4] != b"\x7fELF" or head[4] != 2 or head[5] != 1:
            raise RootfsError(f"{elf}: not a 64-bit little-endian ELF")
        phoff, = struct.unpack_from("<Q", head, 0x20)
        phentsize, phnum = struct.unpack_from("<HH", head, 0x36)
        for i in range(phnum):
            f.seek(phoff + i * phentsize)
            p_type, _flags, p_offset, _va, _pa, p_filesz = struct.unpack("<IIQQQQ", f.read(40))
            if p_type == PT_INTERP:
                raw = interp.encode() + b"\0"
                if len(raw) > p_filesz:
                    raise RootfsError(f"{elf}: interpreter {interp!r} longer than the {p_filesz}-byte slot")
                f.seek(p_offset)
                f.write(raw.ljust(p_filesz, b"\0"))
                return
    raise RootfsError(f"{elf}: no PT_INTERP (not a dynamic executable)")


def _needed_libs(elf: Path) -> list[Path]:
    """The shared libraries ``elf`` loads, as the host's loader resolves them."""
    out = subprocess.run([str(LINKER), "--list", str(elf)], capture_output=True, text=True, check=True).stdout
    libs = []
    for line in out.splitlines():
        parts = line.split("=>")
        if len(parts) == 2 and parts[1].strip().startswith("/"):
            libs.append(Path(parts[1].split("(")[0].strip()))
    return libs


def _applets(binary: Path, toybox: bool) -> list[str]:
    args = [str(binary)] if toybox else [str(binary), "--list"]
    out = subprocess.run(args, capture_output=True, text=True, check=True).stdout
    return sorted({a for a in out.split() if a not in NOT_ON_ANDROID and a != "["} | {"["})


def _install_dynamic(binary: Path, dest: Path, system: Path) -> None:
    """A host ELF as Android installs one: interpreter /system/bin/linker64, libraries in /system/lib64."""
    dest.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy2(binary, dest)
    set_interpreter(dest, "/system/bin/linker64")
    if not (system / "bin" / "linker64").exists():
        shutil.copy2(_need(LINKER, "libc6"), system / "bin" / "linker64")
    (system / "lib64").mkdir(exist_ok=True)
    for lib in _needed_libs(binary):
        shutil.copy2(lib, system / "lib64" / lib.name)


def _install_toybox(system: Path) -> list[str]:
    etc = system / "etc"
    _install_dynamic(_need(TOYBOX, "toybox"), system / "bin" / "toybox", system)
    if OPENSSL.exists():
        _install_dynamic(OPENSSL, system / "libexec" / "sha256", system)
    (etc / "ld.so.conf").write_text("/system/lib64\n")
    subprocess.run(["ldconfig", "-X", "-r", str(system.parent), "-C", "/system/etc/ld.so.cache",
                    "-f", "/system/etc/ld.so.conf"], check=True, capture_output=True)
    return _applets(TOYBOX, toybox=True)


def _install_busybox(system: Path) -> list[str]:
    shutil.copy2(_need(BUSYBOX, "busybox-static"), system / "bin" / "busybox")
    return _applets(BUSYBOX, toybox=False)


def build_system(root: Path, preset: PhonePreset, props: dict[str, str]) -> Path:
    """(Re)create ``<root>/system`` for ``preset``: toolbox, mksh, the vphone's Android commands,
    ``/system/etc`` (props, passwd/group for ``id``). Returns the system folder."""
    system = root / "system"
    if system.exists():
        shutil.rmtree(system)
    for d in ("bin", "etc"):
        (system / d).mkdir(parents=True)
    multicall = "toybox" if preset.toolbox == "toybox" else "busybox"
    applets = _install_toybox(system) if preset.toolbox == "toybox" else _install_busybox(system)
    if preset.toolbox != "toybox":
        _install_toybox(system)                        # its nc -U: the stock commands' way to the daemons
    bin_dir = system / "bin"
    for name in applets:
        if name not in TOOLS and name not in STOCK_TOOLS or name == "sha256sum":
            os.symlink(multicall, bin_dir / name)
    if preset.toolbox == "toybox" and BUSYBOX.exists():
        extras = [a for a in ANDROID_EXTRAS if a not in applets and a in _applets(BUSYBOX, toybox=False)]
        if extras:
            shutil.copy2(BUSYBOX, bin_dir / "busybox")
            for name in extras:
                os.symlink("busybox", bin_dir / name)
    shutil.copy2(_need(MKSH, "mksh"), bin_dir / "sh")
    tools = {**TOOLS, **STOCK_TOOLS}
    if ABIS[preset.abi] != platform.machine():
        tools.update(machine_tools(multicall, ABIS[preset.abi]))
    for name, text in tools.items():
        if name == "sha256sum" and not (system / "libexec" / "sha256").exists():
            continue                                   # toybox's own then
        if (bin_dir / name).is_symlink():
            (bin_dir / name).unlink()
        path = bin_dir / name
        path.write_text(text)
        path.chmod(0o755)
    etc = system / "etc"
    (etc / "passwd").write_text(PASSWD)
    (etc / "group").write_text(GROUP)
    (system / "build.prop").write_text("".join(f"{k}={v}\n" for k, v in sorted(props.items()) if k.startswith("ro.")))
    return system
