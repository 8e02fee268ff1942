"""adb access to one device: shell, batched shell, sync push/pull/stat (the server it goes through is
``android_harness.adb_server``'s).

adbutils' exceptions never leave this module; they become ``AdbError``/``AdbTimeout``/``DeviceError``
naming the device. Shell uses the v2 protocol (real exit codes, separate stderr). Sync push/pull
are done here over the adb server's ``sync:`` service with 64 KiB DATA chunks and many files per
connection (adbutils' own push writes 4 KiB chunks, one connection per file).
"""
from __future__ import annotations

import contextlib
import hashlib
import os
import secrets
import socket
import stat as statmod
import struct
import time
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, Callable, Iterator, Sequence

from adbutils import errors as adb_errors

from android_harness.shell_quote import to_shell
from android_harness.adb_server import TRANSPORT_ERRORS, ServerAddress
from android_harness.errors import AdbError, AdbTimeout

DEFAULT_TIMEOUT_S = 60.0
IDEMPOTENT_RETRIES = 2          # extra attempts for calls that are safe to repeat
RETRY_BACKOFF_S = 0.3
SYNC_CHUNK = 64 * 1024          # DATA payload limit of the sync protocol
SYNC_READ = 1024 * 1024         # local read size; framed into SYNC_CHUNK pieces, one send


@dataclass(frozen=True)
class ShellResult:
    cmd: str
    stdout: str
    stderr: str
    exit_code: int

    @property
    def ok(self) -> bool:
        return self.exit_code == 0


@dataclass(frozen=True)
class RemoteStat:
    path: str
    mode: int
    size: int
    mtime: int

    @property
    def exists(self) -> bool:
        return self.mode != 0 or self.mtime != 0

    @property
    def is_dir(self) -> bool:
        return statmod.S_ISDIR(self.mode)


@dataclass(frozen=True)
class PushedFile:
    remote: str
    size: int
    sha256: str         # of the bytes sent


