"""Device fixtures: a real phone when ANDROID_SERIAL is set, otherwise virtual phones that these
tests start themselves behind a PRIVATE adb server on its own port (a user's adb server is never
touched). Every vphone and the private server are stopped by PID at the end of the session.

- ``device``: a STOCK phone (the default preset: arm64-v8a, toybox, no Python on the device).
- ``python_device``: the termux-style preset, which keeps a Python for the Python device runner.
  Tests that start training sessions use it until the native runner lands. On a real phone both
  are that phone.
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import Iterator

import pytest

from android_harness import vphone
from android_harness.adb import Adb
from android_harness.adb_server import ServerAddress
from android_harness.private_server import OwnedServer
from android_harness.android_device import AndroidDevice
from android_harness.vphone.home import VphoneHome
from android_harness.vphone.manager import VphoneInfo
from android_harness.vphone.presets import DEFAULT_PRESET, PYTHON_PRESET

VPHONE_GAUGE_PERIOD_S = 0.5


def real_phone() -> bool:
    return bool(os.environ.get("ANDROID_SERIAL"))


@pytest.fixture(scope="session")
def adb_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerAddress]:
    """The real user's server for a real phone; a private one (killed by PID) for the vphones."""
    if real_phone():
        yield ServerAddress.from_env()
        return
    owned = OwnedServer()
    try:
        yield owned.address
    finally:
        owned.stop()


@pytest.fixture(scope="session")
def edgecl_home(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """Profile cache and vphone state go to a temp folder, not the user's ~/.cache; native runner builds
    (host artefacts, cached by source hash) stay shared with the user's home, so none is rebuilt here."""
    home = tmp_path_factory.mktemp("edgecl_home")
    old = os.environ.get("EDGECL_HOME")
    shared = (Path(old).expanduser() if old else Path.home() / ".cache" / "edgecl") / "native"
    shared.mkdir(parents=True, exist_ok=True)
    (home / "native").symlink_to(shared, target_is_directory=True)
    os.environ["EDGECL_HOME"] = str(home)
    yield home
    if old is None:
        os.environ.pop("EDGECL_HOME", None)
    else:
        os.environ["EDGECL_HOME"] = old


def _vphone(preset: str, adb_server: ServerAddress, edgecl_home: Path) -> Iterator[VphoneInfo | None]:
    if real_phone():
        yield None
        return
    info = vphone.start(preset=preset, server=adb_server, base=edgecl_home, home=edgecl_home / preset,
                        overrides={"gauge_period_s": VPHONE_GAUGE_PERIOD_S})
    try:
        yield info
    finally:
        vphone.stop(info, adb_server, base=edgecl_home)


@pytest.fixture(scope="session")
def stock_vphone(adb_server: ServerAddress, edgecl_home: Path) -> Iterator[VphoneInfo | None]:
    """The stock vphone behind ``device`` (None on a real phone)."""
    yield from _vphone(DEFAULT_PRESET, adb_server, edgecl_home)


@pytest.fixture(scope="session")
def python_vphone(adb_server: ServerAddress, edgecl_home: Path) -> Iterator[VphoneInfo | None]:
    """The termux-style vphone behind ``python_device`` (None on a real phone)."""
    yield from _vphone(PYTHON_PRESET, adb_server, edgecl_home)


def _device(info: VphoneInfo | None, adb_server: ServerAddress) -> AndroidDevice:
    return AndroidDevice(Adb(info.serial if info else os.environ["ANDROID_SERIAL"], adb_server))


@pytest.fixture(scope="session")
def device(stock_vphone: VphoneInfo | None, adb_server: ServerAddress) -> AndroidDevice:
    return _device(stock_vphone, adb_server)


@pytest.fixture(scope="session")
def python_device(python_vphone: VphoneInfo | None, adb_server: ServerAddress) -> AndroidDevice:
    return _device(python_vphone, adb_server)


@pytest.fixture(scope="session")
def vphone_home(stock_vphone: VphoneInfo | None) -> VphoneHome | None:
    """The host folder behind the stock vphone's /data etc., None on a real phone."""
    return VphoneHome(Path(stock_vphone.home)) if stock_vphone else None


def _fresh_dir(dev: AndroidDevice, request: pytest.FixtureRequest) -> Iterator[str]:
    path = dev.storage_path("tests", request.node.name.replace("[", "_").replace("]", ""))
    dev.shell(["rm", "-rf", path])
    dev.shell(["mkdir", "-p", path])
    yield path
    dev.shell(["rm", "-rf", path], check=False)


@pytest.fixture()
def remote_dir(device: AndroidDevice, request: pytest.FixtureRequest) -> Iterator[str]:
    """A fresh folder under the stock device's storage root for one test, removed afterwards."""
    yield from _fresh_dir(device, request)


@pytest.fixture()
def python_remote_dir(python_device: AndroidDevice, request: pytest.FixtureRequest) -> Iterator[str]:
    yield from _fresh_dir(python_device, request)
