"""Which phone a completed task ran on, for a resumed run: its serial names it, whatever adb server reached
it (edgecl's own server may have been started again, on another port); the server matters only while it
is up and knows the serial too (two servers, two phones of one serial)."""
from __future__ import annotations

import socket
from types import SimpleNamespace

from android_harness.adb_server import ServerAddress
from pipeline.run_journal import device_key, same_phone


def _run(serial: str, port: int) -> SimpleNamespace:
    return SimpleNamespace(device=SimpleNamespace(serial=serial, adb=SimpleNamespace(server=ServerAddress("127.0.0.1", port))))


def _closed_port() -> int:
    with socket.socket() as s:             # bound, never listening: a connection there is refused
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_the_same_serial_through_a_server_that_is_gone_is_the_same_phone() -> None:
    gone = _closed_port()
    recorded = {"serial": "127.0.0.1:40001", "key": device_key(_run("127.0.0.1:40001", gone))}
    assert same_phone(recorded, _run("127.0.0.1:40001", gone + 1))
    assert same_phone(recorded, _run("127.0.0.1:40001", gone))
    assert not same_phone(recorded, _run("127.0.0.1:40002", gone))
