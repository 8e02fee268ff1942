"""Export sparse-masked training programs (ExecuTorch ``.pte``, ORT training artifacts) + manifest."""
from pipeline.export.exporter import ExportResult, example_inputs, export_program
from pipeline.export.pass_manager import FAST_PASSES, PassManager, PassResult, default_passes
from pipeline.export.request import ExportRequest, PreparedModel, prepare_model
from pipeline.export.signature import TensorSpec, TrainingSignature
from pipeline.export.wrapper import TrainingWrapper

__all__ = [
    "FAST_PASSES", "ExportRequest", "ExportResult", "PassManager", "PassResult", "PreparedModel", "TensorSpec",
    "TrainingSignature", "TrainingWrapper", "default_passes", "example_inputs", "export_program", "prepare_model",
]
