"""bench/sparcl_report.py and sparcl_figure.py: deltas paired by seed, the t interval, the goal figure file."""
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[1] / "bench"


@pytest.fixture()
def bench(monkeypatch):
    monkeypatch.syspath_prepend(str(BENCH))
    import sparcl_figure
    import sparcl_report

    yield sparcl_report, sparcl_figure
    for name in ("sparcl_figure", "sparcl_report"):
        sys.modules.pop(name, None)


def run(seed: int, class_il: float, flops: float) -> dict:
    return {"seed": seed, "class_il": class_il, "task_il": 90.0, "flops": flops, "wall_s": 1.0, "steps": 10}


NAMED = {"dense-derpp": [run(0, 80.0, 400.0), run(1, 70.0, 400.0), run(2, 75.0, 400.0)],
         "sparcl-derpp-0.75": [run(0, 79.0, 100.0), run(1, 68.0, 80.0), run(2, 75.0, 100.0)],
         "ablation-derpp-0.75-tdm-dgm": [run(0, 80.5, 100.0), run(1, 69.5, 100.0), run(2, 75.0, 100.0)]}


def test_deltas_and_ratios_are_paired_by_seed(bench):
    report, _ = bench
    p = report.paired(NAMED, "sparcl-derpp-0.75")
    assert p["delta"][0] == pytest.approx(-1.0)            # (-1, -2, 0) / 3: seed by seed, not 74 - 75
    assert p["ratio"][0] == pytest.approx((4 + 5 + 4) / 3)
    assert report.half_width(1.0, 5) == pytest.approx(2.776445 / 5 ** 0.5, rel=1e-6)
    assert report.conclusive(-1.0, 1.0, 3, -1.0) == (pytest.approx(3 ** -0.5), False)


def test_goal_figure_is_drawn_for_resnet_settings_only(bench, tmp_path):
    _, figure = bench
    settings = {"fashion_mnist-resnet18_bn-w8-em500": {"model": {"kind": "resnet18_reduced", "width": 8}, "epochs": 10},
                "digits-mlp": {"model": {"kind": "mlp"}, "epochs": 20}}
    assert figure.draw({"digits-mlp": NAMED}, settings, tmp_path) is None
    assert not list(tmp_path.iterdir())
    out = figure.draw({"fashion_mnist-resnet18_bn-w8-em500": NAMED, "digits-mlp": NAMED}, settings, tmp_path)
    assert out == tmp_path / figure.FILE and out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert [p.name for p in tmp_path.iterdir()] == [figure.FILE]     # no temp file left behind
    assert figure.label("ablation-derpp-0.75-all-ddr2w") == "all-ddr2w" and figure.label("sparcl-er-0.90") == "0.90"
