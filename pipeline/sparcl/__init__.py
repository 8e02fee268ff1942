"""SparCL (TDM, DDR, DGM, structured masks, FLOPs accounting).

``pipeline.sparcl.core`` is numpy-only and ships to the device; the torch glue lives in
``pipeline.sparcl.policies`` (import it explicitly) so importing this package never needs torch.
"""
from pipeline.sparcl.core import FlopsCounter, ForgettingTracker, GradientMasker, MaskSet

__all__ = ["FlopsCounter", "ForgettingTracker", "GradientMasker", "MaskSet"]
