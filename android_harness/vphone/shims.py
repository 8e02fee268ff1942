"""The Android commands a vphone shell finds on its PATH: getprop, dumpsys, cmd.

Run as ``python -S -I shims.py <tool> <vphone_home> args...`` from tiny ``bin/`` wrappers, so this
file imports only the standard library (fast start, no package import). The battery commands
edit ``run/battery_ctl.json``, which the power model reads; they do what Android's BatteryService
shell commands do (android.md B): ``unplug`` fakes "no charger" and freezes the reported state,
``set`` overrides a reported field, ``reset`` undoes both.
"""
from __future__ import annotations

import json
import os
import sys

STATUS_CODES = {"Unknown": 1, "Charging": 2, "Discharging": 3, "Not charging": 4, "Full": 5}
SET_KEYS = ("ac", "usb", "wireless", "status", "level", "temp", "present", "counter", "invalid")


def _read(path: str, default: str = "0") -> str:
    try:
        with open(path) as f:
            return f.read().strip()
    except OSError:
        return default


def load_ctl(home: str) -> dict:
    try:
        with open(os.path.join(home, "run", "battery_ctl.json")) as f:
            return json.load(f)
    except (OSError, ValueError):
        return {"unplugged": False, "set": {}}


def save_ctl(home: str, ctl: dict) -> None:
    path = os.path.join(home, "run", "battery_ctl.json")
    tmp = f"{path}.{os.getpid()}.tmp"
    with open(tmp, "w") as f:
        json.dump(ctl, f)
    os.replace(tmp, path)


def getprop(home: str, args: list[str]) -> int:
    with open(os.path.join(home, "props.json")) as f:
        props = json.load(f)
    if not args:
        for k in sorted(props):
            print(f"[{k}]: [{props[k]}]")
    else:
        print(props.get(args[0], args[1] if len(args) > 1 else ""))
    return 0


def battery_state(home: str) -> str:
    ps = os.path.join(home, "sys", "class", "power_supply", "battery")
    ctl = load_ctl(home)
    over = ctl.get("set", {})
    frozen = ctl.get("unplugged") or bool(over)
    ac = int(over.get("ac", 0))
    usb = int(over.get("usb", 0 if ctl.get("unplugged") else 1))
    status = int(over.get("status", STATUS_CODES.get(_read(f"{ps}/status", "Unknown"), 1)))
    lines = ["Current Battery Service state:"]
    if frozen:
        lines.append("  (UPDATES STOPPED -- use 'reset' to restart)")
    lines += [
        f"  AC powered: {'true' if ac else 'false'}",
        f"  USB powered: {'true' if usb else 'false'}",
        f"  Wireless powered: {'true' if int(over.get('wireless', 0)) else 'false'}",
        "  Dock powered: false",
        "  Max charging current: 3000000",
        "  Max charging voltage: 5000000",
        f"  Charge counter: {int(over.get('counter', _read(f'{ps}/charge_counter')))}",
        f"  status: {status}",
        "  health: 2",
        f"  present: {'true' if int(over.get('present', 1)) else 'false'}",
        f"  level: {int(over.get('level', _read(f'{ps}/capacity')))}",
        "  scale: 100",
        f"  voltage: {int(_read(f'{ps}/voltage_now')) // 1000}",
        f"  temperature: {int(over.get('temp', _read(f'{ps}/temp')))}",
        "  technology: Li-ion",
        "  edgecl vphone: simulated",
    ]
    return "\n".join(lines)


def battery(home: str, args: list[str]) -> int:
    args = [a for a in args if a != "-f"]
    if not args:
        print(battery_state(home))
        return 0
    ctl = load_ctl(home)
    verb = args[0]
    if verb == "unplug":
        ctl["unplugged"] = True
    elif verb == "reset":
        ctl = {"unplugged": False, "set": {}}
    elif verb == "set" and len(args) == 3 and args[1] in SET_KEYS:
        try:
            ctl.setdefault("set", {})[args[1]] = int(args[2])
        except ValueError:
            print(f"Bad value: {args[2]}", file=sys.stderr)
            return 255
    elif verb == "get" and len(args) == 2:
        ps = os.path.join(home, "sys", "class", "power_supply", "battery")
        field = {"level": "capacity", "counter": "charge_counter", "temp": "temp",
                 "current_now": "current_now", "voltage": "voltage_now"}.get(args[1])
        if field is None:
            print(f"Unknown get option: {args[1]}", file=sys.stderr)
            return 255
        print(_read(os.path.join(ps, field)))
        return 0
    else:
        print(f"Unknown battery command: {' '.join(args)}", file=sys.stderr)
        return 255
    save_ctl(home, ctl)
    return 0


def dumpsys(home: str, args: list[str]) -> int:
    if not args:
        print("usage: dumpsys battery [unplug|reset|set KEY VALUE|get KEY]  (edgecl vphone)")
        return 0
    if args[0] == "battery":
        return battery(home, args[1:])
    print(f"Can't find service: {args[0]}", file=sys.stderr)
    return 0


def cmd(home: str, args: list[str]) -> int:
    if args and args[0] == "battery":
        return battery(home, args[1:])
    print(f"cmd: Can't find service: {args[0] if args else ''}", file=sys.stderr)
    return 20


def sha256sum(home: str, args: list[str]) -> int:
    """``sha256sum [--] FILE...`` backed by hashlib (OpenSSL, hardware SHA): Android's toybox
    sha256sum is built on BoringSSL and uses the ARMv8 SHA instructions, while this host's
    coreutils does not use SHA-NI; this keeps the phone's relative hashing speed honest."""
    import hashlib

    names = [a for a in args if a not in ("--", "-b", "-t")] or ["-"]
    if any(a.startswith("-") and a != "-" for a in names):
        print(f"sha256sum: unsupported option in {names}", file=sys.stderr)
        return 1
    rc = 0
    for name in names:
        h = hashlib.sha256()
        try:
            with (open(0, "rb", closefd=False) if name == "-" else open(name, "rb")) as f:
                while block := f.read(1 << 20):
                    h.update(block)
        except OSError as e:
            print(f"sha256sum: {name}: {e.strerror}", file=sys.stderr)
            rc = 1
            continue
        print(f"{h.hexdigest()}  {name}")
    return rc


TOOLS = {"getprop": getprop, "dumpsys": dumpsys, "cmd": cmd, "sha256sum": sha256sum}

if __name__ == "__main__":
    sys.exit(TOOLS[sys.argv[1]](sys.argv[2], sys.argv[3:]))
