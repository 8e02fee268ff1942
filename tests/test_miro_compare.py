"""The comparison ``edgecl tune --compare`` writes: the oracle is Miro's rule in hindsight (the cutline on the
static runs' final accuracy, then the best accuracy per joule), not simply the best CE, and every ratio is
Miro's CE over a static run's."""
from __future__ import annotations

from pipeline.miro.compare import RunFigures, compare_to_statics
from pipeline.miro.scorers import ScoringSpec


def test_the_oracle_keeps_the_cutline_and_the_ratios_are_ces() -> None:
    statics = {"em25": RunFigures(40.0, 10.0, 10.0),     # the cheapest, CE 4.0, but below the cutline (by rank)
               "em100": RunFigures(80.0, 40.0, 40.0),    # CE 2.0, kept
               "em200": RunFigures(60.0, 50.0, 50.0),    # CE 1.2
               "em50": RunFigures(78.0, 30.0, 30.0)}     # CE 2.6: the best CE of the top half
    miro = RunFigures(79.0, 33.0, 30.0, profiling_energy_j=3.0)
    c = compare_to_statics(statics, "em100", miro, ScoringSpec(cutline=0.5))
    assert (c.oracle, c.best_ce, c.default) == ("em50", "em25", "em100")
    assert c.vs_oracle == miro.ce / statics["em50"].ce and c.vs_default == miro.ce / statics["em100"].ce
    assert c.vs_best_ce == miro.ce / 4.0 and c.acc_vs_oracle == 1.0 and c.share == 3.0 / 33.0
