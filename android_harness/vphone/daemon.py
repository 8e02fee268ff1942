"""The vphone's adbd: an asyncio server on a loopback port speaking the adb transport protocol.

One ``Connection`` per TCP client (normally the adb server after ``adb connect``): CNXN, then (auth
on, the default) AUTH TOKEN answered by a SIGNATURE that one of ``/data/misc/adb/adb_keys`` verifies;
a failed signature gets a new token, an unknown RSAPUBLICKEY is left unanswered (the phone's user
never confirms it: the host sees "unauthorized"). Then OPEN/OKAY/WRTE/CLSE multiplexing onto
``Stream`` objects served by services.py; a host CLSE of a live stream is answered with CLSE.
Packets carry the byte-sum checksum while the negotiated version is below 0x01000001.
A malformed packet drops only that connection; the daemon keeps serving.
"""
from __future__ import annotations

import asyncio
import contextlib
import logging
import socket

from android_harness.vphone.auth import AUTH_RSAPUBLICKEY, AUTH_SIGNATURE, AUTH_TOKEN, load_keys, new_token, parse_public_key
from android_harness.vphone.protocol import (
    A_AUTH, A_CLSE, A_CNXN, A_OKAY, A_OPEN, A_VERSION, A_WRTE, HEADER, MAX_PAYLOAD, MAX_PAYLOAD_V1,
    ProtocolError, banner, pack, parse_header)
from android_harness.vphone.services import VphoneContext, open_service
from android_harness.vphone.stream import Stream

log = logging.getLogger(__name__)
HANDSHAKE_TIMEOUT_S = 20.0
MIN_PEER_PAYLOAD = 1024


class LinkThrottle:
    """Models a slower adb link (e.g. USB 2.0) by pacing WRTE payloads per connection and direction."""

    def __init__(self, bytes_per_s: float) -> None:
        self.rate = bytes_per_s
        self.free_at = 0.0

    async def take(self, nbytes: int) -> None:
        if self.rate <= 0 or not nbytes:
            return
        now = asyncio.get_running_loop().time()
        self.free_at = max(self.free_at, now) + nbytes / self.rate
        if self.free_at > now:
            await asyncio.sleep(self.free_at - now)


