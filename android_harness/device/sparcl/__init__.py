"""SparCL's decisions in numpy only (docs/semantics.md 7-9): the engine and the host's export share them."""
from android_harness.device.sparcl.ddr import DdrState
from android_harness.device.sparcl.dgm import DgmState, gradient_mask
from android_harness.device.sparcl.masks import keep_count, magnitude_masks, stable_top_k, unit_norm_factors
from android_harness.device.sparcl.schedule import TdmEvent, ddr_counts, ddr_schedule, density_trace, tdm_schedule
from android_harness.device.sparcl.tdm import TdmResult, tdm_update

__all__ = [
    "DdrState", "DgmState", "TdmEvent", "TdmResult", "ddr_counts", "ddr_schedule", "density_trace", "gradient_mask",
    "keep_count", "magnitude_masks", "stable_top_k", "tdm_schedule", "tdm_update", "unit_norm_factors",
]
