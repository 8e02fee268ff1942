"""``AndroidDevice``: a thin object composing the adb transport and the device profile.

Nothing is forwarded implicitly: every device call is a named method here or on ``adb``.
"""
from __future__ import annotations

import logging
from pathlib import Path
from typing import Sequence

from android_harness.adb import Adb, RemoteStat, ShellResult

from android_harness.adb_server import ServerAddress
from android_harness.discovery import resolve_serial
from android_harness.private_server import reviver_for
from android_harness.profile import DeviceProfile, load_profile

log = logging.getLogger(__name__)


class AndroidDevice:
    def __init__(self, adb: Adb, profile_override: Path | None = None) -> None:
        self.adb = adb
        self.serial = adb.serial
        self.log = logging.LoggerAdapter(log, {"serial": adb.serial})
        self._profile_override = profile_override
        self._profile: DeviceProfile | None = None

    @classmethod
    def open(cls, serial: str | None = None, server: ServerAddress | None = None,
             profile_override: Path | None = None) -> "AndroidDevice":
        """The device named by ``serial``/``ANDROID_SERIAL``, or the only one attached."""
        server = server or ServerAddress.from_env()
        serial = resolve_serial(serial, server)
        return cls(Adb(serial, server, revive=reviver_for(server, serial)), profile_override)

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
