"""``AndroidDevice``: a thin object composing the adb transport, the device profile and services.

Mobly-style lifecycle: services start in registration order and stop in reverse; ``stop`` never
raises; ``pause``/``resume`` wrap a USB cut. Nothing is forwarded implicitly: every device call is
a named method here or on ``adb``.
"""
from __future__ import annotations

import logging
from pathlib import Path
from typing import Protocol, Sequence

from android_harness.adb import Adb, RemoteStat, ServerAddress, ShellResult
from android_harness.discovery import resolve_serial
from android_harness.profile import DeviceProfile, load_profile

log = logging.getLogger(__name__)


class DeviceService(Protocol):
    """What power, session or thermal services implement to ride the device's lifecycle."""

    def start(self) -> None: ...
    def stop(self) -> None: ...
    def pause(self) -> None: ...
    def resume(self) -> None: ...
    def is_alive(self) -> bool: ...


class AndroidDevice:
    def __init__(self, adb: Adb, profile_override: Path | None = None) -> None:
        self.adb = adb
        self.serial = adb.serial
        self.log = logging.LoggerAdapter(log, {"serial": adb.serial})
        self._profile_override = profile_override
        self._profile: DeviceProfile | None = None
        self._services: dict[str, DeviceService] = {}

    @classmethod
    def open(cls, serial: str | None = None, server: ServerAddress | None = None,
             profile_override: Path | None = None) -> "AndroidDevice":
        """The device named by ``serial``/``ANDROID_SERIAL``, or the only one attached."""
        server = server or ServerAddress.from_env()
        return cls(Adb(resolve_serial(serial, server), server), profile_override)

    def __repr__(self) -> str:
        return f"AndroidDevice({self.serial!r})"

    @property
    def profile(self) -> DeviceProfile:
        """Probed (or loaded from cache) on first use, then kept."""
        if self._profile is None:
            self._profile = load_profile(self.adb, self._profile_override)
        return self._profile

    def refresh_profile(self) -> DeviceProfile:
        self._profile = load_profile(self.adb, self._profile_override, refresh=True)
        return self._profile

    def storage_path(self, *parts: str) -> str:
        """A path under edgecl's storage root on the device."""
        return "/".join([self.profile.storage_root.rstrip("/"), *(p.strip("/") for p in parts)])

    def shell(self, cmd: str | Sequence[str], timeout: float = 60.0, check: bool = True,
              idempotent: bool = False) -> ShellResult:
        return self.adb.shell(cmd, timeout=timeout, check=check, idempotent=idempotent)

    def batch(self, cmds: Sequence[str | Sequence[str]], timeout: float = 60.0, check: bool = True,
              idempotent: bool = False) -> list[ShellResult]:
        return self.adb.batch(cmds, timeout=timeout, check=check, idempotent=idempotent)

    def push(self, local: Path, remote: str) -> int:
        return self.adb.push(local, remote)

    def pull(self, remote: str, local: Path) -> int:
        return self.adb.pull(remote, local)

    def stat(self, remote: str) -> RemoteStat:
        return self.adb.stat(remote)

    def register_service(self, name: str, service: DeviceService) -> None:
        if name in self._services:
            raise ValueError(f"{self.serial}: service {name!r} already registered")
        self._services[name] = service

    def service(self, name: str) -> DeviceService:
        return self._services[name]

    def start_services(self) -> None:
        started = []
        try:
            for name, svc in self._services.items():
                svc.start()
                started.append(name)
        except Exception:
            for name in reversed(started):
                self._stop_quietly(name)
            raise

    def stop_services(self) -> None:
        for name in reversed(list(self._services)):
            self._stop_quietly(name)

    def pause_services(self) -> None:
        for svc in reversed(list(self._services.values())):
            svc.pause()

    def resume_services(self) -> None:
        for svc in self._services.values():
            svc.resume()

    def _stop_quietly(self, name: str) -> None:
        try:
            self._services[name].stop()
        except Exception as exc:           # one line: a stop that failed has nothing left to debug here
            self.log.warning("stopping service %s failed: %s", name, exc)
