"""Reports of a results folder: HTML with figures, CSV tables and a Perfetto trace-event JSON."""
from pipeline.report.results import ResultsData, SessionData, load_results
from pipeline.report.trace_json import (build_trace_events, dump_trace_json, standalone_trace_events,
                                         validate_trace_events, write_trace_json)
from pipeline.report.writer import ReportFiles, write_report

__all__ = ["ReportFiles", "ResultsData", "SessionData", "build_trace_events", "dump_trace_json", "load_results",
           "standalone_trace_events", "validate_trace_events", "write_report", "write_trace_json"]
