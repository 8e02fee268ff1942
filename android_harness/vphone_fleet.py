"""Several virtual phones for one command: N vphones spread over K private adb servers (each on its
own loopback port, so the user's tcp:5037 is never touched), stopped by PID afterwards -- also on
error or Ctrl-C. ``edgecl sweep --vphones N``, the pool device test and ``bench/pool.py`` use it;
``kill``/``restart`` let a test make a phone die and come back.
"""
from __future__ import annotations

import contextlib
import os
import signal
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator, Sequence

from android_harness.adb_server import ServerAddress, list_devices
from android_harness.errors import DeviceError
from android_harness.pool import PoolMember
from android_harness.private_server import OwnedServer, wait_online
from android_harness.vphone.manager import VphoneInfo, remove_home, start, stop

READY_TIMEOUT_S = 20.0


@dataclass
class Fleet:
    servers: list[ServerAddress]
    owned: list[OwnedServer]
    phones: list[VphoneInfo] = field(default_factory=list)
    server_of: list[int] = field(default_factory=list)     # index into ``servers`` per phone
    base: Path | None = None

    def members(self) -> list[PoolMember]:
        models = {}
        for server in self.servers:
            models.update({(server, e.serial): e.model for e in list_devices(server)})
        return [PoolMember(p.serial, self.servers[s], models.get((self.servers[s], p.serial), ""))
                for p, s in zip(self.phones, self.server_of)]

    def kill(self, i: int) -> None:
        """The phone dies: its daemon is killed (SIGKILL); adb sees it go offline."""
        os.kill(self.phones[i].pid, signal.SIGKILL)
        with contextlib.suppress(ChildProcessError):
            os.waitpid(self.phones[i].pid, 0)

    def restart(self, i: int) -> None:
        """The phone comes back: same port, same storage, connected to its server again."""
        old, server = self.phones[i], self.servers[self.server_of[i]]
        self.phones[i] = start(preset=old.preset, port=old.port, home=Path(old.home), server=server, base=self.base)
        wait_ready(server, old.serial)

    def device_pids(self) -> list[int]:
        """Processes the phones run for us (their sandboxes, session runners, samplers): every
        descendant of a phone daemon (a phone's own processes live in its sandbox under it)."""
        return descendants({p.pid for p in self.phones})


def descendants(roots: set[int]) -> list[int]:
    """Pids whose parent chain reaches one of ``roots`` (the roots excluded)."""
    parents = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat", "rb") as f:
                    parents[int(entry)] = int(f.read().rsplit(b")", 1)[1].split()[1])
            except OSError:
                continue
    found = []
    for pid in parents:
        p, hops = parents.get(pid), 0
        while p is not None and p not in roots and p > 1 and hops < 64:
            p, hops = parents.get(p), hops + 1
        if p in roots:
            found.append(pid)
    return found


def wait_ready(server: ServerAddress, serial: str, timeout_s: float = READY_TIMEOUT_S) -> None:
    if not wait_online(server, serial, timeout_s):
        raise DeviceError(serial, f"not ready on {server} after {timeout_s:g} s")


@contextlib.contextmanager
def vphone_fleet(n: int, servers: int = 1, presets: Sequence[str] = ("pixel7",), base: Path | None = None,
                 overrides: dict | None = None) -> Iterator[Fleet]:
    """``n`` vphones (presets taken in turn) over ``servers`` private adb servers (phone i on server i % servers);
    at exit every phone is stopped, whatever it left running is killed, and its home is removed."""
    fleet = Fleet([], [], base=base)
    try:
        for _ in range(servers):
            fleet.owned.append(OwnedServer())
            fleet.servers.append(fleet.owned[-1].address)
        for i in range(n):
            s = i % servers
            info = start(preset=presets[i % len(presets)], server=fleet.servers[s], base=base, overrides=overrides)
            fleet.phones.append(info)
            fleet.server_of.append(s)
            wait_ready(fleet.servers[s], info.serial)
        yield fleet
    finally:
        leftovers = fleet.device_pids()
        for info, s in zip(fleet.phones, fleet.server_of):
            stop(info, fleet.servers[s], base=base)
        for pid in leftovers:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        for info in fleet.phones:
            remove_home(info)                         # a fleet's phones are throwaway, as a scoped vphone's
        for owned in fleet.owned:
            owned.stop()
