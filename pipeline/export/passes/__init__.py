"""Graph passes, one per file; registered in ``pipeline.export.pass_manager.default_passes``."""
from pipeline.export.passes.addmm_as_mm import AddmmAsMmAdd, EvalAddmmAsMmAdd
from pipeline.export.passes.conv_im2col import ConvToMatmul, EvalConvToMatmul
from pipeline.export.passes.copies_as_views import CopiesAsViews
from pipeline.export.passes.decompose_maxpool_backward import DecomposeMaxPoolBackward
from pipeline.export.passes.fix_batchnorm_eval import FixBatchNormEval
from pipeline.export.passes.dedupe_subexpressions import DedupeSubexpressions
from pipeline.export.passes.maxpool_select import MaxPoolAsSelect
from pipeline.export.passes.reject_unsupported_layers import RejectUnsupportedLayers
from pipeline.export.passes.relu_backward_mask import ReluBackwardAsMul
from pipeline.export.passes.torch_adamw_mode import TorchAdamWMode
from pipeline.export.passes.transpose_cancel import TransposeCancel

__all__ = ["AddmmAsMmAdd", "EvalAddmmAsMmAdd", "ConvToMatmul", "EvalConvToMatmul", "CopiesAsViews", "DecomposeMaxPoolBackward", "DedupeSubexpressions", "ReluBackwardAsMul", "FixBatchNormEval", "MaxPoolAsSelect", "RejectUnsupportedLayers", "TorchAdamWMode", "TransposeCancel"]
