"""The virtual phone: an adb device daemon over loopback plus a simulated Android environment."""
from android_harness.vphone.manager import VphoneInfo, find, start, status, stop
from android_harness.vphone.presets import DEFAULT_PRESET, PRESETS, PhonePreset, get_preset

__all__ = ["VphoneInfo", "find", "start", "status", "stop", "DEFAULT_PRESET", "PRESETS",
           "PhonePreset", "get_preset"]
