"""One adb stream (OPEN .. CLSE) as the vphone's services see it: ``read``, ``write``, ``close``.

Flow control follows adbd without delayed_ack: each received WRTE is acknowledged with OKAY only
when the service consumes it (so a slow disk slows only that stream), and only one WRTE of ours
is in flight until the host's OKAY.
"""
from __future__ import annotations

import asyncio
from typing import Awaitable, Callable

from android_harness.vphone.protocol import A_CLSE, A_OKAY, A_WRTE

MAX_QUEUED_WRITES = 64   # a host that floods WRTEs without waiting for OKAY is dropped


class StreamClosed(Exception):
    """The host closed the stream (or the connection) while a service was writing."""


class Stream:
    def __init__(self, local_id: int, remote_id: int, send: Callable[[int, int, int, bytes], None],
                 drain: Callable[[], Awaitable[None]], max_payload: int,
                 pace: Callable[[int], Awaitable[None]] | None = None) -> None:
        self.local_id, self.remote_id = local_id, remote_id
        self._send, self._drain, self.max_payload = send, drain, max_payload
        self._pace = pace
        self._inbox: asyncio.Queue[bytes | None] = asyncio.Queue()
        self._acked = asyncio.Event()
        self._acked.set()
        self._write_lock = asyncio.Lock()
        self._eof = False
        self.closed = False
        self.task: asyncio.Task | None = None

    def on_write(self, payload: bytes) -> bool:
        """Queue host data; False if the host ignores flow control (caller drops the connection)."""
        if self.closed:
            return True
        if self._inbox.qsize() >= MAX_QUEUED_WRITES:
            return False
        self._inbox.put_nowait(payload)
        return True

    def on_okay(self) -> None:
        self._acked.set()

    def on_remote_close(self) -> None:
        """Host CLSE: never answered; the service task is cancelled (a shell's child is killed)."""
        if self.closed:
            return
        self.closed = True
        self._inbox.put_nowait(None)
        self._acked.set()
        if self.task is not None and self.task is not asyncio.current_task():
            self.task.cancel()

    async def read(self) -> bytes:
        """Next chunk from the host, b"" once the host closed."""
        if self._eof:
            return b""
        item = await self._inbox.get()
        if item is None:
            self._eof = True
            return b""
        if not self.closed:
            self._send(A_OKAY, self.local_id, self.remote_id, b"")
        return item

    async def write(self, data: bytes) -> None:
        view = memoryview(data)
        async with self._write_lock:
            while len(view):
                await self._acked.wait()
                if self.closed:
                    raise StreamClosed()
                chunk, view = view[: self.max_payload], view[self.max_payload:]
                if self._pace is not None:
                    await self._pace(len(chunk))
                    if self.closed:
                        raise StreamClosed()
                self._acked.clear()
                self._send(A_WRTE, self.local_id, self.remote_id, bytes(chunk))
                await self._drain()

    def close(self) -> None:
        """Service finished: tell the host once."""
        if not self.closed:
            self.closed = True
            self._acked.set()
            self._send(A_CLSE, self.local_id, self.remote_id, b"")


class ByteReader:
    """Exact-size reads over a stream whose WRTE boundaries are arbitrary."""

    def __init__(self, stream: Stream) -> None:
        self._stream = stream
        self._buf = bytearray()
        self._pos = 0

    async def exactly(self, n: int) -> bytes:
        while len(self._buf) - self._pos < n:
            chunk = await self._stream.read()
            if not chunk:
                raise EOFError("stream closed mid-request")
            if self._pos:
                del self._buf[: self._pos]
                self._pos = 0
            self._buf += chunk
        out = bytes(self._buf[self._pos: self._pos + n])
        self._pos += n
        return out
