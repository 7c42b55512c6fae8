"""tools/first_deals.py: the first deals a first visit draws while its engine boots are the engine's own answers,
and the engine deals the same cards for their seed in a match with any other match seed (what the page relies
on when it sends ``new_match(deal_seed=...)`` and compares)."""
from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import engine_zips

from coinche import webcommands
from coinche.deal import VARIANTS

ROOT = Path(__file__).resolve().parent.parent
spec = importlib.util.spec_from_file_location("first_deals", ROOT / "tools" / "first_deals.py")
first_deals = importlib.util.module_from_spec(spec)
spec.loader.exec_module(first_deals)

# What the page compares (web/js/table/game.js sameDeal): the build's state against the engine's answer.
COMPARED = ("variant", "target", "deal_seed", "deal")


@pytest.fixture(scope="module")
def content() -> dict:
    return first_deals.first_deals("0" * 64, per_variant=12)


def test_each_variant_has_its_count_of_distinct_seeds(content):
    assert content["format"] == first_deals.FORMAT
    assert content["settings"] == {"target": 1000, "level": "normal"}
    seeds = [deal["deal_seed"] for variant in VARIANTS for deal in content["deals"][variant]]
    assert [len(content["deals"][v]) for v in VARIANTS] == [12, 12]
    assert len(set(seeds)) == len(seeds)
    assert all(seed.isdigit() and int(seed) < 2**64 for seed in seeds)


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_engine_deals_the_same_first_deal_for_the_seed_whatever_the_match_seed(content, variant):
    for entry in content["deals"][variant]:
        drawn = entry["state"]
        assert drawn["variant"] == variant and drawn["deal_seed"] == entry["deal_seed"]
        for match_seed in (None, "another match", "0123456789abcdef"):
            dealt = webcommands.new_match(variant=variant, seed=match_seed, deal_seed=entry["deal_seed"])["state"]
            assert {k: dealt[k] for k in COMPARED} == {k: drawn[k] for k in COMPARED}


@pytest.mark.parametrize("variant", VARIANTS)
def test_each_first_deal_opens_on_the_players_call_with_the_engines_legal_calls(content, variant):
    for entry in content["deals"][variant]:
        deal = entry["state"]["deal"]
        assert deal["phase"] == "auction" and deal["current_player"] == 0 and deal["dealer"] == 3
        assert deal["calls"] == [] and "pass" in deal["legal"]
        assert len(deal["hand"]) == (8 if variant == "coinche" else 5)


def test_the_same_wheel_gives_the_same_deals_and_another_wheel_others():
    assert first_deals.deal_seeds("a" * 64, "coinche", 4) == first_deals.deal_seeds("a" * 64, "coinche", 4)
    assert first_deals.deal_seeds("a" * 64, "coinche", 4) != first_deals.deal_seeds("b" * 64, "coinche", 4)
    assert first_deals.deal_seeds("a" * 64, "coinche", 4) != first_deals.deal_seeds("a" * 64, "classic", 4)


def test_the_script_imports_the_engine_from_the_wheel_it_is_given(tmp_path):
    wheel, empty = engine_zips(tmp_path)
    out = tmp_path / "first-deals.json"
    subprocess.run([sys.executable, "-I", str(ROOT / "tools" / "first_deals.py"), str(wheel), str(out),
                    "--per-variant", "3"], check=True)
    written = json.loads(out.read_text())
    assert [len(written["deals"][v]) for v in VARIANTS] == [3, 3]
    # An archive that is not the engine: refused, not silently replaced by an installed copy.
    refused = subprocess.run([sys.executable, "-I", str(ROOT / "tools" / "first_deals.py"), str(empty), str(out)],
                             capture_output=True, text=True)
    assert refused.returncode != 0


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_first_deal_for_the_next_visit_leaves_the_match_being_played_alone(variant):
    # The page asks for the next visit's first deal (first_deal) in the middle of a match.
    playing = webcommands.new_match(variant="coinche", seed="the match", deal_seed="7")
    webcommands.act("pass")
    before = webcommands.state()
    seeds = set()
    for _ in range(8):
        answer = webcommands.first_deal(variant=variant, target=501, level="easy")
        state = answer["state"]
        assert state["deal_seed"] == answer["deal_seed"] and state["variant"] == variant
        assert state["target"] == 501 and state["settings"]["level"] == "easy"
        assert state["deal"]["current_player"] == 0 and state["deal"]["calls"] == []
        seeds.add(answer["deal_seed"])
    assert len(seeds) == 8  # a random seed each time
    assert webcommands.state() == before and before["state"]["deal_seed"] == playing["state"]["deal_seed"]
    with pytest.raises(Exception, match="deal_seed"):
        webcommands.first_deal(deal_seed="not a seed")
