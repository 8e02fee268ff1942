"""CL methods by short name (torch): one file per method, each with one ``observe`` step."""
from pipeline.cl.methods import derpp, er, finetune, joint  # noqa: F401  (registration)
from pipeline.cl.methods.base import Batch, Method, StepResult, masked_cross_entropy, method_class

__all__ = ["Batch", "Method", "StepResult", "masked_cross_entropy", "method_class"]
