"""Graph passes, one per file; registered in ``pipeline.export.pass_manager.default_passes``."""
from pipeline.export.passes.decompose_maxpool_backward import DecomposeMaxPoolBackward
from pipeline.export.passes.fix_batchnorm_eval import FixBatchNormEval
from pipeline.export.passes.reject_unsupported_layers import RejectUnsupportedLayers
from pipeline.export.passes.torch_adamw_mode import TorchAdamWMode

__all__ = ["DecomposeMaxPoolBackward", "FixBatchNormEval", "RejectUnsupportedLayers", "TorchAdamWMode"]
