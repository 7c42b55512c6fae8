"""Positions of any size (a judge link of 100,000 characters): told their first real problem, in a message that
quotes at most a short excerpt of the input, whole cards only (issue 25); a text longer than any position is
told so before anything in it is read. The page's own reading of such a link
is e2e/test_judge.py's; the times are bench/judge_links_bench.py's."""

from __future__ import annotations

import subprocess
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

from coinche import InvalidPositionError, NotationError, Position
from coinche.cards import CARDS
from coinche.position import MAX_LENGTH, link_text
from coinche.errors import EXCERPT, CoincheError, excerpt

HAND = "trump=h&trick=&hand="
TOO_LONG = object()  # "position too long", with the text's length


def told(text: str) -> CoincheError:
    with pytest.raises(CoincheError) as caught:
        Position.parse(text)
    return caught.value


@pytest.mark.parametrize("text, key, params", [
    # 33,000 jacks of hearts, with and without the trailing comma that once made it "unknown card ''"
    (HAND + ",".join(["Jh"] * 33_000), "position_too_long", TOO_LONG),
    (HAND + ",".join(["Jh"] * 33_000) + ",", "position_too_long", TOO_LONG),
    (HAND + ",".join(f"Q{i}" for i in range(20_000)), "position_too_long", TOO_LONG),
    ("trump=h&trick=" + ",".join(["8h"] * 5_000) + "&hand=Jh", "position_too_long", TOO_LONG),
    (HAND + "Jh,Kd," + "J" * 100_000, "position_too_long", TOO_LONG),
    ("trump=" + "h" * 100_000 + "&hand=Jh", "position_too_long", TOO_LONG),
    ("x" * 100_000, "position_too_long", TOO_LONG),
    ("trump=h&hand=Jh&" + "x=1&" * 25_000, "position_too_long", TOO_LONG),
    ("&" * 100_000, "position_too_long", TOO_LONG),
    # the longest text read: its problem is named as in a short one
    ("#" + "x" * MAX_LENGTH, "malformed_position", {"text": "x" * 23 + "…"}),
    (HAND + ",".join(["Jh"] * 20) + ",", "too_many_cards", {"count": 20, "limit": 8}),
    (HAND + ",".join(["Jh"] * 20) + ",,,", "too_many_cards", {"count": 20, "limit": 8}),
    # cards that are no cards: too many, before any is read
    (HAND + ",".join(f"Q{i}" for i in range(20)), "too_many_cards", {"count": 20, "limit": 8}),
    ("trump=h&trick=" + ",".join(["8h"] * 20) + "&hand=Jh", "too_many_cards", {"count": 20, "limit": 3}),
    # one long card, a long trump, a long part that is nothing
    (HAND + "Jh,Kd," + "J" * 70, "unknown_card", {"text": "J" * 23 + "…"}),
    ("trump=" + "h" * 80 + "&hand=Jh", "unknown_trump", {"text": "h" * 23 + "…"}),
    ("trump=h&hand=Jh&" + "x=1&" * 20, "unknown_field", {"field": "x"}),
    ("trump=h&hand=Jh&" + "hand=Kd&" * 10, "malformed_position", {"text": "hand given twice"}),
    ("&" * MAX_LENGTH, "malformed_position", {"text": ""}),
    # a card twice among eight, after a long run of spaces that strip() removes
    (" " * 100_000 + HAND + "Jh,Kd,7s,8s,9s,Ts,Qs,Jh", "duplicate_card", {"card": "Jh"}),
])
def test_a_long_bad_position_names_its_real_problem(text, key, params):
    if params is TOO_LONG:
        params = {"length": len(text), "limit": MAX_LENGTH}
    error = told(text)
    assert error.key == key and error.to_json()["params"] == params
    assert len(str(error)) < 80


@given(st.text(min_size=MAX_LENGTH + 1, max_size=3 * MAX_LENGTH))
def test_a_text_longer_than_any_position_is_too_long_whatever_it_holds(text):
    """Its length as the link is read (link_text: a mark and the spaces around it aside, percent-escapes read
    once, as the judge page reads its fragment)."""
    stripped = link_text(text)
    try:
        Position.parse(text)
    except NotationError as error:
        if len(stripped) > MAX_LENGTH:
            assert error.key == "position_too_long"
            assert error.params == {"length": len(stripped), "limit": MAX_LENGTH}
    else:
        assert len(stripped) <= MAX_LENGTH


def test_the_longest_position_is_read():
    longest = "trump=h&trick=8h,Ah,7c&hand=Jh,Kd,7s,8s,9s,Ts,Qs,As"
    assert len(longest) == 51 <= MAX_LENGTH
    assert str(Position.parse(longest)) == longest
    assert str(Position.parse("#" + longest + " " * 200)) == longest


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


# at most 16 tokens of 4 characters: the hand stays within MAX_LENGTH
@given(st.lists(SEPARATOR_FREE, min_size=9, max_size=16))
def test_more_than_eight_written_cards_are_too_many_whatever_they_are(tokens):
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
    assert done.stderr == f"coinche judge: invalid position: position too long: {len(text)} characters (at most 100)\n"
