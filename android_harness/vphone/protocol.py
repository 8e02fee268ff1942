"""adb transport packets: the 24-byte header, the commands and the banner (the adb protocol).

Only framing lives here so that the daemon and the fuzz test share one definition.
"""
from __future__ import annotations

import struct
from dataclasses import dataclass

A_CNXN = 0x4E584E43
A_AUTH = 0x48545541
A_OPEN = 0x4E45504F
A_OKAY = 0x59414B4F
A_WRTE = 0x45545257
A_CLSE = 0x45534C43
A_STLS = 0x534C5453

COMMANDS = {A_CNXN: "CNXN", A_AUTH: "AUTH", A_OPEN: "OPEN", A_OKAY: "OKAY",
            A_WRTE: "WRTE", A_CLSE: "CLSE", A_STLS: "STLS"}

A_VERSION = 0x01000001          # "skip checksum" version: senders write 0 in data_check
MAX_PAYLOAD = 1024 * 1024       # what we offer; the smaller of both sides wins
MAX_PAYLOAD_V1 = 4096           # CNXN/AUTH payloads must fit in this
HEADER = struct.Struct("<6I")
FEATURES = ("shell_v2", "cmd", "stat_v2", "ls_v2", "fixed_push_mkdir")


class ProtocolError(Exception):
    """The peer sent something that is not an adb packet; the daemon drops the connection."""


@dataclass(frozen=True)
class Packet:
    command: int
    arg0: int
    arg1: int
    payload: bytes = b""

    @property
    def name(self) -> str:
        return COMMANDS.get(self.command, f"0x{self.command:08x}")


def pack(command: int, arg0: int, arg1: int, payload: bytes = b"", checksum: bool = False) -> bytes:
    """One packet; ``checksum`` writes the byte sum, which a peer on a version below A_VERSION
    (0x01000001) expects; at or above it senders write 0."""
    check = sum(payload) & 0xFFFFFFFF if checksum else 0
    return HEADER.pack(command, arg0, arg1, len(payload), check, command ^ 0xFFFFFFFF) + payload


def pack_checked(command: int, arg0: int, arg1: int, payload: bytes = b"") -> bytes:
    """A packet with the legacy byte-sum checksum (what a host sends before negotiation)."""
    return pack(command, arg0, arg1, payload, checksum=True)


def parse_header(raw: bytes, max_payload: int) -> tuple[int, int, int, int]:
    """(command, arg0, arg1, data_length) after the checks adbd's check_header does."""
    command, arg0, arg1, length, _check, magic = HEADER.unpack(raw)
    if magic != command ^ 0xFFFFFFFF:
        raise ProtocolError(f"bad magic 0x{magic:08x} for command 0x{command:08x}")
    if command not in COMMANDS:
        raise ProtocolError(f"unknown command 0x{command:08x}")
    if length > max_payload:
        raise ProtocolError(f"payload {length} > max {max_payload}")
    return command, arg0, arg1, length


def banner(props: dict[str, str]) -> bytes:
    """``device::ro.product.name=..;ro.product.model=..;ro.product.device=..;features=..``."""
    keys = ("ro.product.name", "ro.product.model", "ro.product.device")
    fields = ";".join(f"{k}={props.get(k, '')}" for k in keys)
    return f"device::{fields};features={','.join(FEATURES)}".encode()
