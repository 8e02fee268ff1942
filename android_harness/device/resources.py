"""Resource probes the runner reports: its RSS, the device's available memory, storage used."""
from __future__ import annotations

import os


def _kib_field(path: str, key: str) -> int:
    """Bytes of a ``key: <n> kB`` line of a /proc file, -1 when the file or line is missing."""
    try:
        with open(path) as f:
            for line in f:
                if line.startswith(key + ":"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return -1


def rss_bytes() -> int:
    return _kib_field("/proc/self/status", "VmRSS")


def peak_rss_bytes() -> int:
    """The runner process's peak RSS so far (VmHWM)."""
    return _kib_field("/proc/self/status", "VmHWM")


def mem_available_bytes(meminfo_path: str = "/proc/meminfo") -> int:
    return _kib_field(meminfo_path, "MemAvailable")


def folder_bytes(*folders: str) -> int:
    total = 0
    for folder in folders:
        for root, _dirs, files in os.walk(folder):
            for name in files:
                try:
                    total += os.stat(os.path.join(root, name)).st_size
                except OSError:
                    pass
    return total


def probe(meminfo_path: str, *folders: str) -> dict[str, int]:
    """The fields of a ``resources`` event."""
    return {"rss_bytes": rss_bytes(), "peak_rss_bytes": peak_rss_bytes(), "mem_available_bytes": mem_available_bytes(meminfo_path),
            "storage_used_bytes": folder_bytes(*folders)}
