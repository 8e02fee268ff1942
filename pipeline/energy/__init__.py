"""Energy from phone battery counters: normalised power traces and energy per session/task/phase."""
from pipeline.energy.attribution import (ENERGY_CSV_COLUMNS, EnergyRow, Interval, attribute_energy,
                                         intervals_from_events, phase_totals, swap_estimates,
                                         write_energy_csv)
from pipeline.energy.loading import load_trace
from pipeline.energy.power_csv import RawPowerCsv, parse_power_csv, read_power_csv
from pipeline.energy.trace import ChargeCheck, CounterConvention, GaugeQuality, PowerTrace, normalise

__all__ = [
    "ChargeCheck", "CounterConvention", "ENERGY_CSV_COLUMNS", "EnergyRow", "GaugeQuality", "Interval",
    "PowerTrace", "RawPowerCsv", "attribute_energy", "intervals_from_events", "load_trace", "normalise",
    "parse_power_csv", "phase_totals", "read_power_csv", "swap_estimates", "write_energy_csv",
]
