"""The phone's log buffers (logd) and what ``logcat`` prints of them.

logd keeps one RAM ring per buffer (main, radio, events, system, crash, kernel), dropping the
oldest entries past ``RING_BYTES``, as Android's logd does; a reboot empties them. Writers
(the phone's ``log`` command, its services) add entries stamped with the wall clock and the
writer's pid/uid; ``logcat`` readers get them formatted as Android's liblog formats them
(``-v brief|process|tag|thread|raw|time|threadtime|long`` with the ``year|epoch|monotonic|usec|
nsec|UTC|zone|uid|printable|color`` modifiers), filtered by ``TAG:PRIO`` specs, ``-e``, ``--pid``,
``-t``/``-T`` (a count or a time), ``-m``; ``-c`` clears, ``-g`` sizes. The phone is on UTC
(no ``/etc/localtime``), as its ``date`` is.
"""
from __future__ import annotations

import asyncio
import calendar
import re
import time
from collections import deque
from dataclasses import dataclass, field

BUFFERS = ("main", "radio", "events", "system", "crash", "stats", "security", "kernel")
DEFAULT_BUFFERS = ("main", "system", "crash", "kernel")
RING_BYTES = 256 * 1024
ENTRY_OVERHEAD = 28                  # logger_entry header + priority + the tag's NUL, as logd counts
MAX_PAYLOAD = 4068                   # LOGGER_ENTRY_MAX_PAYLOAD
PRIORITIES = "??VDIWEFS"             # index = android_LogPriority
FORMATS = ("brief", "process", "tag", "thread", "raw", "time", "threadtime", "long")
MODIFIERS = ("year", "epoch", "monotonic", "usec", "nsec", "UTC", "zone", "uid", "printable", "color",
             "descriptive")
COLORS = {"V": 0, "D": 94, "I": 32, "W": 33, "E": 31, "F": 91}
USERS = {0: "root", 1000: "system", 2000: "shell"}
SHORT_WITH_ARG = set("bvtTemGfrnp")
LONG_OPTS = {"--buffer": "b", "--format": "v", "--regex": "e", "--max-count": "m", "--clear": "c",
             "--dump": "d", "--buffer-size": "g", "--dividers": "D", "--last": "L", "--pid": "pid"}


class LogcatError(Exception):
    """A logcat command line that logcat refuses (one line, as logcat prints it)."""


@dataclass(frozen=True)
class LogEntry:
    realtime_ns: int
    monotonic_ns: int
    pid: int
    tid: int
    uid: int
    priority: int
    tag: str
    message: str
    buffer: str

    @property
    def size(self) -> int:
        return ENTRY_OVERHEAD + len(self.tag.encode()) + len(self.message.encode())


@dataclass
class Logd:
    """The rings of one boot; ``seq`` numbers every entry so a follower resumes where it was."""

    boot_monotonic_ns: int = field(default_factory=time.monotonic_ns)
    rings: dict[str, deque[tuple[int, LogEntry]]] = field(default_factory=lambda: {b: deque() for b in BUFFERS})
    used: dict[str, int] = field(default_factory=lambda: dict.fromkeys(BUFFERS, 0))
    seq: int = 0
    waiters: set[asyncio.Event] = field(default_factory=set)      # following logcats

    def write(self, buffer: str, priority: int, tag: str, message: str, pid: int, uid: int) -> None:
        entry = LogEntry(time.time_ns(), time.monotonic_ns() - self.boot_monotonic_ns, pid, pid, uid,
                         priority, tag, message[:MAX_PAYLOAD - len(tag) - 2], buffer)
        ring = self.rings[buffer]
        self.seq += 1
        ring.append((self.seq, entry))
        self.used[buffer] += entry.size
        while self.used[buffer] > RING_BYTES:
            self.used[buffer] -= ring.popleft()[1].size
        for waiter in self.waiters:
            waiter.set()

    def clear(self, buffers: tuple[str, ...]) -> None:
        for b in buffers:
            self.rings[b].clear()
            self.used[b] = 0

    def since(self, seq: int, buffers: tuple[str, ...]) -> list[tuple[int, LogEntry]]:
        """Entries after ``seq`` in the given buffers, merged in time order as logcat reads them."""
        out = [item for b in buffers for item in self.rings[b] if item[0] > seq]
        return sorted(out, key=lambda item: item[0])

    def sizes(self, buffers: tuple[str, ...]) -> str:
        return "".join(f"{b}: ring buffer is {RING_BYTES // 1024} KiB ({_kib(self.used[b])} consumed, "
                       f"{_kib(self.used[b])} readable), max entry is 5120 B, max payload is {MAX_PAYLOAD} B\n"
                       for b in buffers)


def _kib(n: int) -> str:
    return f"{n} B" if n < 1024 else f"{n // 1024} KiB"


