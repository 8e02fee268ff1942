"""The virtual phone: an adb daemon on loopback with an Android-like environment and a power model (simulated)."""
