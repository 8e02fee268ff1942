"""Protocol fuzz: thousands of malformed, truncated and out-of-order adb packets sent straight to a
vphone daemon on loopback (RSA authentication on, as by default) never crash it, hang it, or leak
its connections."""
from __future__ import annotations

import os
import random
import socket
import struct
import time
from pathlib import Path

import pytest

from adb_shell.auth.sign_pythonrsa import PythonRSASigner

from android_harness import vphone
from android_harness.adb_server import host_key_path
from android_harness.vphone.auth import AUTH_SIGNATURE, AUTH_TOKEN
from android_harness.vphone.protocol import (
    A_AUTH, A_CLSE, A_CNXN, A_OKAY, A_OPEN, A_WRTE, HEADER, MAX_PAYLOAD, pack, pack_checked)

PACKETS = 4000
TIME_BUDGET_S = 40.0
SERVICES = [b"shell,v2:cat >/dev/null", b"shell:true", b"exec:echo x", b"sync:", b"tcp:1",
            b"nonsense:", b"shell", b"", b"shell,v2,raw:echo fuzz"]
SYNC_IDS = [b"STAT", b"STA2", b"LST2", b"LIST", b"LIS2", b"SEND", b"SND2", b"RECV", b"RCV2",
            b"DATA", b"DONE", b"QUIT", b"XXXX"]


def _recv_packet(s: socket.socket) -> tuple[int, int, int, bytes]:
    head = _recv_exact(s, HEADER.size)
    cmd, a0, a1, n, _c, _m = HEADER.unpack(head)
    return cmd, a0, a1, _recv_exact(s, n)


def _recv_exact(s: socket.socket, n: int) -> bytes:
    buf = b""
    while len(buf) < n:
        chunk = s.recv(n - len(buf))
        if not chunk:
            raise EOFError
        buf += chunk
    return buf


def _connect(port: int) -> socket.socket:
    s = socket.create_connection(("127.0.0.1", port), timeout=5)
    return s


_SIGNER: list[PythonRSASigner] = []


def _sign(token: bytes) -> bytes:
    """The host's adb key signs the token, as the adb server does (the vphone seeded its .pub)."""
    if not _SIGNER:
        key = host_key_path()
        _SIGNER.append(PythonRSASigner(key.with_name(key.name + ".pub").read_text(), key.read_text()))
    return _SIGNER[0].Sign(token)


def _handshake(s: socket.socket) -> None:
    s.sendall(pack_checked(A_CNXN, 0x01000001, MAX_PAYLOAD, b"host::features=shell_v2\0"))
    cmd, a0, _a1, token = _recv_packet(s)
    assert (cmd, a0, len(token)) == (A_AUTH, AUTH_TOKEN, 20)
    s.sendall(pack(A_AUTH, AUTH_SIGNATURE, 0, _sign(token)))
    cmd, *_ = _recv_packet(s)
    assert cmd == A_CNXN


def _shell_v2(port: int, command: str) -> tuple[bytes, int]:
    """A from-scratch host: CNXN, OPEN shell,v2, collect stdout frames and the exit frame."""
    with _connect(port) as s:
        _handshake(s)
        s.sendall(pack(A_OPEN, 7, 0, f"shell,v2:{command}\0".encode()))
        out, rc, buf = b"", None, b""
        while True:
            cmd, a0, a1, payload = _recv_packet(s)
            if cmd == A_WRTE:
                s.sendall(pack(A_OKAY, 7, a0))
                buf += payload
                while len(buf) >= 5 and len(buf) >= 5 + struct.unpack("<I", buf[1:5])[0]:
                    kind, n = buf[0], struct.unpack("<I", buf[1:5])[0]
                    data, buf = buf[5:5 + n], buf[5 + n:]
                    if kind == 1:
                        out += data
                    elif kind == 3:
                        rc = data[0]
            elif cmd == A_CLSE:
                return out, rc


def _sync_garbage(rng: random.Random) -> bytes:
    ident = rng.choice(SYNC_IDS)
    kind = rng.random()
    if kind < 0.3:
        length = rng.choice([0, 1, 5, 1024, 1025, 65536, 65537, 2 ** 32 - 1])
        return ident + struct.pack("<I", length) + os.urandom(rng.randint(0, 64))
    path = rng.choice([b"/", b"/etc/passwd", b"x/y", b"../../..", b"a" * 2000, os.urandom(20), b"st,33188"])
    msg = ident + struct.pack("<I", len(path)) + path
    if ident in (b"SEND", b"SND2") and rng.random() < 0.7:
        msg += b"DATA" + struct.pack("<I", rng.choice([3, 70000, 0])) + os.urandom(3)
        msg += rng.choice([b"DONE\0\0\0\0", b"", b"QUIT"])
    return msg[: rng.randint(1, len(msg))] if rng.random() < 0.3 else msg


