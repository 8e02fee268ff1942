"""Device fixtures: a real phone when ANDROID_SERIAL is set, otherwise a virtual phone that these
tests start themselves behind a PRIVATE adb server on its own port (a user's adb server is never
touched). Both the vphone and the private server are stopped by PID at the end of the session.
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import Iterator

import pytest

from android_harness.adb import Adb, ServerAddress, start_private_server
from android_harness.android_device import AndroidDevice
from android_harness import vphone
from android_harness.vphone.manager import free_port

VPHONE_PRESET = "pixel7"
VPHONE_GAUGE_PERIOD_S = 0.5




@pytest.fixture(scope="session")
def adb_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerAddress]:
    """The real user's server for a real phone; a private one (killed by PID) for the vphone."""
    if os.environ.get("ANDROID_SERIAL"):
        yield ServerAddress.from_env()
        return
    port = free_port()
    proc = start_private_server(port)
    try:
        yield ServerAddress("127.0.0.1", port)
    finally:
        proc.kill()
        proc.wait(timeout=10)


@pytest.fixture(scope="session")
def edgecl_home(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """Profile cache and vphone state go to a temp folder, not the user's ~/.cache."""
    home = tmp_path_factory.mktemp("edgecl_home")
    old = os.environ.get("EDGECL_HOME")
    os.environ["EDGECL_HOME"] = str(home)
    yield home
    if old is None:
        os.environ.pop("EDGECL_HOME", None)
    else:
        os.environ["EDGECL_HOME"] = old


@pytest.fixture(scope="session")
def device(adb_server: ServerAddress, edgecl_home: Path) -> Iterator[AndroidDevice]:
    serial = os.environ.get("ANDROID_SERIAL")
    if serial:
        yield AndroidDevice(Adb(serial, adb_server))
        return
    info = vphone.start(preset=VPHONE_PRESET, server=adb_server, base=edgecl_home,
                        home=edgecl_home / "phone", overrides={"gauge_period_s": VPHONE_GAUGE_PERIOD_S})
    try:
        yield AndroidDevice(Adb(info.serial, adb_server))
    finally:
        vphone.stop(info, adb_server, base=edgecl_home)


def vphone_home_of(device: AndroidDevice) -> Path | None:
    """The host folder behind a vphone's filesystem, None on a real phone."""
    root = device.profile.vphone_root
    return Path(root) if root else None


@pytest.fixture(scope="session")
def vphone_home(device: AndroidDevice) -> Path | None:
    return vphone_home_of(device)


@pytest.fixture()
def remote_dir(device: AndroidDevice, request: pytest.FixtureRequest) -> Iterator[str]:
    """A fresh folder under the storage root for one test, removed afterwards."""
    path = device.storage_path("tests", request.node.name.replace("[", "_").replace("]", ""))
    device.shell(["rm", "-rf", path])
    device.shell(["mkdir", "-p", path])
    yield path
    device.shell(["rm", "-rf", path], check=False)
