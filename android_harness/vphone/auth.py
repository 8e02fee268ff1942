"""adbd's RSA authentication: keys in adb's public-key format, the
AUTH TOKEN a device sends, and the check of the host's SIGNATURE.

The host (adb server, ``adb-shell``) signs the 20 random token bytes with ``RSA_sign(NID_sha1, ...)``:
PKCS#1 v1.5 over the token taken as a SHA-1 digest (it is not hashed again). A public key
(``adbkey.pub``, one line per key in ``/data/misc/adb/adb_keys``) is the base64 of adbd's
``RSAPublicKey`` struct (u32 word count, u32 n0inv, modulus and R^2 little-endian, u32 exponent)
followed by `` user@host``. Only the modulus and exponent are needed to verify.
"""
from __future__ import annotations

import base64
import binascii
import hmac
import secrets
import struct
from dataclasses import dataclass
from pathlib import Path

AUTH_TOKEN, AUTH_SIGNATURE, AUTH_RSAPUBLICKEY = 1, 2, 3
TOKEN_SIZE = 20
SHA1_DIGEST_INFO = bytes.fromhex("3021300906052b0e03021a05000414")   # DER prefix of a SHA-1 DigestInfo


@dataclass(frozen=True)
class AdbPublicKey:
    modulus: int
    exponent: int
    comment: str = ""

    def verify(self, token: bytes, signature: bytes) -> bool:
        """True if ``signature`` is this key's PKCS#1 v1.5 signature of the SHA-1 "digest" ``token``."""
        k = (self.modulus.bit_length() + 7) // 8
        if len(signature) != k or len(token) != TOKEN_SIZE:
            return False
        s = int.from_bytes(signature, "big")
        if s >= self.modulus:
            return False
        em = pow(s, self.exponent, self.modulus).to_bytes(k, "big")
        pad = k - 3 - len(SHA1_DIGEST_INFO) - TOKEN_SIZE
        expected = b"\x00\x01" + b"\xff" * pad + b"\x00" + SHA1_DIGEST_INFO + token
        return pad >= 8 and hmac.compare_digest(em, expected)


class KeyFormatError(ValueError):
    """A line that is not an adb public key."""


def parse_public_key(line: str | bytes) -> AdbPublicKey:
    """One ``adbkey.pub`` line (the RSAPUBLICKEY payload has the same text, NUL-terminated)."""
    text = line.decode("utf-8", "replace") if isinstance(line, bytes) else line
    text = text.replace("\0", "").strip()
    b64, _, comment = text.partition(" ")
    try:
        raw = base64.b64decode(b64, validate=True)
    except (binascii.Error, ValueError) as e:
        raise KeyFormatError(f"not base64: {e}") from None
    if len(raw) < 8:
        raise KeyFormatError(f"key blob of {len(raw)} bytes is too short")
    words, _n0inv = struct.unpack_from("<II", raw)
    size = words * 4
    if words == 0 or len(raw) != 8 + 2 * size + 4:
        raise KeyFormatError(f"key blob of {len(raw)} bytes does not match its {words}-word modulus")
    modulus = int.from_bytes(raw[8:8 + size], "little")
    exponent, = struct.unpack_from("<I", raw, 8 + 2 * size)
    if modulus < 3 or exponent < 3:
        raise KeyFormatError("degenerate modulus or exponent")
    return AdbPublicKey(modulus, exponent, comment.strip())


def load_keys(path: Path) -> list[AdbPublicKey]:
    """The keys of an ``adb_keys`` file (missing file: none); lines that are not keys are skipped,
    as adbd skips them."""
    try:
        lines = path.read_text(errors="replace").splitlines()
    except FileNotFoundError:
        return []
    keys = []
    for line in lines:
        if line.strip():
            try:
                keys.append(parse_public_key(line))
            except KeyFormatError:
                continue
    return keys


def new_token() -> bytes:
    return secrets.token_bytes(TOKEN_SIZE)
