"""Run one virtual phone in this process: adbd daemon + sandbox + power model over a home folder.

A boot builds ``/system`` and the simulated sysfs/procfs, starts the sandbox and the power model;
``reboot`` (shell ``reboot`` through the powerctl FIFO, or ``adb reboot``) drops every adb connection,
kills every process of the phone, waits ``REBOOT_S`` (connections are refused meanwhile, so the
adb server sees the phone go away and reconnects) and boots again; ``/data`` stays.
"""
from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import signal
from dataclasses import dataclass, field
from pathlib import Path

from android_harness.device.fileio import write_text_atomic
from android_harness.vphone.daemon import Connection, bind_loopback, serve
from android_harness.vphone.data_partition import mount_data_partition
from android_harness.vphone.home import VphoneHome, create_home, props_for
from android_harness.vphone.power import BatteryModel, CpuMeter, run_power_model
from android_harness.vphone.presets import PhonePreset
from android_harness.vphone.sandbox import Sandbox
from android_harness.vphone.services import VphoneContext
from android_harness.vphone.system_services import SystemServices

log = logging.getLogger(__name__)
REBOOT_S = 1.0


@dataclass
class Phone:
    """What the daemon and the services see of the phone; ``sandbox`` changes at every boot."""

    home_dir: Path
    preset: PhonePreset
    serial: str
    seed: int = 0
    auth_required: bool = True
    host_key: Path | None = None           # adbkey.pub seeded into adb_keys at the first boot
    up: bool = False
    connections: set[Connection] = field(default_factory=set)
    home: VphoneHome | None = None
    sandbox: Sandbox | None = None
    boots: int = 0
    _power: asyncio.Task | None = None
    system: SystemServices | None = None
    _powerctl_fd: int | None = None
    _rebooting: asyncio.Task | None = None

    @property
    def adb_keys(self) -> Path:
        assert self.home is not None
        return self.home.adb_keys

    def boot(self) -> None:
        """On the event loop's (main) thread: the sandbox dies with this thread (--die-with-parent)."""
        self.home = create_home(self.home_dir, self.preset, self.serial, self.host_key, boot=self.boots + 1)
        self.sandbox = Sandbox.boot(self.home, self.preset)
        self.system = SystemServices(self.sandbox.init_pid, self.home.run, props_for(self.preset, self.serial, self.boots + 1))
        self.system.start(self.home.system)
        model = BatteryModel(self.preset, self.home, seed=self.seed + self.boots)
        self._power = asyncio.ensure_future(run_power_model(model, CpuMeter(self.sandbox.contains),
                                                            self.preset.gauge_period_s))
        self._powerctl_fd = os.open(self.home.svc / "powerctl", os.O_RDWR | os.O_NONBLOCK | os.O_CLOEXEC)
        asyncio.get_running_loop().add_reader(self._powerctl_fd, self._on_powerctl)
        self.boots += 1
        self.up = True

    def _on_powerctl(self) -> None:
        try:
            text = os.read(self._powerctl_fd, 4096).decode("utf-8", "replace")
        except BlockingIOError:
            return
        if text.startswith("reboot"):
            self.request_reboot(text.strip())

    def request_reboot(self, reason: str) -> None:
        if self.up and self._rebooting is None:
            log.info("reboot requested (%s)", reason)
            self._rebooting = asyncio.ensure_future(self._reboot())

    async def _reboot(self) -> None:
        try:
            self.shutdown()
            await asyncio.sleep(REBOOT_S)
            self.boot()
        finally:
            self._rebooting = None

    def shutdown(self) -> None:
        """Power off: no adbd, every process of the phone killed; /data stays."""
        self.up = False
        for conn in list(self.connections):
            conn.writer.close()
        if self._powerctl_fd is not None:
            asyncio.get_running_loop().remove_reader(self._powerctl_fd)
            os.close(self._powerctl_fd)
            self._powerctl_fd = None
        if self._power is not None:
            self._power.cancel()
            self._power = None
        if self.system is not None:
            self.system.stop()
            self.system = None
        if self.sandbox is not None:
            self.sandbox.kill()
            self.sandbox = None


async def run_vphone(home_dir: Path, port: int, preset: PhonePreset, seed: int = 0, auth: bool = True,
                     host_key: Path | None = None) -> None:
    """Serve until SIGTERM/SIGINT. Writes ``<home>/run/daemon.json`` (pid, port, serial) once
    listening, which is how a starter learns the port when it asked for port 0."""
    signal.signal(signal.SIGHUP, signal.SIG_DFL)
    sock = bind_loopback(port)
    bound = sock.getsockname()[1]
    serial = f"127.0.0.1:{bound}"
    phone = Phone(home_dir.resolve(), preset, serial, seed, auth, host_key)
    if preset.data_size_mb:                   # before the first boot: every boot's sandbox binds the mount
        mount_data_partition(phone.home_dir, preset.data_size_mb)
    phone.boot()
    assert phone.home is not None
    server = await serve(VphoneContext(phone, preset.link_mb_s * 1e6), props_for(preset, serial), sock)
    write_text_atomic(phone.home.run / "daemon.json", json.dumps(
        {"pid": os.getpid(), "port": bound, "serial": serial, "preset": preset.name,
         "home": str(phone.home.root), "simulated": True, "auth": auth}))
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    try:
        async with server:
            await stop.wait()
    finally:
        if phone._rebooting is not None:
            phone._rebooting.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await phone._rebooting
        phone.shutdown()
        (phone.home.run / "daemon.json").unlink(missing_ok=True)
