"""Model definitions and their registry (``build_model(kind, ModelArgs)``)."""
from models.registry import ModelArgs, build_model, maskable_layers, model_names

__all__ = ["ModelArgs", "build_model", "maskable_layers", "model_names"]
