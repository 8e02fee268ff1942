"""bench/results_table.py: the goals table atop RESULTS.md, computed from whatever results JSON is there."""
import importlib.util
import json
from pathlib import Path

BENCH = Path(__file__).resolve().parents[1] / "bench"


def _module():
    spec = importlib.util.spec_from_file_location("results_table", BENCH / "results_table.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_goals_are_checked_and_the_table_opens_results_md(tmp_path: Path) -> None:
    rt = _module()
    (tmp_path / "results").mkdir()
    rows = [{"name": "a", "metric": "ratio", "value": 4.2, "unit": "x", "goal": ">= 4"},
            {"name": "b", "metric": "share", "value": 0.12, "unit": "", "goal": "<= 0.10"},
            {"name": "c", "metric": "identical", "value": True, "unit": "", "goal": True},
            {"name": "d", "metric": "acc", "value": 80.0, "unit": "%", "goal": "higher"},
            {"name": "e", "metric": "t", "value": 1.0, "unit": "s", "goal": None}]
    (tmp_path / "results" / "x.json").write_text(json.dumps({"command": "python bench/x.py", "rows": rows}))
    (tmp_path / "RESULTS.md").write_text("# Benchmark results\n\n<!-- bench/x.py start -->\n## X\n<!-- bench/x.py end -->\n")
    rt.write_table(tmp_path)
    text = (tmp_path / "RESULTS.md").read_text()
    assert text.index("Goals at a glance") < text.index("## X")
    assert "2 of 3 goals met" in text and "(1 further rows" in text
    assert "| x.json | a ratio | 4.2 x | >= 4 | yes | `python bench/x.py` |" in text
    assert "| x.json | b share 0.12 | <= 0.10 | **no** |" not in text
    assert "| x.json | b share | 0.12 | <= 0.10 | **no** |" in text and "| x.json | c identical | True | true | yes |" in text
    rows[1]["value"] = 0.05
    (tmp_path / "results" / "x.json").write_text(json.dumps({"command": "python bench/x.py", "rows": rows}))
    rt.write_table(tmp_path)
    again = (tmp_path / "RESULTS.md").read_text()
    assert again.count("Goals at a glance") == 1 and "3 of 3 goals met" in again and again.endswith("<!-- bench/x.py end -->\n")


def test_results_md_opens_with_the_table_of_the_results_in_the_repository(tmp_path: Path) -> None:
    rt = _module()
    text = (BENCH / "RESULTS.md").read_text()
    start, end = text.index("<!-- bench/results_table.py start -->"), text.index("<!-- bench/results_table.py end -->")
    assert text[:start].strip() == "# Benchmark results"
    assert text[start:end].split("\n", 1)[1].strip() == rt.markdown(*rt.goal_rows(BENCH / "results")).strip()
