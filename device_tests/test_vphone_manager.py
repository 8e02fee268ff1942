"""Several vphones at once on distinct ports; a dead one is reported offline, not hidden."""
from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from android_harness import vphone
from android_harness.adb import Adb
from android_harness.adb_server import ServerAddress
from android_harness.discovery import discover, resolve_serial
from pipeline.errors import DeviceError

pytestmark = pytest.mark.skipif(bool(os.environ.get("ANDROID_SERIAL")), reason="vphone-only test")


def test_two_more_vphones_then_one_dies(adb_server: ServerAddress, edgecl_home: Path, tmp_path: Path) -> None:
    a = vphone.start(preset="galaxy_s21", server=adb_server, base=tmp_path, home=tmp_path / "a")
    b = vphone.start(preset="mi_a1", server=adb_server, base=tmp_path, home=tmp_path / "b")
    try:
        assert a.port != b.port and {i.serial for i in vphone.status(tmp_path)} == {a.serial, b.serial}
        models = {s: Adb(s, adb_server).shell("getprop ro.product.model").stdout.strip() for s in (a.serial, b.serial)}
        assert models == {a.serial: "SM-G998B (edgecl vphone)", b.serial: "Mi A1 (edgecl vphone)"}
        assert resolve_serial(a.serial, adb_server) == a.serial
        vphone.stop(b, adb_server, disconnect_adb=False, base=tmp_path)      # killed, still known to adb
        assert not b.alive()
        for _ in range(50):
            states = {e.serial: e.state for e in discover(adb_server)}
            if states.get(b.serial) not in ("device", None):
                break
            time.sleep(0.1)
        assert states[b.serial] == "offline" and states[a.serial] == "device"
        with pytest.raises(DeviceError, match="offline"):
            resolve_serial(b.serial, adb_server)
        with pytest.raises(DeviceError, match="not attached"):
            resolve_serial("127.0.0.1:1", adb_server)
    finally:
        vphone.stop(a, adb_server, base=tmp_path)
        vphone.stop(b, adb_server, base=tmp_path)
    assert vphone.status(tmp_path) == []
