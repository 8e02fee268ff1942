"""Errors raised on the device side.

The device zip cannot import ``pipeline.errors`` (it ships without the host package), so the
runner has its own small tree; the host maps a failed session to ``SessionError`` from the
runner's ``error`` event and ``result.json``.
"""
from __future__ import annotations


class DeviceSideError(Exception):
    """Base of every error the device-side code raises on purpose."""


class SessionSpecError(DeviceSideError):
    """``session.json`` is missing a field or has a wrong value (the message names the field)."""


class StorageFullError(DeviceSideError):
    """The replay store's storage tier would exceed its byte budget."""


class ReplayStoreError(DeviceSideError):
    """The replay store's files do not match what the session expects (shape, position)."""


class CancelledError(DeviceSideError):
    """The runner received SIGTERM and stopped at a step boundary."""
