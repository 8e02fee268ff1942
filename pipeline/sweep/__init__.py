"""Sweeps over a device pool: grid expansion, the scheduler, the results index and the combined report."""
from pipeline.sweep.grid import RunPlan, expand, parse_seeds, parse_set, pinned
from pipeline.sweep.index import SweepIndex
from pipeline.sweep.report import report_rows, write_report
from pipeline.sweep.run import plan_sweep, resume_sweep, run_sweep

__all__ = ["RunPlan", "SweepIndex", "expand", "parse_seeds", "parse_set", "pinned", "plan_sweep", "report_rows",
           "resume_sweep", "run_sweep", "write_report"]