class Adb:
    """adb access to one device: shell (v2), batched shell, push/pull/stat over sync. ``revive``: what
    brings a dead server back with this device on it (``private_server.reviver_for``); every call
    reaching a dead server runs it once, then connects again."""

    def __init__(self, serial: str, server: ServerAddress | None = None,
                 revive: Callable[[], None] | None = None) -> None:
        self.serial = serial
        self.server = server or ServerAddress.from_env()
        self.revive = revive
        self._dev = self.server.client(revive).device(serial=serial)

    def __repr__(self) -> str:
        return f"Adb({self.serial!r}, {self.server.host}:{self.server.port})"

    def _retrying(self, what: str, fn: Callable[[], object], idempotent: bool, timeout: float):
        attempts = 1 + (IDEMPOTENT_RETRIES if idempotent else 0)
        for attempt in range(attempts):
            try:
                return fn()
            except (adb_errors.AdbTimeout, socket.timeout, TimeoutError) as e:
                raise AdbTimeout(self.serial, what, timeout) from e
            except TRANSPORT_ERRORS as e:
                if attempt + 1 == attempts:
                    raise AdbError(self.serial, what, None, stderr=str(e)) from e
                time.sleep(RETRY_BACKOFF_S * (attempt + 1))
        raise AssertionError("unreachable")

    def shell(self, cmd: str | Sequence[str], timeout: float = DEFAULT_TIMEOUT_S, check: bool = True,
              idempotent: bool = False) -> ShellResult:
        """Run ``cmd`` (a list is quoted word by word); ``check`` raises AdbError on non-zero exit.
        A timeout closes the stream, which kills the command on the device."""
        text = to_shell(cmd)
        raw = self._retrying(text, lambda: self._dev.shell2(text, timeout=timeout, v2=True,
                                                            encoding=None), idempotent, timeout)
        res = ShellResult(text, raw.stdout.decode("utf-8", "replace"),
                          raw.stderr.decode("utf-8", "replace"), raw.returncode)
        if check and not res.ok:
            raise AdbError(self.serial, text, res.exit_code, res.stdout, res.stderr)
        return res

    def batch(self, cmds: Sequence[str | Sequence[str]], timeout: float = DEFAULT_TIMEOUT_S,
              check: bool = True, idempotent: bool = False) -> list[ShellResult]:
        """Several commands in ONE shell round trip, each with its own stdout, stderr and exit code
        (each runs in a subshell with stdin from /dev/null, so ``exit`` cannot end the batch)."""
        if not cmds:
            return []
        nonce = secrets.token_hex(8)
        texts = [to_shell(c) for c in cmds]
        script = "\n".join(
            f"echo '{nonce}:B:{i}'; echo '{nonce}:B:{i}' >&2; "
            f"( {t}\n) </dev/null; echo \"\n{nonce}:R:{i}:$?\"; echo >&2"
            for i, t in enumerate(texts))
        whole = self.shell(script, timeout=timeout, check=False, idempotent=idempotent)
        results = []
        for i, text in enumerate(texts):
            out = _between(whole.stdout, f"{nonce}:B:{i}\n", f"\n{nonce}:R:{i}:")
            rc_text = whole.stdout.split(f"\n{nonce}:R:{i}:", 1)[-1].split("\n", 1)[0]
            if out is None or not rc_text.isdigit():
                raise AdbError(self.serial, text, whole.exit_code, whole.stdout, whole.stderr
                               or "batch output truncated")
            err = _between(whole.stderr, f"{nonce}:B:{i}\n", f"{nonce}:B:{i + 1}\n")
            err = (err if err is not None else whole.stderr.split(f"{nonce}:B:{i}\n", 1)[-1])
            results.append(ShellResult(text, out, err[:-1] if err.endswith("\n") else err, int(rc_text)))
        if check:
            for r in results:
                if not r.ok:
                    raise AdbError(self.serial, r.cmd, r.exit_code, r.stdout, r.stderr)
        return results

    @contextlib.contextmanager
    def _sync(self, what: str) -> Iterator[socket.socket]:
        try:
            conn = self._dev.open_transport(timeout=DEFAULT_TIMEOUT_S)
            conn.conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)   # DONE must not wait on Nagle
            conn.send_command("sync:")
            conn.check_okay()
        except (adb_errors.AdbTimeout, socket.timeout) as e:
            raise AdbTimeout(self.serial, what, DEFAULT_TIMEOUT_S) from e
        except TRANSPORT_ERRORS as e:
            raise AdbError(self.serial, what, None, stderr=str(e)) from e
        try:
            yield conn.conn
        except (socket.timeout, TimeoutError) as e:
            raise AdbTimeout(self.serial, what, DEFAULT_TIMEOUT_S) from e
        except (ConnectionError, EOFError, OSError) as e:
            raise AdbError(self.serial, what, None, stderr=f"sync connection lost: {e}") from e
        finally:
            conn.close()

    def stat(self, remote: str) -> RemoteStat:
        """lstat over sync; ``exists`` is False for a missing path."""
        def run() -> RemoteStat:
            with self._sync(f"stat {remote}") as s:
                _send_request(s, b"STAT", remote)
                ident, mode, size, mtime = struct.unpack("<4sIII", _recv_exact(s, 16))
                if ident != b"STAT":
                    raise AdbError(self.serial, f"stat {remote}", None, stderr=f"bad reply {ident!r}")
                return RemoteStat(remote, mode, size, mtime)
        return self._retrying(f"stat {remote}", run, True, DEFAULT_TIMEOUT_S)

    def push_files(self, pairs: Sequence[tuple[Path | BinaryIO, str]], mode: int = 0o644,
                   progress: Callable[[int], None] | None = None) -> list[PushedFile]:
        """Push ``(local, remote_path)`` pairs over one sync connection; parents are created on the
        device. Files are pipelined: all are sent, then the per-file replies are read (after a
        failure the device discards DATA until DONE, so this is safe). The sha256 of the bytes sent
        is computed on the way. Any failed file raises AdbError naming it."""
        with self._sync(f"push {len(pairs)} files") as s:
            sent = [self._send_one(s, local, remote, mode, progress) for local, remote in pairs]
            failures = []
            for p in sent:
                reply, length = struct.unpack("<4sI", _recv_exact(s, 8))
                if reply == b"FAIL":
                    failures.append(f"{p.remote}: {_recv_exact(s, length).decode('utf-8', 'replace')}")
                elif reply != b"OKAY":
                    raise AdbError(self.serial, f"push {p.remote}", None, stderr=f"bad sync reply {reply!r}")
        if failures:
            raise AdbError(self.serial, f"push {len(pairs)} files", None, stderr="; ".join(failures))
        return sent

    def push(self, local: Path | BinaryIO, remote: str, mode: int = 0o644) -> int:
        return self.push_files([(local, remote)], mode)[0].size

    def _send_one(self, s: socket.socket, local: Path | BinaryIO, remote: str, mode: int,
                  progress: Callable[[int], None] | None) -> PushedFile:
        f = open(local, "rb") if isinstance(local, (str, Path)) else local
        sent = 0
        digest = hashlib.sha256()
        try:
            _send_request(s, b"SEND", f"{remote},{statmod.S_IFREG | mode}")
            while block := f.read(SYNC_READ):
                digest.update(block)
                view = memoryview(block)
                frames = bytearray()
                for i in range(0, len(block), SYNC_CHUNK):
                    piece = view[i:i + SYNC_CHUNK]
                    frames += b"DATA" + struct.pack("<I", len(piece))
                    frames += piece
                s.sendall(frames)
                sent += len(block)
                if progress:
                    progress(len(block))
            s.sendall(b"DONE" + struct.pack("<I", int(time.time())))
        finally:
            if f is not local:
                f.close()
        return PushedFile(remote, sent, digest.hexdigest())

    def pull(self, remote: str, local: Path) -> int:
        """RECV ``remote`` into ``local`` (written to a temp name, then renamed)."""
        tmp = local.with_name(f".{local.name}.part")
        got = 0
        with self._sync(f"pull {remote}") as s, open(tmp, "wb") as f:
            _send_request(s, b"RECV", remote)
            while True:
                ident, length = struct.unpack("<4sI", _recv_exact(s, 8))
                if ident == b"DATA":
                    f.write(_recv_exact(s, length))
                    got += length
                elif ident == b"DONE":
                    break
                else:
                    msg = _recv_exact(s, length).decode("utf-8", "replace") if ident == b"FAIL" else repr(ident)
                    tmp.unlink(missing_ok=True)
                    raise AdbError(self.serial, f"pull {remote}", None, stderr=msg)
        os.replace(tmp, local)
        return got

    def forward(self, remote_port: int) -> int:
        """``adb forward tcp:<free local port> tcp:<remote_port>``; returns the local port."""
        return int(self._retrying(f"forward tcp:{remote_port}", lambda: self._dev.forward_port(remote_port),
                                  False, 10.0))

    def forward_remove(self, local_port: int) -> None:
        self._retrying(f"forward --remove tcp:{local_port}",
                       lambda: self._dev.forward_remove(f"tcp:{local_port}", raise_non_found=False), True, 10.0)

    def features(self) -> set[str]:
        return set(self._retrying("features", self._dev.get_features, True, 10.0).split(","))

    def state(self) -> str:
        return str(self._retrying("get-state", self._dev.get_state, True, 10.0))


def _between(text: str, start: str, end: str) -> str | None:
    i = text.find(start)
    if i < 0:
        return None
    j = text.find(end, i + len(start))
    return None if j < 0 else text[i + len(start): j]


def _send_request(s: socket.socket, ident: bytes, path: str) -> None:
    raw = path.encode("utf-8")
    if len(raw) > 1024:
        raise ValueError(f"remote path longer than 1024 bytes: {path[:60]}...")
    s.sendall(ident + struct.pack("<I", len(raw)) + raw)


def _recv_exact(s: socket.socket, n: int) -> bytes:
    buf = bytearray()
    while len(buf) < n:
        chunk = s.recv(min(n - len(buf), 1 << 20))
        if not chunk:
            raise EOFError(f"sync connection closed after {len(buf)} of {n} bytes")
        buf += chunk
    return bytes(buf)
