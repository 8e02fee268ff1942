"""Continual learning on the host: the host trainer (``pipeline.cl.trainer``, torch) and its result files.

The training semantics themselves live once in the device layer (``android_harness.device.engine``);
this package only drives them with the torch-eager backend and writes the results.
"""
from pipeline.cl.results import CLResult, TaskCost

__all__ = ["CLResult", "TaskCost"]