class Connection:
    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                 ctx: VphoneContext, props: dict[str, str]) -> None:
        self.reader, self.writer, self.ctx, self.props = reader, writer, ctx, props
        self.streams: dict[int, Stream] = {}
        self.next_id = 1
        self.online = False
        self.version = 0x01000000        # the transport starts here: checksums on until CNXN says more
        self.token: bytes | None = None
        self.peer_payload = MAX_PAYLOAD
        self.inbound = LinkThrottle(ctx.link_bytes_per_s)
        self.outbound = LinkThrottle(ctx.link_bytes_per_s)

    def send(self, command: int, arg0: int, arg1: int, payload: bytes = b"") -> None:
        if not self.writer.is_closing():
            self.writer.write(pack(command, arg0, arg1, payload, checksum=self.version < A_VERSION))

    async def drain(self) -> None:
        with contextlib.suppress(ConnectionError):
            await self.writer.drain()

    async def serve(self) -> None:
        if not self.ctx.phone.up:
            self.writer.close()                       # rebooting: no adbd yet, the host retries
            return
        sock = self.writer.get_extra_info("socket")
        if sock is not None:                          # small replies (sync DONE, OKAY) must not wait on Nagle
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.ctx.phone.connections.add(self)
        try:
            while True:
                timeout = None if self.online else HANDSHAKE_TIMEOUT_S
                raw = await asyncio.wait_for(self.reader.readexactly(HEADER.size), timeout)
                command, arg0, arg1, length = parse_header(raw, MAX_PAYLOAD)
                payload = await asyncio.wait_for(self.reader.readexactly(length), timeout) if length else b""
                await self.dispatch(command, arg0, arg1, payload)
        except (asyncio.IncompleteReadError, ConnectionError, asyncio.TimeoutError):
            pass
        except ProtocolError as e:
            log.debug("dropping connection: %s", e)
        finally:
            self.ctx.phone.connections.discard(self)
            self.reset_streams()
            self.writer.close()
            with contextlib.suppress(Exception):
                await self.writer.wait_closed()

    def reset_streams(self) -> None:
        for stream in list(self.streams.values()):
            stream.on_remote_close()
        self.streams.clear()

    async def dispatch(self, command: int, arg0: int, arg1: int, payload: bytes) -> None:
        if command == A_CNXN:
            if len(payload) > MAX_PAYLOAD_V1:
                raise ProtocolError("CNXN payload > 4096")
            self.reset_streams()
            self.version = min(arg0, A_VERSION)
            self.peer_payload = max(min(arg1, MAX_PAYLOAD), MIN_PEER_PAYLOAD)
            self.online = False
            if self.ctx.phone.auth_required:
                self.send_token()
            else:
                self.go_online()
            return
        if command == A_AUTH and not self.online:
            self.authenticate(arg0, payload)
            return
        if not self.online:
            return                                  # adbd ignores everything before CNXN and auth
        if command == A_OPEN:
            await self.open_stream(arg0, payload)
        elif command == A_WRTE:
            await self.inbound.take(len(payload))
            stream = self.streams.get(arg1)
            if stream is not None and stream.remote_id == arg0 and not stream.on_write(payload):
                raise ProtocolError(f"stream {arg1}: host ignored flow control")
        elif command == A_OKAY:
            stream = self.streams.get(arg1)
            if stream is not None and stream.remote_id == arg0:
                stream.on_okay()
        elif command == A_CLSE:
            stream = self.streams.get(arg1)
            if stream is not None and (arg0 == 0 or stream.remote_id == arg0):
                del self.streams[arg1]
                if not stream.closed:               # adbd answers a host CLSE of a live stream
                    stream.on_remote_close()
                    self.send(A_CLSE, stream.local_id, stream.remote_id)

    def go_online(self) -> None:
        self.online, self.token = True, None
        self.send(A_CNXN, A_VERSION, MAX_PAYLOAD, banner(self.props))

    def send_token(self) -> None:
        self.token = new_token()
        self.send(A_AUTH, AUTH_TOKEN, 0, self.token)

    def authenticate(self, kind: int, payload: bytes) -> None:
        if self.token is None:
            return
        if kind == AUTH_SIGNATURE:
            keys = load_keys(self.ctx.phone.adb_keys)
            if any(k.verify(self.token, payload) for k in keys):
                self.go_online()
            else:
                self.send_token()                   # adbd: a new token for the host's next key
        elif kind == AUTH_RSAPUBLICKEY:
            try:
                comment = parse_public_key(payload).comment
            except ValueError:
                comment = "(malformed key)"
            log.warning("unauthorized adb key %s: not in %s (no user here to accept it)", comment,
                        self.ctx.phone.adb_keys)
    async def open_stream(self, remote_id: int, payload: bytes) -> None:
        if remote_id == 0:
            return
        name = payload.replace(b"\0", b"").decode("utf-8", "replace")
        try:
            handler = await open_service(name, self.ctx)
        except Exception:                            # a service that cannot start refuses the OPEN
            log.exception("service %r failed to open", name)
            handler = None
        if handler is None:
            self.send(A_CLSE, 0, remote_id)
            return
        local_id = self.next_id
        self.next_id = self.next_id % 0x7FFFFFFF + 1
        stream = Stream(local_id, remote_id, self.send, self.drain, self.peer_payload, self.outbound.take)
        self.streams[local_id] = stream
        self.send(A_OKAY, local_id, remote_id)
        stream.task = asyncio.ensure_future(self.run_service(stream, handler))

    async def run_service(self, stream: Stream, handler) -> None:
        try:
            await handler(stream)
        except asyncio.CancelledError:
            pass
        except Exception:
            if not stream.closed:
                log.exception("service on stream %d failed", stream.local_id)
        finally:
            stream.close()
            if self.streams.get(stream.local_id) is stream:
                del self.streams[stream.local_id]


def bind_loopback(port: int) -> socket.socket:
    """Bind first so a caller asking for port 0 learns the port before building the home."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", port))
    sock.listen(64)
    return sock


async def serve(ctx: VphoneContext, props: dict[str, str], sock: socket.socket) -> asyncio.AbstractServer:
    """Serve adb clients on an already bound loopback socket."""
    async def on_client(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        with contextlib.suppress(asyncio.CancelledError):        # the server shutting down
            await Connection(reader, writer, ctx, props).serve()

    return await asyncio.start_server(on_client, sock=sock, limit=2 * MAX_PAYLOAD)
