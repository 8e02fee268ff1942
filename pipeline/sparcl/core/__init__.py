"""SparCL's logic in numpy only: shipped to the device and used by the host trainer alike."""
from pipeline.sparcl.core.ddr import ForgettingTracker
from pipeline.sparcl.core.dgm import GradientMasker, gradient_mask
from pipeline.sparcl.core.flops import FlopsCounter
from pipeline.sparcl.core.masks import MaskSet, keep_count, unit_norm_factors
from pipeline.sparcl.core.schedule import TdmEvent, ddr_counts, ddr_schedule, density_trace, tdm_schedule

__all__ = [
    "FlopsCounter", "ForgettingTracker", "GradientMasker", "MaskSet", "TdmEvent", "ddr_counts",
    "ddr_schedule", "density_trace", "gradient_mask", "keep_count", "tdm_schedule", "unit_norm_factors",
]
