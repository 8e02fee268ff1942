"""write_report on a small results folder: files, simulated labels, and the page renders in headless
Chromium with every image decoded."""
from __future__ import annotations

import csv
import json
import re
import shutil
import subprocess

import pytest

from pipeline.errors import EdgeclError
from pipeline.report import load_results, write_report
from report_fixture import IDLE_W, PHASE_W, make_results

CHROMIUM = next((shutil.which(n) for n in ("chromium", "chromium-browser", "google-chrome") if shutil.which(n)), None)


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    folder = make_results(tmp_path_factory.mktemp("results") / "demo-20261130-120000")
    return write_report(folder)


def test_report_files(report):
    names = set(p.name for p in report.folder.iterdir())
    assert {"index.html", "accuracy_matrix.png", "accuracy_over_time.png", "power_over_time.png",
            "energy_per_task.png", "accuracy_vs_energy.png", "energy.csv", "runs.csv", "power.csv"} <= names
    assert all(report.figures.values())
    assert report.trace_json.exists() and report.trace_json.parent == report.folder.parent
    for png in report.folder.glob("*.png"):
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_every_table_and_the_page_say_simulated(report):
    for name in report.tables:
        with open(report.folder / name) as f:
            rows = list(csv.DictReader(f))
        assert "simulated" in rows[0] if rows else True, name
        assert all(r["simulated"] == "True" for r in rows), name
    page = (report.folder / "index.html").read_text()
    assert "class=sim" in page and "SIMULATED" in page
    assert json.loads(report.trace_json.read_text())["otherData"]["simulated"] is True


def test_energy_figures_match_the_phases(report):
    with open(report.folder / "energy.csv") as f:
        rows = list(csv.DictReader(f))
    train0 = next(r for r in rows if r["kind"] == "phase" and r["name"] == "training" and r["task"] == "0")
    # 4 s at 3 W, less the ramp of linear interpolation into the phase from idle at 10 Hz
    assert float(train0["energy_j"]) == pytest.approx(4 * PHASE_W["training"], rel=0.01)
    assert float(train0["idle_w"]) == pytest.approx(IDLE_W, rel=1e-3)
    assert int(train0["train_samples"]) == 200
    runs = list(csv.DictReader(open(report.folder / "runs.csv")))
    assert {r["kind"] for r in runs} == {"candidate", "run"}
    assert sum(r["chosen"] == "True" for r in runs) == 1


def test_real_phone_results_are_not_labelled_simulated(tmp_path):
    rep = write_report(make_results(tmp_path / "r", simulated=False))
    page = (rep.folder / "index.html").read_text()
    assert "class=sim" not in page and not rep.simulated


def test_charging_samples_blank_their_energy_unless_allowed(tmp_path):
    folder = make_results(tmp_path / "r", charging_in_session=True)
    data = load_results(folder)
    swap = next(r for r in data.energy_rows if r.phase == "swapping")
    assert swap.energy_j is None and "refused" in swap.note and swap.charging_samples > 0
    allowed = load_results(folder, allow_charging=True)
    assert next(r for r in allowed.energy_rows if r.phase == "swapping").energy_j is not None
    write_report(folder)                                      # still renders, with the gap explained


def test_partial_results_render_with_problems_listed(tmp_path):
    folder = tmp_path / "half"
    (folder / "sessions" / "s1").mkdir(parents=True)
    (folder / "sessions" / "s1" / "events.jsonl").write_text(
        '{"seq":0,"t":5.0,"type":"session_start","session_id":"s1"}\n{"seq":1,"t":6.0,"type":"task_start","task":0}\n')
    rep = write_report(folder)
    page = (rep.folder / "index.html").read_text()
    assert "no power.csv" in page and "no data for this figure" in page
    with pytest.raises(EdgeclError, match="does not exist"):
        write_report(tmp_path / "nope")


@pytest.mark.skipif(CHROMIUM is None, reason="chromium not installed (apt-get install -y chromium); "
                                              "cannot check that the report renders in a browser")
def test_report_renders_in_headless_chromium(report, tmp_path):
    cmd = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
           "--disable-component-update", "--no-first-run", f"--user-data-dir={tmp_path / 'profile'}",
           "--virtual-time-budget=5000", "--dump-dom", (report.folder / "index.html").as_uri()]
    res = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    m = re.search(r'data-images-loaded="([^"]*)"', res.stdout)
    assert m is not None, f"page script did not run: {res.stderr[-500:]}"
    assert m.group(1) == "all:5", m.group(1)