def _fatal_packet(rng: random.Random) -> bytes:
    """Something after which adbd drops the connection (garbage, bad magic, oversize, truncation)."""
    r = rng.random()
    if r < 0.3:
        return os.urandom(rng.randint(1, 60))
    if r < 0.6:
        cmd = rng.choice([A_OPEN, A_WRTE, 0x12345678])
        return HEADER.pack(cmd, 1, 1, 0, 0, cmd) + os.urandom(4)
    if r < 0.8:
        return HEADER.pack(A_WRTE, 1, 1, MAX_PAYLOAD + 1, 0, A_WRTE ^ 0xFFFFFFFF)
    whole = pack(A_WRTE, 1, 1, os.urandom(100))
    return whole[: rng.randint(1, len(whole) - 1)]


def _one_packet(rng: random.Random, ids: list[int]) -> bytes:
    """A well-framed packet with random ids, order and content."""
    r = rng.random()
    if r < 0.35:
        return pack(A_OPEN, rng.choice(ids + [0]), rng.choice([0, 1 << 25]), rng.choice(SERVICES) + b"\0")
    if r < 0.75:
        payload = _sync_garbage(rng) if rng.random() < 0.7 else os.urandom(rng.randint(0, 300))
        return pack(A_WRTE, rng.choice(ids), rng.randint(0, 6), payload)
    if r < 0.85:
        return pack(A_OKAY, rng.choice(ids), rng.randint(0, 6))
    if r < 0.95:
        return pack(A_CLSE, rng.choice(ids + [0]), rng.randint(0, 6))
    return pack_checked(A_CNXN, rng.randint(0, 2 ** 32 - 1), rng.choice([0, 10, 4096, 2 ** 32 - 1]),
                        os.urandom(rng.randint(0, 50)))


def _open_fds(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/fd"))


@pytest.fixture()
def phone(tmp_path: Path):
    info = vphone.start(base=tmp_path, home=tmp_path / "phone", connect_adb=False)
    yield info
    vphone.stop(info, disconnect_adb=False, base=tmp_path)


def test_fuzzed_packets_never_crash_or_hang_the_daemon(phone: vphone.VphoneInfo) -> None:
    rng = random.Random(1234)
    assert _shell_v2(phone.port, "echo ok") == (b"ok\n", 0)
    fds_before = _open_fds(phone.pid)
    sent, conns, t0 = 0, 0, time.monotonic()
    while sent < PACKETS and time.monotonic() - t0 < TIME_BUDGET_S:
        conns += 1
        with _connect(phone.port) as s:
            s.settimeout(2)
            try:
                if rng.random() < 0.85:
                    _handshake(s)
                ids = [rng.randint(1, 5) for _ in range(3)]
                count = rng.randint(1, 60)
                fatal_at = rng.randint(0, count) if rng.random() < 0.3 else -1
                for i in range(count):
                    s.sendall(_fatal_packet(rng) if i == fatal_at else _one_packet(rng, ids))
                    sent += 1
                    if i == fatal_at:
                        break
                    if i % 8 == 0:
                        time.sleep(0.001)                 # let replies and services interleave
                s.setblocking(False)
                try:
                    while s.recv(65536):
                        pass
                except (BlockingIOError, OSError):
                    pass
            except (ConnectionError, EOFError, socket.timeout, OSError):
                sent += 1                                   # the daemon dropped a broken peer
        assert phone.alive(), f"daemon died after {sent} packets"
    assert sent >= PACKETS, f"only {sent} packets in {TIME_BUDGET_S} s"
    t1 = time.monotonic()
    assert _shell_v2(phone.port, "echo still-ok; exit 3") == (b"still-ok\n", 3)
    assert time.monotonic() - t1 < 5, "daemon slow to answer after fuzzing"
    for _ in range(50):
        if _open_fds(phone.pid) <= fds_before + 8:
            break
        time.sleep(0.1)
    assert _open_fds(phone.pid) <= fds_before + 8, "connections or files leaked"
