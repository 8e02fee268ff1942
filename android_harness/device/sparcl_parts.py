"""The registry of SparCL's parts (docs/semantics.md 4.5-8): TDM (weight masks), DDR (data removal) and
DGM (gradient masks), each with its spec flag and when it runs. Their code is ``sparcl/tdm.py``,
``ddr.py`` and ``dgm.py``; whether a part runs is asked here (``SparclConfig.tdm_on`` and friends)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable

if TYPE_CHECKING:
    from android_harness.device.spec_tables import SparclConfig


@dataclass(frozen=True)
class SparclPart:
    name: str                                   # the spec flag in the ``sparcl`` table
    doc: str
    needs: Callable[["SparclConfig"], bool] = lambda sp: True   # beyond ``enabled`` and its own flag

    def runs(self, sparcl: "SparclConfig") -> bool:
        return bool(sparcl.enabled and getattr(sparcl, self.name) and self.needs(sparcl))


TDM = SparclPart("tdm", "task-aware dynamic masking: weight masks updated on a schedule")
DDR = SparclPart("ddr", "dynamic data removal: the least-forgotten SB rows leave", lambda sp: sp.ddr_fraction > 0)
DGM = SparclPart("dgm", "dynamic gradient masking: a share of surviving weights' gradients masked")
PARTS: dict[str, SparclPart] = {p.name: p for p in (TDM, DDR, DGM)}
