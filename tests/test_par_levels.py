"""The lab's par-levels (coinche_lab.par_levels) at a small size: its machinery, not its verdict. Whether the
par orders the three levels (easy < normal < expert) and gives the Expert 0 is measured at full size by
`coinche par-levels` (docs/performance.md, "The par of a deal"): a few deals cannot show it."""

from __future__ import annotations

import pytest

from coinche import cli
from coinche.par import par, side_score
from coinche.record import check
from coinche_lab.par_levels import measure_deal, play_level, summarize
from coinche_lab.stats import mean_ci


def test_one_deal_measured_for_each_level_against_one_par():
    row = measure_deal(("levels-test", 0, 1, ("easy", "normal", "expert")))
    records = [play_level("levels-test", 0, level) for level in ("easy", "normal", "expert")]
    for record, level, score in zip(records, ("easy", "normal", "expert"), row["scores"]):
        check(record)
        assert record["seats"] == [level, "normal", "normal", "normal"]
        assert score == side_score(record["result"]["scores"], 0)
    # every level knows the same in the auction, and every seat is seeded alike: the same auction
    assert records[0]["calls"] == records[1]["calls"] == records[2]["calls"]
    # the par depends on the cards and the bots around, not on who played seat 0
    assert row["par"] == par(records[2], 0, k=1).mean
    assert row["differences"] == [s - row["par"] for s in row["scores"]]

    other = {"deal": 1, "par": 10.0, "scores": [0, 30, 40], "differences": [-10.0, 20.0, 30.0]}
    result = summarize([row, other], "levels-test", 1, ("easy", "normal", "expert"))
    assert result["deals"] == 2 and result["par"] == (row["par"] + 10.0) / 2
    for n, level in enumerate(result["levels"]):
        assert level["mean"] == mean_ci([row["differences"][n], other["differences"][n]])[0]
    pairs = {p["pair"]: p for p in result["pairs"]}
    assert set(pairs) == {"normal - easy", "expert - easy", "expert - normal"}
    assert pairs["expert - easy"]["mean"] == pytest.approx(
        ((row["scores"][2] - row["scores"][0]) + 40) / 2)


def test_the_command(capsys):
    assert cli.main(["par-levels", "--deals", "1", "--k", "1", "--levels", "easy", "--seed", "levels-test",
                     "--jobs", "1", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("1 deals (--seed levels-test), seat 0 against its par (K = 1 Expert replays")
    assert "  easy: " in out
    assert cli.main(["par-levels", "--levels", "easy,hard", "--deals", "1"]) == 2