@dataclass
class LogcatRequest:
    """A parsed logcat command line."""

    buffers: tuple[str, ...] = DEFAULT_BUFFERS
    format: str = "threadtime"
    modifiers: set[str] = field(default_factory=set)
    filters: list[tuple[str, int]] = field(default_factory=list)
    default_priority: int = 2
    clear: bool = False
    dump: bool = False
    sizes: bool = False
    dividers: bool = False
    tail_count: int | None = None
    tail_since_ns: int | None = None
    regex: re.Pattern[str] | None = None
    max_count: int | None = None
    pid: int | None = None

    def wants(self, e: LogEntry) -> bool:
        prio = next((p for tag, p in self.filters if tag == e.tag), self.default_priority)
        return (e.priority >= prio and (self.pid is None or e.pid == self.pid)
                and (self.regex is None or self.regex.search(e.message) is not None))


def parse_logcat(args: list[str], env_tags: str = "") -> LogcatRequest:
    """Android logcat's options (getopt: ``-vthreadtime`` or ``-v threadtime``)."""
    req = LogcatRequest()
    buffers: list[str] = []
    specs: list[str] = []
    silent = False
    i = 0
    while i < len(args):
        a = args[i]
        i += 1
        if a.startswith("--") and a != "--":
            name, eq, val = a.partition("=")
            opt = LONG_OPTS.get(name)
            if opt is None:
                raise LogcatError(f"logcat: unrecognized option '{a}'")
            if opt in SHORT_WITH_ARG or opt == "pid":
                if not eq:
                    if i >= len(args):
                        raise LogcatError(f"logcat: option '{name}' requires an argument")
                    val, i = args[i], i + 1
                _apply(req, opt, val, buffers)
            else:
                silent = _flag(req, opt, silent)
            continue
        if not a.startswith("-") or a == "-":
            specs.append(a)
            continue
        j = 1
        while j < len(a):
            opt = a[j]
            if opt in SHORT_WITH_ARG:
                val = a[j + 1:]
                if not val:
                    if i >= len(args):
                        raise LogcatError(f"logcat: option requires an argument -- '{opt}'")
                    val, i = args[i], i + 1
                _apply(req, opt, val, buffers)
                break
            silent = _flag(req, opt, silent)
            j += 1
    if buffers:
        req.buffers = tuple(b for b in BUFFERS if b in buffers)
    if silent:
        req.default_priority = 8
    if not specs and env_tags:
        specs = env_tags.split()
    for spec in specs:
        tag, _, prio = spec.rpartition(":") if ":" in spec else (spec, "", "V")
        p = _priority(prio)
        if p is None or not tag:
            raise LogcatError(f"logcat: Invalid filter expression '{spec}'")
        if tag == "*":
            req.default_priority = p
        else:
            req.filters.append((tag, p))
    return req


def _flag(req: LogcatRequest, opt: str, silent: bool) -> bool:
    if opt == "c":
        req.clear = True
    elif opt == "d":
        req.dump = True
    elif opt == "g":
        req.sizes = True
    elif opt == "D":
        req.dividers = True
    elif opt == "s":
        return True
    elif opt == "L":
        raise LogcatError("logcat: -L: no logs from before the last reboot were kept (no pstore)")
    else:
        raise LogcatError(f"logcat: invalid option -- '{opt}'" if opt != "f"
                          else "logcat: -f is not supported here: redirect logcat's output instead")
    return silent


def _apply(req: LogcatRequest, opt: str, val: str, buffers: list[str]) -> None:
    if opt == "b":
        for name in val.replace(",", " ").split():
            if name == "all":
                buffers.extend(BUFFERS)
            elif name == "default":
                buffers.extend(DEFAULT_BUFFERS)
            elif name in BUFFERS:
                buffers.append(name)
            else:
                raise LogcatError(f"logcat: unknown buffer '{name}' listed for -b")
    elif opt == "v":
        for word in val.replace(",", " ").split():
            if word in FORMATS:
                req.format = word
            elif word in MODIFIERS:
                req.modifiers.add(word)
            else:
                raise LogcatError(f'logcat: Invalid parameter "{word}" to -v.')
    elif opt in "tT":
        if val.isdigit():
            req.tail_count = max(int(val), 1)
        else:
            req.tail_since_ns = _parse_time(val)
        req.dump = req.dump or opt == "t"
    elif opt == "e":
        try:
            req.regex = re.compile(val)
        except re.error as e:
            raise LogcatError(f"logcat: invalid regex '{val}': {e}") from None
    elif opt in ("m", "pid"):
        if not val.isdigit() or int(val) < (1 if opt == "m" else 0):
            raise LogcatError(f"logcat: invalid {'max count' if opt == 'm' else 'pid'} '{val}'")
        if opt == "m":
            req.max_count = int(val)
        else:
            req.pid = int(val)
    elif opt == "G":
        raise LogcatError("logcat: failed to set the log size: shell may not resize logd's buffers on a user build")
    else:
        raise LogcatError(f"logcat: -{opt} is not supported by the edgecl virtual phone")


def _priority(text: str) -> int | None:
    t = text.upper()
    if len(t) == 1 and t in "VDIWEFS":
        return PRIORITIES.index(t)
    if t.isdigit() and 2 <= int(t) <= 8:
        return int(t)
    return None


