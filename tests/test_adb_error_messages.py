"""What a user reads when a device command fails: one line, never one of edgecl's shell scripts, and a
read-only storage named as such with the way out."""
from __future__ import annotations

from android_harness.errors import AdbError, AdbTimeout

SCRIPT = ("rm -f /data/local/tmp/edgecl/sessions/s/runner.pid && mkdir -p /data/local/tmp/edgecl/runner/queue && "
          "printf %s /data/local/tmp/edgecl/sessions/s > /data/local/tmp/edgecl/runner/queue/.s.tmp || exit 1\n"
          "i=0; while ! kill -0 1 && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done")


def test_a_failed_script_is_one_line_without_the_script() -> None:
    err = AdbError("emulator-5554", SCRIPT, 1, "", "mkdir: /data/x: No such file or directory\nsecond line\n")
    text = str(err)
    assert text == "[emulator-5554] a device command of edgecl's failed (exit 1): second line"
    assert err.cmd == SCRIPT                                     # kept whole for whoever debugs it
    assert "\n" not in str(AdbTimeout("emulator-5554", SCRIPT, 30)) and "rm -f" not in str(AdbTimeout("e", SCRIPT, 30))


def test_a_short_command_is_shown() -> None:
    assert str(AdbError("e", "cat /proc/1/stat", 1, "", "cat: no such file")) == "[e] `cat /proc/1/stat` failed (exit 1): cat: no such file"


def test_a_read_only_storage_says_so_and_how_to_go_on() -> None:
    stderr = "rm: /data/local/tmp/edgecl/sessions/s/runner.pid: Read-only file system\n"
    text = str(AdbError("e", SCRIPT, 1, "", stderr))
    assert text == ("[e] the phone's storage is read-only (rm: /data/local/tmp/edgecl/sessions/s/runner.pid: Read-only "
                    "file system); its filesystem was remounted read-only, usually after errors: reboot the phone (or "
                    "free and remount the storage), then continue the run with --resume")
