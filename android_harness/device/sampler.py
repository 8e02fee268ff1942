"""Device-side power sampler: reads the battery counters at a fixed rate and appends power.csv, and
(where the phone has an on-device power monitor) ODPM rail snapshots to rails.txt.

Runs ON the phone (standard library only), so the host never polls over adb. Rows are stamped with
CLOCK_MONOTONIC (``t``, the clock events use) and CLOCK_BOOTTIME
(``t_boot``), so a suspend between two rows is visible. Values are written RAW; units and sign are
the host's business (DeviceProfile). Every counter file is opened once and re-read with
``os.pread``; rows are buffered and written about once a second; the loop sleeps to absolute
deadlines (overruns counted, never bursts). Rails are read in a thread on their own period.

Bounded by the session (docs/contracts.md, "Power sampler"): it stops on SIGTERM/SIGINT or after
``--seconds``; and it DRAINS -- keeps sampling until the fuel gauge has refreshed
``--drain-refreshes`` more times (a gauge reports a period's average one period late) or
``--drain-max-s`` passed -- once the stop file exists (content ``now``: no drain), the end file
exists (the session's result.json), or the lease file has not changed for ``--lease-s`` (the host
is gone). ``--seconds`` is an exact limit (standalone traces, a safety cap), without a drain.

Usage: ``python3 sampler.py --out power.csv --dir /sys/class/power_supply/battery [--rate 10]``
"""
from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import threading
import time

COLUMNS = ("current", "voltage", "charge_counter", "capacity", "status", "temp", "energy_counter")
DEFAULT_FILES = {"current": "current_now", "voltage": "voltage_now", "charge_counter": "charge_counter",
                 "capacity": "capacity", "status": "status", "temp": "temp", "energy_counter": "energy_now"}
HEADER = "t," + ",".join(COLUMNS) + ",t_boot"
FORMAT_VERSION = 2
FLUSH_S = 1.0
READ_BYTES = 64
DRAIN_REFRESHES = 2
DRAIN_MAX_S = 40.0


def monotonic() -> float:
    return time.clock_gettime(time.CLOCK_MONOTONIC)


def boottime() -> float:
    return time.clock_gettime(time.CLOCK_BOOTTIME)


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

    def read(self, size: int = READ_BYTES) -> str:
        if self.watch_inode:
            try:
                if os.stat(self.path).st_ino != self.inode:
                    self._open()
            except OSError:
                pass
        if self.fd is None:
            return ""
        try:
            raw = os.pread(self.fd, size, 0)
        except OSError:
            return ""
        return raw.decode("ascii", "replace").strip()

    def close(self) -> None:
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None


class RailReader(threading.Thread):
    """ODPM snapshots every ``period`` s into ``out`` (rails.txt blocks), from files (iio
    ``energy_value``) or a command (``dumpsys android.hardware.power.stats.IPowerStats/default``)."""

    def __init__(self, out: str, period: float, files: list[str], cmd: str | None) -> None:
        super().__init__(name="rails", daemon=True)
        self.out, self.period, self.cmd = out, period, cmd
        self.files = [CounterFile(f) for f in files]
        self.halt = threading.Event()
        self.snapshots = 0

    def snapshot(self) -> None:
        t0 = monotonic()
        if self.cmd:
            res = subprocess.run(["sh", "-c", self.cmd], capture_output=True, text=True, timeout=30)
            body = res.stdout
        else:
            body = "\n".join(f.read(1 << 16) for f in self.files)
        t1 = monotonic()
        block = (f"@@ rails t0={t0:.6f} t1={t1:.6f} clock=CLOCK_MONOTONIC "
                 f"source={'cmd' if self.cmd else 'files'}\n{body.rstrip()}\n@@ end\n")
        with open(self.out, "a") as f:
            f.write(block)
        self.snapshots += 1

    def run(self) -> None:
        start = monotonic()
        k = 0
        while not self.halt.is_set():
            try:
                self.snapshot()
            except (OSError, subprocess.SubprocessError) as exc:
                print(f"sampler: rail snapshot failed: {exc}", file=sys.stderr)
            k += 1
            self.halt.wait(max(start + k * self.period - monotonic(), 0.0))

    def stop(self) -> None:
        self.halt.set()
        self.join(timeout=35)
        try:
            self.snapshot()                  # one past the end, so the last interval is closed
        except (OSError, subprocess.SubprocessError):
            pass
        for f in self.files:
            f.close()


class Bounds:
    """When to drain and stop: stop file, end file, an expired lease (the time limit is the loop's)."""

    def __init__(self, stop_file: str | None, end_file: str | None, lease_file: str | None, lease_s: float,
                 seconds: float | None) -> None:
        self.stop_file, self.end_file, self.lease_file, self.lease_s = stop_file, end_file, lease_file, lease_s
        self.seconds = seconds
        self.lease_value: str | None = None
        self.lease_at = monotonic()

    def _lease_expired(self, now: float) -> bool:
        if not self.lease_file:
            return False
        try:
            with open(self.lease_file) as f:
                value = f.read(128)
        except OSError:
            value = None
        if value != self.lease_value:
            self.lease_value, self.lease_at = value, now
        return now - self.lease_at > self.lease_s

    def check(self, now: float, start: float) -> str | None:
        """None to go on, "now" to stop at once, or the reason to drain."""
        if self.stop_file and os.path.exists(self.stop_file):
            try:
                with open(self.stop_file) as f:
                    return "now" if f.read(16).strip() == "now" else "stop file"
            except OSError:
                return "stop file"
        if self.end_file and os.path.exists(self.end_file):
            return "session ended"
        if self._lease_expired(now):
            return f"lease not renewed for {self.lease_s:g} s (host gone)"
        return None


