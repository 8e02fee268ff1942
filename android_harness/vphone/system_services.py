"""The phone's system daemons behind ``/dev/socket``: logd, init's property service, the settings
provider and dumpstate's zip writer, served by the vphone process for one boot.

Each is a Unix socket the vphone binds inside the phone's ``/dev/socket`` (a tmpfs only the
phone's root may write, reached through ``/proc/<init>/root``, so no path there is the shell's).
A client (a phone command, over toybox ``nc -U``) sends NUL-separated fields and half-closes; the
reply starts with a status line, ``0`` or ``1 <message>``, then the output. The peer's uid comes
from ``SO_PEERCRED``, never from the request. Requests are bounded in size and time and the
number of clients is capped, so no phone process can grow the vphone or stall it.

Properties: the boot's read-only set plus what ``setprop`` changed, published to
``/dev/__properties__/props`` (the phone's ``getprop`` reads it) on every change; ``persist.*``
and settings survive reboots in the home's host-only ``run/`` folder.
"""
from __future__ import annotations

import asyncio
import contextlib
import hashlib
import io
import json
import os
import re
import select
import socket
import struct
import time
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

from android_harness.vphone.logd import Logd, LogcatError, LogcatReader, parse_logcat

SOCKETS = {"logdw": 0o222, "logdr": 0o666, "property_service": 0o666, "dumpstate": 0o666}
MAX_REQUEST = 64 * 1024
MAX_REPORT = 32 * 1024 * 1024
MAX_CLIENTS = 64                     # at a time, over all the sockets
REQUEST_TIMEOUT_S = 30.0             # a client that never half-closes does not hold its slot
REPORT_TIMEOUT_S = 600.0             # dumpstate streams its sections while it gathers them
PROP_NAME = re.compile(r"[A-Za-z0-9_@:-]+(\.[A-Za-z0-9_@:-]+)*")
PROP_VALUE_MAX = 92
SHELL_SETTABLE = ("debug.", "persist.debug.", "log.tag.", "persist.log.tag.", "vendor.debug.")
SETTINGS_NAMESPACES = ("system", "secure", "global")
REPORT_NAME = re.compile(r"bugreport-[A-Za-z0-9._-]+")
SHELL_UID = 2000
ROOT_TIMEOUT_S = 10.0


class ServiceError(Exception):
    """What a request got wrong, sent back as its status line."""


