"""Positions of any size (a judge link of 100,000 characters): told their first real problem, in a message that
quotes at most a short excerpt of the input, whole cards only (issue 25). The page's own reading of such a link
is e2e/test_judge.py's; the times are bench/judge_links_bench.py's."""

from __future__ import annotations

import subprocess
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

from coinche import InvalidPositionError, NotationError, Position
from coinche.cards import CARDS
from coinche.errors import EXCERPT, CoincheError, excerpt

HAND = "trump=h&trick=&hand="


def told(text: str) -> CoincheError:
    with pytest.raises(CoincheError) as caught:
        Position.parse(text)
    return caught.value


@pytest.mark.parametrize("text, key, params", [
    # 33,000 jacks of hearts, with and without the trailing comma that once made it "unknown card ''"
    (HAND + ",".join(["Jh"] * 33_000), "too_many_cards", {"count": 33_000, "limit": 8}),
    (HAND + ",".join(["Jh"] * 33_000) + ",", "too_many_cards", {"count": 33_000, "limit": 8}),
    (HAND + ",".join(["Jh"] * 33_000) + ",,,", "too_many_cards", {"count": 33_000, "limit": 8}),
    # 20,000 cards that are no cards: too many, before any is read
    (HAND + ",".join(f"Q{i}" for i in range(20_000)), "too_many_cards", {"count": 20_000, "limit": 8}),
    ("trump=h&trick=" + ",".join(["8h"] * 5_000) + "&hand=Jh", "too_many_cards", {"count": 5_000, "limit": 3}),
    # one huge card, a huge trump, a huge part that is nothing
    (HAND + "Jh,Kd," + "J" * 100_000, "unknown_card", {"text": "J" * 23 + "…"}),
    ("trump=" + "h" * 100_000 + "&hand=Jh", "unknown_suit", {"text": "h" * 23 + "…"}),
    ("x" * 100_000, "malformed_position", {"text": "x" * 23 + "…"}),
    ("trump=h&hand=Jh&" + "x=1&" * 25_000, "unknown_field", {"field": "x"}),
    ("trump=h&hand=Jh&" + "hand=Kd&" * 12_500, "malformed_position", {"text": "hand given twice"}),
    ("&" * 100_000, "malformed_position", {"text": ""}),
    # a card twice among eight, after a long run of spaces that strip() removes
    (" " * 100_000 + HAND + "Jh,Kd,7s,8s,9s,Ts,Qs,Jh", "duplicate_card", {"card": "Jh"}),
])
def test_a_long_bad_position_names_its_real_problem(text, key, params):
    error = told(text)
    assert error.key == key and error.to_json()["params"] == params
    assert len(str(error)) < 80


def test_the_order_of_checks_on_short_positions_is_as_before():
    """Counting first changes nothing where a field holds at most its limit of cards."""
    assert told(HAND + "Jh,Xd").key == "unknown_card"
    assert told(HAND + "Jh,Kd,,").to_json()["params"] == {"text": ""}  # an empty place among few cards
    assert told("trump=h&trick=8h,Ah&hand=Jh,8h").key == "duplicate_card"
    assert told("trump=h&hand=7s,8s,9s,Ts,Js,Qs,Ks,As,7h").to_json()["params"] == {"count": 9, "limit": 8}
    assert told("trump=h&hand=Jh&trick=8h&x&y").to_json()["params"] == {"text": "x"}


def test_excerpts_cut_after_a_separator():
    assert excerpt("Jh,Kd") == "Jh,Kd"
    assert excerpt("x" * EXCERPT) == "x" * EXCERPT
    assert excerpt("Jh," * 100) == "Jh," * 7 + "…"
    assert excerpt("trump=h&hand=Jh,Kd,7s,8s,9s") == "trump=h&hand=Jh,Kd,7s,…"
    assert excerpt("a" * 30 + ",b") == "a" * 23 + "…"  # no separator in reach: cut where it must


# no separator, and nothing that strip() could take from the end of the text
SEPARATOR_FREE = st.text(st.characters(blacklist_characters=",&", blacklist_categories=("Z", "C")), min_size=1,
                         max_size=4)


@given(st.lists(SEPARATOR_FREE, min_size=9, max_size=300), st.integers(1, 200))
def test_more_than_eight_written_cards_are_too_many_whatever_they_are(tokens, repeat):
    tokens = tokens * repeat
    error = told(HAND + ",".join(tokens))
    assert isinstance(error, InvalidPositionError) and error.key == "too_many_cards"
    assert error.params == {"count": len(tokens), "limit": 8}


@given(st.text(max_size=30), st.integers(1, 5_000), st.sampled_from(["", ",", "&", "Jh,", "trump=h&"]))
def test_any_long_text_is_told_in_a_short_message(text, repeat, glue):
    try:
        Position.parse((text + glue) * repeat)
    except (NotationError, InvalidPositionError) as error:
        assert len(str(error)) <= 80
        for value in error.to_json()["params"].values():
            assert not isinstance(value, str) or len(value) <= EXCERPT


@given(st.permutations(range(32)), st.integers(0, 3), st.integers(1, 8))
def test_valid_positions_parse_as_before(order, in_trick, in_hand):
    cards = [str(CARDS[c]) for c in order]
    trick, hand = cards[:in_trick], cards[in_trick:in_trick + in_hand]
    position = Position.parse(f"trump=s&trick={','.join(trick)}&hand={','.join(hand)}")
    assert [str(c) for c in position.trick] == trick and [str(c) for c in position.hand] == hand


def test_the_command_line_tells_a_huge_link_in_one_short_line():
    text = HAND + ",".join(["Jh"] * 33_000) + ","
    done = subprocess.run([sys.executable, "-m", "coinche.cli", "judge", text], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == "coinche judge: invalid position: too many cards: 33000 (at most 8)\n"
