"""Miro: host-side online tuning of the replay configuration for cost-effectiveness."""
from pipeline.miro.candidates import (
    PAPER_GRIDS,
    Candidate,
    DataLimits,
    DeviceLimits,
    build_candidates,
    clip_candidate,
    clip_candidates,
    paper_default,
    scaled_grid,
)
from pipeline.miro.resources import DeviceState, PolicyDecision, ResourcePolicySpec, decide, shrink
from pipeline.miro.scorers import SCORERS, Measurement, ScoringSpec, best_index, cost_effectiveness, score
from pipeline.miro.search import SEARCHES, SearchResult, WeightedRandomSampler, run_search, successive_halving
from pipeline.miro.tuner import MIRO_JSON, MiroTuner, ProfileRun, Profiler, TaskDecision, TaskInfo, write_miro_json

__all__ = [
    "PAPER_GRIDS", "Candidate", "DataLimits", "DeviceLimits", "build_candidates", "clip_candidate", "clip_candidates",
    "paper_default", "scaled_grid", "DeviceState", "PolicyDecision", "ResourcePolicySpec", "decide", "shrink",
    "SCORERS", "Measurement", "ScoringSpec", "best_index", "cost_effectiveness", "score",
    "SEARCHES", "SearchResult", "WeightedRandomSampler", "run_search", "successive_halving",
    "MIRO_JSON", "MiroTuner", "ProfileRun", "Profiler", "TaskDecision", "TaskInfo", "write_miro_json",
]