def test_percent_accuracies_from_the_runner_are_scaled(tmp_path):
    folder = make_results(tmp_path / "r")
    (folder / "accuracy_matrix.csv").write_text("after_task,task0,task1\n0,91.5,\n1,62.0,88.25\n")
    data = load_results(folder)
    assert data.acc_scale == 100.0
    rep = write_report(folder)
    assert "75.12 %" in (rep.folder / "index.html").read_text()


def _dom(chromium: str, page, tmp_path) -> str:
    cmd = [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
           "--disable-component-update", "--no-first-run", f"--user-data-dir={tmp_path / 'profile'}",
           "--virtual-time-budget=5000", "--dump-dom", page.as_uri()]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120).stdout


HEADER_FIELDS = ("spec", "runtime", "data", "model", "method", "replay", "sparcl", "device", "git", "energy")


@pytest.mark.skipif(CHROMIUM is None, reason="chromium not installed (apt-get install -y chromium)")
def test_header_fields_and_no_miro_legend_when_miro_was_off_in_headless_chromium(tmp_path):
    rep = write_report(make_results(tmp_path / "plain-20261201-090000", miro=False))
    dom = _dom(CHROMIUM, rep.folder / "index.html", tmp_path)
    rows = dict(re.findall(r"<tr data-field=\"(\w+)\"><th class=\"l\">[^<]*</th><td class=\"l\">([^<]*)</td></tr>", dom))
    assert set(rows) == set(HEADER_FIELDS), rows
    assert rows["spec"] == "demo (seed 0)" and rows["runtime"] == "ort" and rows["git"] == "abc123"
    assert rows["data"].startswith("digits: 2 tasks x 2 classes (natural order)")
    assert rows["model"].startswith("mlp (hidden [100, 100], norm none)")
    assert rows["method"].startswith("derpp: 5 epochs/task")
    assert rows["replay"].startswith("EM 200, SB 400") and "Miro off" in rows["replay"]
    assert rows["sparcl"].startswith("sparsity 0.75 (unstructured), TDM on")
    assert rows["device"].startswith("Pixel 7 (edgecl vphone) (SIMULATED virtual phone), build edgecl/panther")
    assert rows["energy"].startswith("battery coulomb counter, charge_counter x voltage_now from "
                                     "/sys/class/power_supply/battery")      # the counter the sessions used
    assert "SIMULATED" in rows["energy"]
    m = re.search(r'data-images-loaded="([^"]*)"', dom)
    assert m is not None and m.group(1) == "all:4", m                  # every figure but accuracy vs energy
    assert "accuracy_vs_energy.png" not in dom and "chosen by Miro" not in dom
    assert "Miro was off (miro.enabled = false)" in dom
    assert not (rep.folder / "accuracy_vs_energy.png").exists()


def test_tasks_are_numbered_from_one_on_the_page(tmp_path):
    rep = write_report(make_results(tmp_path / "r"))
    page = (rep.folder / "index.html").read_text()
    assert "<td class=l>task 1</td><td>1</td>" in page and "<td class=l>task 2</td><td>2</td>" in page
    assert "task 0" not in page


def test_report_refuses_folders_that_are_not_results_and_leaves_a_trace_folder_alone(tmp_path):
    import sys
    from pathlib import Path

    trace = tmp_path / "trace-x"
    trace.mkdir()
    files = {"power.csv": "t,current\n", "summary.json": '{"command": "edgecl trace"}', "trace.json": '{"traceEvents": []}'}
    for name, text in files.items():
        (trace / name).write_text(text)
    other = tmp_path / "project"
    other.mkdir()
    res = subprocess.run([sys.executable, "-m", "pipeline.cli.app", "report", str(trace)], capture_output=True,
                         text=True, timeout=300, cwd=Path(__file__).resolve().parents[1])
    assert res.returncode == 2 and "is an `edgecl trace` folder" in " ".join(res.stderr.split()), res.stderr
    assert "Traceback" not in res.stderr
    assert {p.name: p.read_text() for p in trace.iterdir()} == files                 # nothing rewritten or added
    with pytest.raises(EdgeclError, match="is not a results folder: it has no sessions/ and no spec.json"):
        write_report(other)
    assert list(other.iterdir()) == []


def test_method_row_names_the_replayed_rows_only_when_the_spec_sets_them():
    from pipeline.report.header import _method

    train = {"method": "er", "epochs": 2, "batch_size": 32, "optimizer": "sgd", "lr": 0.05}
    assert _method({"train": {**train, "buffer_batch_size": None}}) == "er: 2 epochs/task, batch 32, sgd lr 0.05"
    assert "batch 32 (+16 replayed), sgd" in _method({"train": {**train, "buffer_batch_size": 16}})