@dataclass
class SystemServices:
    """The daemons of one boot of the phone whose init is ``init_pid``."""

    init_pid: int
    run_dir: Path                                   # host only: persist.* properties and settings
    props: dict[str, str]
    logd: Logd = field(default_factory=Logd)
    servers: list[asyncio.Future] = field(default_factory=list)     # of asyncio.Server
    clients: int = 0

    @property
    def phone_root(self) -> Path:
        return Path(f"/proc/{self.init_pid}/root")

    def publish(self, system: Path) -> None:
        """The boot's properties (with the saved ``persist.*``) in ``/dev/__properties__``.
        ``system`` (the host folder bound at ``/system``) tells when the phone's root is in place:
        before, ``/proc/<init>/root`` may still be the host's."""
        self._wait_for_root(system)
        self.props.update(self._load("persistent_properties.json"))
        self._publish_props()

    def start(self, system: Path) -> None:
        """Publish, then bind and listen before returning (a shell started right after boot finds
        the daemons); accepting starts on the event loop."""
        self.publish(system)
        for name, mode in SOCKETS.items():
            path = self.phone_root / "dev" / "socket" / name
            sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            sock.bind(str(path))
            os.chmod(path, mode)
            sock.listen(MAX_CLIENTS)
            handler = getattr(self, f"_on_{name}")
            self.servers.append(asyncio.ensure_future(asyncio.start_unix_server(
                lambda r, w, h=handler: self._client(r, w, h), sock=sock)))
        self.logd.write("main", 4, "init", f"boot {self.props.get('edgecl.vphone.boot', '?')}: the system daemons "
                        "(logd, property service, settings, dumpstate) are up", 1, 0)

    def _wait_for_root(self, system: Path) -> None:
        want = system.stat()
        deadline = time.monotonic() + ROOT_TIMEOUT_S
        while True:
            with contextlib.suppress(OSError):
                seen = (self.phone_root / "system").stat()
                if (seen.st_dev, seen.st_ino) == (want.st_dev, want.st_ino):
                    return
            if time.monotonic() > deadline:
                raise OSError(f"the phone's root did not appear within {ROOT_TIMEOUT_S} s")
            time.sleep(0.01)

    def stop(self) -> None:
        for started in self.servers:
            if started.done() and not started.cancelled() and started.exception() is None:
                started.result().close()
            else:
                started.cancel()
        self.servers.clear()
        for waiter in self.logd.waiters:
            waiter.set()

    def _load(self, name: str) -> dict:
        try:
            return json.loads((self.run_dir / name).read_text())
        except (OSError, ValueError):
            return {}

    def _save(self, name: str, value: dict) -> None:
        tmp = self.run_dir / f".{name}.tmp"
        tmp.write_text(json.dumps(value, indent=1, sort_keys=True))
        os.replace(tmp, self.run_dir / name)

    def _publish_props(self) -> None:
        folder = self.phone_root / "dev" / "__properties__"
        folder.mkdir(mode=0o755, exist_ok=True)
        tmp = folder / ".props.tmp"
        tmp.write_text("".join(f"[{k}]: [{self.props[k]}]\n" for k in sorted(self.props)))
        os.chmod(tmp, 0o444)
        os.replace(tmp, folder / "props")

    async def _client(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, handler) -> None:
        if self.clients >= MAX_CLIENTS:
            writer.close()
            return
        self.clients += 1
        try:
            sock = writer.get_extra_info("socket")
            pid, uid, _gid = struct.unpack("3i", sock.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, 12))
            report = handler == self._on_dumpstate
            limit = MAX_REPORT if report else MAX_REQUEST
            try:
                data = await asyncio.wait_for(_read_request(reader, limit),
                                              REPORT_TIMEOUT_S if report else REQUEST_TIMEOUT_S)
            except asyncio.TimeoutError:
                raise ServiceError("the request was not finished in time") from None
            await handler(data, pid, uid, writer)
        except ServiceError as e:
            writer.write(f"1 {e}\n".encode())
        except (ConnectionError, OSError):
            pass
        finally:
            self.clients -= 1
            with contextlib.suppress(ConnectionError, OSError):
                await writer.drain()
                writer.close()

    # logd -------------------------------------------------------------------------------------
    async def _on_logdw(self, data: bytes, pid: int, uid: int, writer: asyncio.StreamWriter) -> None:
        """``log``: fields pid, buffer, priority (2-7), tag, message. The pid is the ``log`` process's
        when it is an ancestor of the connecting ``nc`` (checked, not trusted), else nc's parent's."""
        fields = data.decode("utf-8", "replace").removesuffix("\0").split("\0", 4)
        if (len(fields) != 5 or fields[1] not in self.logd.rings or not fields[2].isdigit()
                or not 2 <= int(fields[2]) <= 7):
            raise ServiceError("log: bad request")
        ancestors = _phone_ancestors(pid)
        claimed = int(fields[0]) if fields[0].isdigit() else -1
        writer_pid = claimed if claimed in ancestors else (ancestors[1] if len(ancestors) > 1 else 0)
        self.logd.write(fields[1], int(fields[2]), fields[3], fields[4].rstrip("\n"), writer_pid, uid)
        writer.write(b"0\n")

    async def _on_logdr(self, data: bytes, pid: int, uid: int, writer: asyncio.StreamWriter) -> None:
        """``logcat``: fields ANDROID_LOG_TAGS then the arguments; follows until the reader hangs up."""
        fields = data.decode("utf-8", "replace").split("\0")
        if fields and fields[-1] == "":
            fields.pop()
        if not fields:
            raise ServiceError("logcat: bad request")
        try:
            req = parse_logcat(fields[1:], fields[0])
        except LogcatError as e:
            raise ServiceError(str(e)) from None
        writer.write(b"0\n")
        if req.clear or req.sizes:
            if req.clear:
                self.logd.clear(req.buffers)
            if req.sizes:
                writer.write(self.logd.sizes(req.buffers).encode())
            return
        reader = LogcatReader(req)
        writer.write(reader.backlog(self.logd).encode())
        await writer.drain()
        if req.dump or reader.done:
            return
        await self._follow(reader, writer)

    async def _follow(self, reader: LogcatReader, writer: asyncio.StreamWriter) -> None:
        wake = asyncio.Event()
        hangup = select.epoll()
        hangup.register(writer.get_extra_info("socket").fileno(), 0)      # only EPOLLHUP/EPOLLERR
        loop = asyncio.get_running_loop()
        loop.add_reader(hangup.fileno(), wake.set)
        self.logd.waiters.add(wake)
        try:
            while self.servers and not reader.done:
                await wake.wait()
                wake.clear()
                if hangup.poll(0):
                    return
                text = reader.more(self.logd)
                if text:
                    writer.write(text.encode())
                    await writer.drain()
        finally:
            self.logd.waiters.discard(wake)
            loop.remove_reader(hangup.fileno())
            hangup.close()

    # properties and settings ------------------------------------------------------------------
    async def _on_property_service(self, data: bytes, pid: int, uid: int, writer: asyncio.StreamWriter) -> None:
        fields = data.decode("utf-8", "replace").split("\0")
        if fields and fields[-1] == "":
            fields.pop()
        if fields[:1] == ["setprop"] and len(fields) == 3:
            self._setprop(fields[1], fields[2], uid)
            writer.write(b"0\n")
        elif fields[:1] == ["settings"] and len(fields) >= 3:
            writer.write(b"0\n" + self._settings(fields[1], fields[2], fields[3:]).encode())
        else:
            raise ServiceError("property_service: bad request")

    def _setprop(self, name: str, value: str, uid: int) -> None:
        if not PROP_NAME.fullmatch(name):
            raise ServiceError(f"setprop: property name '{name}' is not valid")
        if len(value.encode()) >= PROP_VALUE_MAX and not name.startswith("ro."):
            raise ServiceError(f"setprop: property value '{value}' too long")
        denied = (name.startswith("ro.") and name in self.props) or (
            uid == SHELL_UID and not name.startswith(SHELL_SETTABLE))
        if denied:
            raise ServiceError(f"setprop: failed to set property '{name}' to '{value}'")
        self.props[name] = value
        self._publish_props()
        if name.startswith("persist."):
            saved = self._load("persistent_properties.json")
            saved[name] = value
            self._save("persistent_properties.json", saved)

    def _settings(self, op: str, namespace: str, rest: list[str]) -> str:
        if namespace not in SETTINGS_NAMESPACES:
            raise ServiceError(f"Invalid namespace '{namespace}'")
        store = self._load("settings.json")
        table = store.setdefault(namespace, dict(default_settings(self.props).get(namespace, {})))
        if op == "get" and len(rest) == 1:
            return table.get(rest[0], "null") + "\n"
        if op == "put" and len(rest) in (2, 3):
            table[rest[0]] = rest[1]
        elif op == "delete" and len(rest) == 1:
            gone = table.pop(rest[0], None) is not None
            self._save("settings.json", store)
            return f"Deleted {int(gone)} rows\n"
        elif op == "list" and not rest:
            return "".join(f"{k}={v}\n" for k, v in sorted(table.items()))
        else:
            raise ServiceError(f"settings: bad arguments for '{op}'")
        self._save("settings.json", store)
        return ""

    # dumpstate --------------------------------------------------------------------------------
    async def _on_dumpstate(self, data: bytes, pid: int, uid: int, writer: asyncio.StreamWriter) -> None:
        """``bugreportz``: fields ``zip``, the report's name, then the main text dumpstate gathered."""
        parts = data.split(b"\0", 2)
        if len(parts) != 3 or parts[0] != b"zip" or not REPORT_NAME.fullmatch(parts[1].decode("ascii", "replace")):
            raise ServiceError("dumpstate: bad request")
        name = parts[1].decode()
        started = time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime())
        buf = io.BytesIO()
        with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
            z.writestr(f"{name}.txt", parts[2])
            z.writestr("main_entry.txt", f"{name}.txt")
            z.writestr("version.txt", "2.0")
            z.writestr("dumpstate_log.txt", f"dumpstate {started}: {len(parts[2])} bytes of main entry "
                       f"from pid {_phone_pid(pid)}\n")
        self.logd.write("main", 4, "dumpstate", f"Bugreport zip file: {name}.zip ({buf.tell()} bytes)", 1, 0)
        writer.write(b"0\n" + buf.getvalue())


