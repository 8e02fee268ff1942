"""logd's rings and logcat's parsing and formats (liblog's logprint.cpp strings), without a phone."""
from __future__ import annotations

import calendar

import pytest

from android_harness.vphone.logd import RING_BYTES, LogcatError, LogcatReader, LogEntry, Logd, format_entry, parse_logcat

T0 = calendar.timegm((2026, 3, 4, 5, 6, 7)) * 10**9 + 89_123_456           # 2026-03-04 05:06:07.089123456
E = LogEntry(T0, 12 * 10**9 + 5, 1234, 1234, 2000, 4, "MyTag", "hello\nworld", "main")


@pytest.mark.parametrize("fmt,mods,want", [
    ("threadtime", set(), "03-04 05:06:07.089  1234  1234 I MyTag   : hello\n03-04 05:06:07.089  1234  1234 I MyTag   : world\n"),
    ("brief", set(), "I/MyTag   ( 1234): hello\nI/MyTag   ( 1234): world\n"),
    ("tag", set(), "I/MyTag   : hello\nI/MyTag   : world\n"),
    ("process", set(), "I( 1234) hello  (MyTag)\nI( 1234) world  (MyTag)\n"),
    ("thread", set(), "I( 1234: 1234) hello\nI( 1234: 1234) world\n"),
    ("raw", set(), "hello\nworld\n"),
    ("time", {"year", "usec"}, "2026-03-04 05:06:07.089123 I/MyTag   ( 1234): hello\n"
                               "2026-03-04 05:06:07.089123 I/MyTag   ( 1234): world\n"),
    ("threadtime", {"epoch", "uid"}, f"{T0 // 10**9}.089 shell: 1234  1234 I MyTag   : hello\n"
                                     f"{T0 // 10**9}.089 shell: 1234  1234 I MyTag   : world\n"),
    ("time", {"monotonic", "nsec"}, "   12.000000005 I/MyTag   ( 1234): hello\n   12.000000005 I/MyTag   ( 1234): world\n"),
    ("long", set(), "[ 03-04 05:06:07.089  1234: 1234 I/MyTag    ]\nhello\nworld\n\n"),
])
def test_formats(fmt: str, mods: set[str], want: str) -> None:
    assert format_entry(E, fmt, mods) == want


def test_options_filters_and_errors() -> None:
    req = parse_logcat(["-vbrief", "-v", "year,usec", "-b", "main,system", "-s", "A:W", "B", "-t", "3", "-d"])
    assert (req.format, req.modifiers, req.buffers, req.filters, req.default_priority, req.tail_count, req.dump) == (
        "brief", {"year", "usec"}, ("main", "system"), [("A", 5), ("B", 2)], 8, 3, True)
    assert parse_logcat([], "X:E *:S").filters == [("X", 6)]                 # ANDROID_LOG_TAGS when no specs
    assert parse_logcat(["Y:I"], "X:E *:S").filters == [("Y", 4)]
    assert parse_logcat(["-b", "all"]).buffers[0] == "main" and len(parse_logcat(["-b", "all"]).buffers) == 8
    assert parse_logcat(["-T", "2026-03-04 05:06:07.089"]).tail_since_ns == T0 - 123_456
    assert parse_logcat(["-t", "1772600767.089"]).tail_since_ns == T0 - 123_456
    assert parse_logcat(["--pid=7", "--buffer=crash", "-m", "2"]).pid == 7
    for bad, msg in ((["-b", "x"], "unknown buffer 'x'"), (["-v", "fancy"], 'Invalid parameter "fancy"'),
                     (["-q"], "invalid option -- 'q'"), (["A:Q"], "Invalid filter expression 'A:Q'"),
                     (["-G", "1M"], "failed to set the log size"), (["-t", "yesterday"], "not in time format"),
                     (["-b"], "requires an argument")):
        with pytest.raises(LogcatError, match=msg):
            parse_logcat(bad)


def test_ring_drops_the_oldest_and_readers_resume() -> None:
    logd = Logd()
    big = "x" * 1000
    for i in range(400):
        logd.write("main", 4, "T", f"{i} {big}", 1, 0)
    kept = [e.message.split()[0] for _s, e in logd.rings["main"]]
    assert logd.used["main"] <= RING_BYTES and kept[-1] == "399" and int(kept[0]) == 400 - len(kept)
    reader = LogcatReader(parse_logcat(["-v", "raw", "-b", "main", "-b", "system", "T:I", "*:S"]))
    assert reader.backlog(logd).startswith("--------- beginning of main\n" + kept[0] + " ")
    logd.write("system", 4, "T", "sys", 1, 0)
    logd.write("system", 3, "T", "debug, filtered", 1, 0)
    logd.write("main", 4, "Other", "filtered", 1, 0)
    logd.write("main", 4, "T", "main again", 1, 0)
    assert reader.more(logd) == "--------- beginning of system\nsys\nmain again\n"
    logd.clear(("main",))
    assert LogcatReader(parse_logcat(["-v", "raw"])).backlog(logd) == "--------- beginning of system\nsys\ndebug, filtered\n"
