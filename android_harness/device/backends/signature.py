"""The training contract between an exported program and the device backend that runs it.

Stdlib only: the host writes it into ``manifest.json`` after export and checks the exported
program against it; the device backend reads it back and checks the program again on load, so a
program and a runner that disagree on input order fail loudly instead of training on garbage.

Training inputs, in order: ``x``, ``y``, ``logit_mask``, ``ce_weight``, ``target_logits``,
``mse_weight``, then one weight mask per masked layer (``mask_names``, same order).
Training outputs, in order: ``loss`` (scalar), ``logits`` [B, C], then one batch mean and one
batch variance per BatchNorm layer (``norm_stats``); ExecuTorch programs append gradients and
parameters after these (its training convention).
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

SIGNATURE_FORMAT = "edgecl-signature/1"
MODEL_PREFIX = "model."


class SignatureMismatch(ValueError):
    """A program or an input batch does not match the signature it is declared with."""


@dataclass(frozen=True)
class TensorSpec:
    name: str
    shape: tuple[int, ...]
    dtype: str  # numpy dtype name: "float32", "int64"

    def check(self, value: Any) -> None:
        shape = tuple(getattr(value, "shape", ()))
        dtype = str(getattr(value, "dtype", type(value).__name__))
        if shape != tuple(self.shape) or dtype.replace("torch.", "") != self.dtype:
            raise SignatureMismatch(f"input {self.name!r}: expected {self.dtype}{list(self.shape)}, got {dtype}{list(shape)}")


@dataclass(frozen=True)
class TrainingSignature:
    """Names, shapes and order of a training program's inputs and outputs."""

    inputs: tuple[TensorSpec, ...]
    mask_names: tuple[str, ...]  # model parameter names (``features.1.weight``) whose mask is an input
    outputs: tuple[str, ...]  # loss, logits, norm stats (user outputs, in order)
    parameter_names: tuple[str, ...]  # trainable parameters, model names (no wrapper prefix)
    norm_stats: tuple[str, ...] = ()  # BatchNorm module names, each giving <name>.mean and <name>.var outputs
    buffer_names: tuple[str, ...] = ()  # running stats the eval program takes as inputs
    batch_size: int = 0
    num_classes: int = 0
    eval_inputs: tuple[TensorSpec, ...] = field(default_factory=tuple)

    @property
    def input_names(self) -> list[str]:
        return [t.name for t in self.inputs]

    def mask_input_name(self, param: str) -> str:
        return "mask__" + param.replace(".", "__")

    def check_inputs(self, inputs: dict[str, Any]) -> list[Any]:
        """Order a name -> array dict as the program wants it; every name and shape must match."""
        missing = [t.name for t in self.inputs if t.name not in inputs]
        extra = sorted(set(inputs) - set(self.input_names))
        if missing or extra:
            raise SignatureMismatch(f"training inputs: missing {missing}, unexpected {extra}")
        for t in self.inputs:
            t.check(inputs[t.name])
        return [inputs[t.name] for t in self.inputs]

    def check_program(self, *, input_count: int, output_count: int, parameter_names: list[str] | None = None) -> None:
        """Check what a loaded program reports against this contract."""
        if input_count != len(self.inputs):
            raise SignatureMismatch(f"program takes {input_count} inputs, signature declares {len(self.inputs)}")
        if output_count < len(self.outputs):
            raise SignatureMismatch(f"program gives {output_count} outputs, signature declares {len(self.outputs)} user outputs")
        if parameter_names is not None and list(parameter_names) != list(self.parameter_names):
            raise SignatureMismatch(
                f"program parameters {list(parameter_names)[:4]}... differ from the signature's {list(self.parameter_names)[:4]}..."
            )

    def to_json(self) -> dict[str, Any]:
        out = asdict(self)
        out["format"] = SIGNATURE_FORMAT
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "TrainingSignature":
        if data.get("format") != SIGNATURE_FORMAT:
            raise SignatureMismatch(f"signature format {data.get('format')!r}, expected {SIGNATURE_FORMAT!r}")
        specs = lambda items: tuple(TensorSpec(i["name"], tuple(i["shape"]), i["dtype"]) for i in items)  # noqa: E731
        return cls(
            inputs=specs(data["inputs"]),
            mask_names=tuple(data["mask_names"]),
            outputs=tuple(data["outputs"]),
            parameter_names=tuple(data["parameter_names"]),
            norm_stats=tuple(data.get("norm_stats", ())),
            buffer_names=tuple(data.get("buffer_names", ())),
            batch_size=int(data["batch_size"]),
            num_classes=int(data["num_classes"]),
            eval_inputs=specs(data.get("eval_inputs", ())),
        )
