"""Everything that touches a device: adb transport, profiles, deploy, sessions, power; plus the device-side runner and the virtual phone."""
