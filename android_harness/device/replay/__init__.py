"""Miro's replay hierarchy on the device: storage tier (flash), EM and SB (RAM), swap worker."""
from android_harness.device.replay.memory import EpisodicMemory, StreamBuffer, balanced_quota, swap_count
from android_harness.device.replay.storage import RecordFormat, StorageTier
from android_harness.device.replay.swap import SwapResult, SwapWorker

__all__ = ["EpisodicMemory", "RecordFormat", "StorageTier", "StreamBuffer", "SwapResult", "SwapWorker",
           "balanced_quota", "swap_count"]
