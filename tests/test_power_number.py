"""android_harness/power_number.py: the one number reader of the power parsers (perfetto, power.csv, rails.txt)."""
import pytest

from android_harness.errors import PowerError
from android_harness.perfetto_parse import parse_trace_processor_counters
from android_harness.power_number import finite_number


def test_finite_numbers_pass_through() -> None:
    assert finite_number("-12.5", "x") == -12.5 and finite_number("1e3", "x") == 1000.0


@pytest.mark.parametrize("text, why", [("1.2.3", "is not a number"), ("", "is not a number"),
                                       ("inf", "is not a finite number"), ("nan", "is not a finite number")])
def test_bad_cells_name_where_and_what(text: str, why: str) -> None:
    with pytest.raises(PowerError) as err:
        finite_number(text, "power.csv line 6: current")
    assert str(err.value) == f"power.csv line 6: current={text!r} {why}"


def test_perfetto_counters_use_it() -> None:
    with pytest.raises(PowerError, match=r"trace_processor CSV line 3: value='inf' is not a finite number"):
        parse_trace_processor_counters("ts,name,value\n1,batt.current_ua,5\n2,batt.current_ua,inf\n")