def _parse_time(text: str) -> int:
    """logcat's -t/-T times: ``MM-DD hh:mm:ss.mmm``, ``YYYY-MM-DD hh:mm:ss.mmm`` or ``SSSS.mmm``."""
    if re.fullmatch(r"\d+\.\d+", text):
        sec, frac = text.split(".")
        return int(sec) * 10**9 + int((frac + "000000000")[:9])
    m = re.fullmatch(r"(?:(\d{4})-)?(\d\d)-(\d\d) (\d\d):(\d\d):(\d\d)(?:\.(\d{1,9}))?", text.strip())
    if m is None:
        raise LogcatError(f"logcat: -t/-T \"{text}\" not in time format")
    year = int(m.group(1) or time.gmtime().tm_year)
    sec = calendar.timegm((year, int(m.group(2)), int(m.group(3)), int(m.group(4)), int(m.group(5)),
                           int(m.group(6)), 0, 0, 0))
    return sec * 10**9 + int(((m.group(7) or "") + "000000000")[:9])


def _time_text(e: LogEntry, mods: set[str]) -> str:
    ns = e.monotonic_ns if "monotonic" in mods else e.realtime_ns
    sec, frac = divmod(ns, 10**9)
    if "epoch" in mods or "monotonic" in mods:
        head = f"{sec:5d}"
    else:
        head = time.strftime("%Y-%m-%d %H:%M:%S" if "year" in mods else "%m-%d %H:%M:%S", time.gmtime(sec))
    tail = (f".{frac:09d}" if "nsec" in mods else f".{frac // 1000:06d}" if "usec" in mods
            else f".{frac // 10**6:03d}")
    return head + tail + (" +0000" if "zone" in mods else "")


def format_entry(e: LogEntry, fmt: str, mods: set[str]) -> str:
    """One entry as liblog's android_log_formatLogLine prints it, one output line per message line."""
    p = PRIORITIES[e.priority]
    uid = ""
    if "uid" in mods:
        name = USERS.get(e.uid, str(e.uid))
        uid = f"{name:>5}:" if len(name) <= 5 else f"{e.uid:5d}:"
    t = _time_text(e, mods) if fmt in ("time", "threadtime", "long") else ""
    prefix, suffix = {
        "brief": (f"{p}/{e.tag:<8}({uid}{e.pid:5d}): ", ""),
        "process": (f"{p}({uid}{e.pid:5d}) ", f"  ({e.tag})"),
        "tag": (f"{p}/{e.tag:<8}: ", ""),
        "thread": (f"{p}({uid}{e.pid:5d}:{e.tid:5d}) ", ""),
        "raw": ("", ""),
        "time": (f"{t} {p}/{e.tag:<8}({uid}{e.pid:5d}): ", ""),
        "threadtime": (f"{t} {uid}{e.pid:5d} {e.tid:5d} {p} {e.tag:<8}: ", ""),
        "long": ("", ""),
    }[fmt]
    if fmt == "long":
        text = f"[ {t} {uid}{e.pid:5d}:{e.tid:5d} {p}/{e.tag:<8} ]\n{e.message}\n\n"
    else:
        text = "".join(f"{prefix}{line}{suffix}\n" for line in (e.message.split("\n") or [""]))
    if "color" in mods and COLORS.get(p):
        text = f"\x1b[38;5;{COLORS[p]}m{text}\x1b[0m"
    return text


@dataclass
class LogcatReader:
    """One logcat's view: what it has printed so far, its dividers and its count."""

    req: LogcatRequest
    last_seq: int = 0
    printed: int = 0
    last_buffer: str | None = None
    started: set[str] = field(default_factory=set)

    def backlog(self, logd: Logd) -> str:
        items = [(s, e) for s, e in logd.since(0, self.req.buffers) if self.req.wants(e)]
        if self.req.tail_since_ns is not None:
            items = [(s, e) for s, e in items if e.realtime_ns >= self.req.tail_since_ns]
        if self.req.tail_count is not None:
            items = items[-self.req.tail_count:]
        self.last_seq = logd.seq
        return self._render(items)

    def more(self, logd: Logd) -> str:
        items = [(s, e) for s, e in logd.since(self.last_seq, self.req.buffers) if self.req.wants(e)]
        self.last_seq = logd.seq
        return self._render(items)

    @property
    def done(self) -> bool:
        return self.req.max_count is not None and self.printed >= self.req.max_count

    def _render(self, items: list[tuple[int, LogEntry]]) -> str:
        out = []
        for _seq, e in items:
            if self.done:
                break
            if e.buffer != self.last_buffer:
                if e.buffer not in self.started or self.req.dividers:
                    word = "switch to" if e.buffer in self.started else "beginning of"
                    out.append(f"--------- {word} {e.buffer}\n")
                self.started.add(e.buffer)
                self.last_buffer = e.buffer
            out.append(format_entry(e, self.req.format, self.req.modifiers))
            self.printed += 1
        return "".join(out)
