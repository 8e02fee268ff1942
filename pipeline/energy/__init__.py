"""Energy from phone counters: normalised traces, the best counter's energy curve, and energy per
session, task and phase on the device's clock (``measure_session`` is the one entry point)."""
from pipeline.energy.attribution import (ENERGY_CSV_COLUMNS, EnergyRow, IdleBaseline, phase_totals, swap_estimates,
                                         write_energy_csv)
from pipeline.energy.counters import EnergyCurve, candidate_curves, choose_curve
from pipeline.energy.loading import load_trace
from pipeline.energy.power_csv import RawPowerCsv, parse_power_csv, read_power_csv
from pipeline.energy.rails import RailSeries, parse_rails_log, read_rails_log
from pipeline.energy.session import SessionEnergy, idle_baseline, idle_from, measure_events, measure_session
from pipeline.energy.timeline import Timeline, build_timeline
from pipeline.energy.trace import ChargeCheck, CounterConvention, GaugeQuality, PowerTrace, normalise

__all__ = [
    "ChargeCheck", "CounterConvention", "ENERGY_CSV_COLUMNS", "EnergyCurve", "EnergyRow", "GaugeQuality",
    "IdleBaseline", "PowerTrace", "RailSeries", "RawPowerCsv", "SessionEnergy", "Timeline", "build_timeline",
    "candidate_curves", "choose_curve", "idle_baseline", "idle_from", "load_trace", "measure_events",
    "measure_session", "normalise", "parse_power_csv", "parse_rails_log", "phase_totals", "read_power_csv",
    "read_rails_log", "swap_estimates", "write_energy_csv",
]
