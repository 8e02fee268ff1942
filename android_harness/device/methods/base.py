"""What a CL method is to the runner: the named hooks where methods differ (docs/semantics.md 4.3)."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Method:
    """One ``train.method``. Each method's file makes one and registers it (``methods.register``)."""

    name: str
    replays: bool = False             # a step's rows: EM ∪ SB (else SB alone)
    stores_logits: bool = False       # what is stored with a row: its logits, for DER++'s MSE
    sb_holds_seen_tasks: bool = False  # SB: every row of every seen task (the joint upper bound)
    doc: str = ""

    def em_loss_weights(self, alpha: float, beta: float) -> tuple[float, float]:
        """An EM row's (cross-entropy, MSE-to-stored-logits) weights before the 1/B mean."""
        return (beta, alpha) if self.stores_logits else (1.0, 0.0)