def default_settings(props: dict[str, str]) -> dict[str, dict[str, str]]:
    """The settings a freshly set up user build has (what ``settings list`` shows before any put)."""
    serial = props.get("ro.serialno", "")
    android_id = hashlib.sha256(serial.encode()).hexdigest()[:16]
    return {"global": {"adb_enabled": "1", "airplane_mode_on": "0", "development_settings_enabled": "1",
                       "device_name": props.get("ro.product.model", ""), "stay_on_while_plugged_in": "0",
                       "package_verifier_enable": "1", "wifi_on": "0"},
            "secure": {"android_id": android_id, "location_mode": "0", "user_setup_complete": "1"},
            "system": {"screen_brightness": "102", "screen_brightness_mode": "1", "screen_off_timeout": "60000"}}


async def _read_request(reader: asyncio.StreamReader, limit: int) -> bytes:
    """Everything up to the client's half-close, refused past ``limit`` bytes."""
    data = b""
    while chunk := await reader.read(limit + 1 - len(data)):
        data += chunk
        if len(data) > limit:
            raise ServiceError(f"request over {limit} bytes")
    return data


def _phone_ancestors(pid: int, depth: int = 4) -> list[int]:
    """``pid`` and its parents (host pids), as the phone's pid namespace numbers them."""
    out = []
    for _ in range(depth):
        try:
            status = Path(f"/proc/{pid}/status").read_text().splitlines()
        except OSError:
            break
        fields = dict(line.split(":", 1) for line in status if ":" in line)
        nspid = fields.get("NSpid", "").split()
        if not nspid or len(nspid) < 2:              # left the phone's pid namespace
            break
        out.append(int(nspid[-1]))
        pid = int(fields.get("PPid", "0").split()[0] or 0)
    return out


def _phone_pid(pid: int) -> int:
    """A host pid as the phone's pid namespace numbers it (the last NSpid column)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("NSpid:"):
                return int(line.split()[-1])
    except OSError:
        pass
    return 0