class Sampler:
    """The sampling loop; ``run`` returns the number of rows written."""

    def __init__(self, out: str, files: dict[str, str], rate_hz: float, bounds: Bounds, pid_file: str | None = None,
                 rails: RailReader | None = None, drain_refreshes: int = DRAIN_REFRESHES,
                 drain_max_s: float = DRAIN_MAX_S) -> None:
        if not 0 < rate_hz <= 1000:
            raise ValueError(f"--rate must be in (0, 1000] Hz, got {rate_hz}")
        self.out, self.rate_hz, self.bounds, self.pid_file, self.rails = out, rate_hz, bounds, pid_file, rails
        self.drain_refreshes, self.drain_max_s = drain_refreshes, drain_max_s
        self.counters = [CounterFile(files[c]) for c in COLUMNS]
        self.stopping = False
        self.rows = 0
        self.overruns = 0
        self.ended = ""

    def _stop(self, signum: int, frame: object) -> None:
        self.stopping = True

    def _meta(self) -> list[str]:
        lines = [f"# edgecl power.csv v{FORMAT_VERSION}", "# clock=CLOCK_MONOTONIC", f"# rate_hz={self.rate_hz:g}",
                 f"# pid={os.getpid()}", "# sampler=python", f"# anchor mono={monotonic():.6f} boot={boottime():.6f}"]
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
            if self.rails is not None:
                self.rails.start()
            self._loop(fd)
            if self.rails is not None:
                self.rails.stop()
            os.write(fd, f"# stopped t={monotonic():.6f} rows={self.rows} overruns={self.overruns} "
                         f"why={self.ended.replace(' ', '_') or 'signal'}\n".encode())
        finally:
            os.close(fd)
            for c in self.counters:
                c.close()
        return self.rows

    def _loop(self, fd: int) -> None:
        period = 1.0 / self.rate_hz
        start = monotonic()
        end = start + self.bounds.seconds if self.bounds.seconds else None
        buf: list[str] = []
        next_flush = start + FLUSH_S
        k = 0
        drain_since: float | None = None
        changes, last_current = 0, None
        while not self.stopping:
            now = monotonic()
            values = [c.read().replace(",", ";") for c in self.counters]
            buf.append(f"{now:.6f}," + ",".join(values) + f",{boottime():.6f}")
            self.rows += 1
            if drain_since is not None and last_current is not None and values[0] != last_current:
                changes += 1
            last_current = values[0]
            if end is not None and now >= end:           # the time limit is exact, no drain
                self.ended = "time limit"
                break
            if now >= next_flush:
                os.write(fd, ("\n".join(buf) + "\n").encode())
                buf.clear()
                next_flush = now + FLUSH_S
                if drain_since is None:
                    why = self.bounds.check(now, start)
                    if why == "now":
                        self.ended = "stopped at once"
                        break
                    if why is not None:
                        self.ended, drain_since, changes = why, now, 0
            if drain_since is not None and (changes >= self.drain_refreshes or now - drain_since >= self.drain_max_s):
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
    p.add_argument("--stop-file", default=None, help="drain and stop when it exists ('now' inside: at once)")
    p.add_argument("--end-file", default=None, help="drain and stop when it exists (the session's result.json)")
    p.add_argument("--lease-file", default=None, help="drain and stop when its content stops changing")
    p.add_argument("--lease-s", type=float, default=120.0, help="how long an unchanged lease is still valid")
    p.add_argument("--seconds", type=float, default=None, help="stop after this many seconds (no drain)")
    p.add_argument("--drain-refreshes", type=int, default=DRAIN_REFRESHES, help="gauge refreshes to wait for when stopping")
    p.add_argument("--drain-max-s", type=float, default=DRAIN_MAX_S, help="longest drain")
    p.add_argument("--pid-file", default=None, help="write our pid here (temp then rename)")
    p.add_argument("--rails-out", default=None, help="append ODPM snapshots here (rails.txt contract)")
    p.add_argument("--rails-file", action="append", default=[], help="an iio energy_value file (repeatable)")
    p.add_argument("--rails-cmd", default=None, help="a shell command printing ODPM rails (e.g. dumpsys ...)")
    p.add_argument("--rails-period", type=float, default=1.0, help="seconds between rail snapshots")
    return p.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    files = {c: getattr(args, c) or os.path.join(args.dir, DEFAULT_FILES[c]) for c in COLUMNS}
    rails = None
    if args.rails_out and (args.rails_file or args.rails_cmd):
        rails = RailReader(args.rails_out, args.rails_period, args.rails_file, args.rails_cmd)
    bounds = Bounds(args.stop_file, args.end_file, args.lease_file, args.lease_s, args.seconds)
    try:
        sampler = Sampler(args.out, files, args.rate, bounds, args.pid_file, rails, args.drain_refreshes, args.drain_max_s)
    except ValueError as exc:
        print(f"sampler: {exc}", file=sys.stderr)
        return 2
    rows = sampler.run()
    print(f"sampler: {rows} rows, {sampler.overruns} overruns -> {args.out} ({sampler.ended or 'signal'})", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
