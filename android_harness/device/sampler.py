"""Device-side power sampler: reads the battery counters at a fixed rate and appends power.csv.

Runs ON the phone (standard library only), so the host never polls over adb: polling through
``adb shell cat`` adds round trips and wakes the phone (android.md B, pitfall 4). Timestamps are
CLOCK_MONOTONIC seconds, the clock the runner stamps events with, so power and events line up.

Low overhead by construction: every counter file is opened once and re-read with ``os.pread``;
rows are buffered and written about once a second; the loop sleeps to absolute deadlines (no
drift, overruns counted, never "catch-up" bursts). Stops on SIGTERM/SIGINT, on a stop file, or
after ``--seconds``. Values are written RAW; units and sign are the host's business (DeviceProfile).

Usage: ``python3 sampler.py --out power.csv --dir /sys/class/power_supply/battery [--rate 10]``
"""
from __future__ import annotations

import argparse
import os
import signal
import sys
import time

COLUMNS = ("current", "voltage", "charge_counter", "capacity", "status", "temp")
DEFAULT_FILES = {"current": "current_now", "voltage": "voltage_now", "charge_counter": "charge_counter",
                 "capacity": "capacity", "status": "status", "temp": "temp"}
HEADER = "t," + ",".join(COLUMNS)
FORMAT_VERSION = 1
FLUSH_S = 1.0
READ_BYTES = 64


def monotonic() -> float:
    return time.clock_gettime(time.CLOCK_MONOTONIC)


class CounterFile:
    """One counter, opened once. Real sysfs attributes are never replaced, so a pread on the open fd
    is enough; files elsewhere (a virtual phone, a test folder) may be replaced atomically, so those
    are re-opened when their inode changes."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.watch_inode = not path.startswith("/sys/")
        self.fd: int | None = None
        self.inode = -1
        self.error = ""
        self._open()

    def _open(self) -> None:
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None
        try:
            self.fd = os.open(self.path, os.O_RDONLY)
            self.inode = os.fstat(self.fd).st_ino
            self.error = ""
        except OSError as exc:
            self.error = exc.strerror or str(exc)

    def read(self) -> str:
        if self.watch_inode:
            try:
                if os.stat(self.path).st_ino != self.inode:
                    self._open()
            except OSError:
                pass
        if self.fd is None:
            return ""
        try:
            raw = os.pread(self.fd, READ_BYTES, 0)
        except OSError:
            return ""
        return raw.decode("ascii", "replace").strip().replace(",", ";")

    def close(self) -> None:
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None


class Sampler:
    """The sampling loop; ``run`` returns the number of rows written."""

    def __init__(self, out: str, files: dict[str, str], rate_hz: float, stop_file: str | None,
                 seconds: float | None, pid_file: str | None = None) -> None:
        if not 0 < rate_hz <= 1000:
            raise ValueError(f"--rate must be in (0, 1000] Hz, got {rate_hz}")
        self.out, self.rate_hz, self.stop_file, self.seconds = out, rate_hz, stop_file, seconds
        self.pid_file = pid_file
        self.counters = [CounterFile(files[c]) for c in COLUMNS]
        self.stopping = False
        self.rows = 0
        self.overruns = 0

    def _stop(self, signum: int, frame: object) -> None:
        self.stopping = True

    def _meta(self) -> list[str]:
        lines = [f"# edgecl power.csv v{FORMAT_VERSION}", "# clock=CLOCK_MONOTONIC",
                 f"# rate_hz={self.rate_hz:g}", f"# pid={os.getpid()}", "# sampler=python"]
        for name, c in zip(COLUMNS, self.counters):
            lines.append(f"# file {name}={c.path}" + (f" unreadable: {c.error}" if c.error else ""))
        return lines

    def run(self) -> int:
        for sig in (signal.SIGTERM, signal.SIGINT):
            signal.signal(sig, self._stop)
        if hasattr(signal, "SIGHUP"):
            signal.signal(signal.SIGHUP, signal.SIG_IGN)
        if self.pid_file:                            # written once signals are handled: "started"
            tmp = f"{self.pid_file}.tmp"
            with open(tmp, "w") as f:
                f.write(f"{os.getpid()}\n")
            os.replace(tmp, self.pid_file)
        fd = os.open(self.out, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            fresh = os.fstat(fd).st_size == 0
            head = self._meta() + ([HEADER] if fresh else [])
            os.write(fd, ("\n".join(head) + "\n").encode())
            self._loop(fd)
            os.write(fd, f"# stopped t={monotonic():.6f} rows={self.rows} overruns={self.overruns}\n".encode())
        finally:
            os.close(fd)
            for c in self.counters:
                c.close()
        return self.rows

    def _loop(self, fd: int) -> None:
        period = 1.0 / self.rate_hz
        start = monotonic()
        end = start + self.seconds if self.seconds else None
        buf: list[str] = []
        next_flush = start + FLUSH_S
        k = 0
        while not self.stopping:
            now = monotonic()
            values = [c.read() for c in self.counters]
            buf.append(f"{now:.6f}," + ",".join(values))
            self.rows += 1
            if now >= next_flush:
                os.write(fd, ("\n".join(buf) + "\n").encode())
                buf.clear()
                next_flush = now + FLUSH_S
                if self.stop_file and os.path.exists(self.stop_file):
                    break
            if end is not None and now >= end:
                break
            k += 1
            deadline = start + k * period
            now = monotonic()
            if now >= deadline:                      # late: skip the missed slots, do not burst
                missed = int((now - deadline) / period) + 1
                self.overruns += missed
                k += missed
                deadline = start + k * period
            if end is not None:
                deadline = min(deadline, end)
            time.sleep(max(deadline - monotonic(), 0.0))
        if buf:
            os.write(fd, ("\n".join(buf) + "\n").encode())


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="sampler", description="edgecl device-side power sampler")
    p.add_argument("--out", required=True, help="CSV to append (power.csv contract)")
    p.add_argument("--dir", default="/sys/class/power_supply/battery", help="power_supply folder")
    for col in COLUMNS:
        p.add_argument(f"--{col.replace('_', '-')}", dest=col, default=None,
                       help=f"path of the {col} file (default <dir>/{DEFAULT_FILES[col]})")
    p.add_argument("--rate", type=float, default=10.0, help="samples per second")
    p.add_argument("--stop-file", default=None, help="stop when this file exists (checked ~1/s)")
    p.add_argument("--seconds", type=float, default=None, help="stop after this many seconds")
    p.add_argument("--pid-file", default=None, help="write our pid here (temp then rename)")
    return p.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    files = {c: getattr(args, c) or os.path.join(args.dir, DEFAULT_FILES[c]) for c in COLUMNS}
    try:
        sampler = Sampler(args.out, files, args.rate, args.stop_file, args.seconds, args.pid_file)
    except ValueError as exc:
        print(f"sampler: {exc}", file=sys.stderr)
        return 2
    rows = sampler.run()
    print(f"sampler: {rows} rows, {sampler.overruns} overruns -> {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
