"""bench/results_io.py: results JSON layout and the marked RESULTS.md section, on a temp bench folder."""
import importlib.util
import json
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[1] / "bench"


@pytest.fixture()
def rio(tmp_path, monkeypatch):
    spec = importlib.util.spec_from_file_location("results_io", BENCH / "results_io.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    monkeypatch.setattr(module, "BENCH_DIR", tmp_path)
    return module


ROWS = [{"name": "m", "metric": "x_ratio_vs_eager", "value": 1.5, "unit": "x", "goal": None}]


def test_json_keys_order_and_layout(rio, tmp_path):
    path = rio.write_results_json("demo", "python bench/demo.py", ROWS, environment="host")
    assert path == tmp_path / "results" / "demo.json"
    text = path.read_text()
    assert list(json.loads(text)) == ["command", "environment", "rows"]
    assert text == json.dumps({"command": "python bench/demo.py", "environment": "host", "rows": ROWS}, indent=1)
    rio.write_results_json("demo", "c", ROWS, indent=2, trailing_newline=True)
    assert path.read_text() == json.dumps({"command": "c", "rows": ROWS}, indent=2) + "\n"
    assert [p.name for p in path.parent.iterdir()] == ["demo.json"]


def test_section_created_replaced_and_appended(rio, tmp_path):
    md = tmp_path / "RESULTS.md"
    rio.write_section("a", "## A\n\nfirst")
    assert md.read_text() == "# Benchmark results\n\n<!-- bench/a.py start -->\n## A\n\nfirst\n<!-- bench/a.py end -->\n"
    rio.write_section("b", "## B")
    rio.write_section("a", "## A\n\nsecond")
    text = md.read_text()
    assert text == ("# Benchmark results\n\n<!-- bench/a.py start -->\n## A\n\nsecond\n<!-- bench/a.py end -->\n\n"
                    "<!-- bench/b.py start -->\n## B\n<!-- bench/b.py end -->\n")
    assert [p.name for p in tmp_path.iterdir()] == ["RESULTS.md"]


def test_section_keeps_text_around_it(rio, tmp_path):
    md = tmp_path / "RESULTS.md"
    md.write_text("# R\n\nbefore\n<!-- bench/a.py start -->\nold\n<!-- bench/a.py end -->\nafter\n")
    rio.write_section("a", "new \\1 text")
    assert md.read_text() == "# R\n\nbefore\n<!-- bench/a.py start -->\nnew \\1 text\n<!-- bench/a.py end -->\nafter\n"


def test_command_line_quotes_the_arguments(rio, monkeypatch):
    monkeypatch.setattr("sys.argv", ["bench/demo.py", "--models", "mlp,cnn", "--note", "two words"])
    assert rio.command_line("demo") == "python bench/demo.py --models mlp,cnn --note 'two words'"
    monkeypatch.setattr("sys.argv", ["bench/demo.py"])
    assert rio.command_line("demo") == "python bench/demo.py "


def test_shared_host_names_machine_cores_and_load(rio, monkeypatch):
    monkeypatch.setattr("os.getloadavg", lambda: (1.26, 0.0, 0.0))
    monkeypatch.setattr("os.cpu_count", lambda: 2)
    monkeypatch.setattr("platform.machine", lambda: "x86_64")
    assert rio.shared_host() == "x86_64, 2 cores shared with other jobs (1-min load 1.3 at the end)"
