"""SparCL on the host: the export's initial masks and the training-FLOPs accounting.

The per-step decisions (TDM, DDR, DGM) live once, in ``android_harness.device.sparcl``, and run
inside the engine on the device and in the host trainer alike.
"""
from pipeline.sparcl.flops import FlopsCounter

__all__ = ["FlopsCounter"]
