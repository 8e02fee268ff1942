"""Mobly's Android controller with its defaults against the stock phone: ``android_device.create``
(build info from ``getprop``, ``adb logcat -c`` and a standing ``logcat -v threadtime -T 1``),
a USB cut (logcat paused, then resumed from the device's time with ``-T``),
``take_bug_report`` (``bugreportz -v``, ``bugreportz``, pull, rm) and ``reboot`` (``adb reboot``,
``wait-for-device``, ``sys.boot_completed``, logcat restarted)."""
from __future__ import annotations

import logging
import os
import time
import zipfile
from pathlib import Path
from typing import Iterator

import pytest

from android_harness.adb_server import ServerAddress, adb_binary
from android_harness.android_device import AndroidDevice

if os.environ.get("CI") != "true":                 # in CI a missing test extra fails, never skips
    pytest.importorskip("mobly", reason="mobly (the test extra) is not installed")
from mobly.controllers import android_device  # noqa: E402

MARK_TIMEOUT_S = 60.0
REPORTS = "/data/user_de/0/com.android.shell/files/bugreports"


def _wait_for_line(ad: "android_device.AndroidDevice", text: str) -> None:
    """Until Mobly's standing logcat has written ``text`` to its file on the host."""
    deadline = time.monotonic() + MARK_TIMEOUT_S
    while text not in Path(ad.adb_logcat_file_path).read_text(errors="replace"):
        assert time.monotonic() < deadline, f"{text!r} never reached {ad.adb_logcat_file_path}"
        time.sleep(0.2)


@pytest.fixture()
def mobly_env(device: AndroidDevice, adb_server: ServerAddress, tmp_path: Path,
              monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Mobly runs ``adb`` from PATH against ANDROID_ADB_SERVER_PORT and logs under ``logging.log_path``."""
    monkeypatch.setenv("PATH", f"{Path(adb_binary()).parent}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setenv("ANDROID_ADB_SERVER_PORT", str(adb_server.port))
    monkeypatch.delenv("ADB_SERVER_SOCKET", raising=False)
    monkeypatch.setattr(logging, "log_path", str(tmp_path / "logs"), raising=False)
    yield tmp_path


def test_mobly_create_bug_report_reboot(device: AndroidDevice, mobly_env: Path) -> None:
    ads = android_device.create([device.serial])
    try:
        ad = ads[0]
        assert ad.services.logcat.is_alive and ad.build_info["debuggable"] == "0"
        assert not ad.is_adb_root
        ad.adb.shell(["log", "-t", "EdgeclMobly", "before-reboot"])
        _wait_for_line(ad, "EdgeclMobly: before-reboot")

        with ad.handle_usb_disconnect():          # logcat paused; resumed with -T <device time of the pause>
            ad.adb.shell(["log", "-t", "EdgeclMobly", "while-paused"])
        _wait_for_line(ad, "EdgeclMobly: while-paused")

        on_phone = ad.adb.shell(f"ls {REPORTS} 2>/dev/null; true")
        report = Path(ad.take_bug_report(destination=str(mobly_env / "reports")))
        with zipfile.ZipFile(report) as z:
            main = z.read("main_entry.txt").decode()
            text = z.read(main).decode()
        assert "EdgeclMobly: before-reboot" in text and "------ SYSTEM PROPERTIES (getprop) ------" in text
        assert ad.adb.shell(f"ls {REPORTS} 2>/dev/null; true") == on_phone           # pulled, then removed

        boot = ad.adb.getprop("edgecl.vphone.boot")
        uptime = float(ad.adb.shell(["cat", "/proc/uptime"]).split()[0])
        ad.reboot()
        assert ad.adb.getprop("sys.boot_completed") == "1" and ad.services.logcat.is_alive
        if boot:
            assert ad.adb.getprop("edgecl.vphone.boot") == str(int(boot) + 1)
        else:
            assert float(ad.adb.shell(["cat", "/proc/uptime"]).split()[0]) < uptime
        ad.adb.shell(["log", "-t", "EdgeclMobly", "after-reboot"])
        _wait_for_line(ad, "EdgeclMobly: after-reboot")
    finally:
        android_device.destroy(ads)
