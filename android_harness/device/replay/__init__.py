"""Miro's replay hierarchy on the device: the storage tier (flash), the episodic memory's references
into it, and the swap of EM slots from it."""
from android_harness.device.replay.storage import RecordFormat, StorageTier
from android_harness.device.replay.em_build import EpisodicMemory, em_refs, water_fill
from android_harness.device.replay.swap import SwapReader, plan_swap, swap_count

__all__ = ["EpisodicMemory", "RecordFormat", "StorageTier", "SwapReader", "em_refs", "plan_swap", "swap_count",
           "water_fill"]
