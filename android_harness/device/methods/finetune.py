"""Fine-tuning: SB alone, nothing replayed (the lower bound)."""
from android_harness.device.methods.base import Method

FINETUNE = Method("finetune", doc="SB alone, nothing replayed (the lower bound)")
