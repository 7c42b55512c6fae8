"""tools/card_art.py's minifier: numbers rounded to the places asked and nothing else changed, a path's repeated
commands left out only where a reader puts them back. Held to a naive reader of SVG numbers and path data."""
from __future__ import annotations

import re
import sys
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))
import card_art  # noqa: E402

# A number as SVG reads it: a sign, digits, at most one point (".5.3" is two numbers).
SVG_NUMBER = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)")
ARGUMENTS = {"M": 2, "L": 2, "C": 6, "S": 4, "H": 1, "V": 1, "Z": 0}


def read_numbers(text: str) -> list[float]:
    return [float(n) for n in SVG_NUMBER.findall(text)]


def read_path(text: str) -> list[tuple[str, list[float]]]:
    """Each command with its arguments, the left-out letters put back (after a move, a line: SVG's rule)."""
    commands, letter, numbers = [], None, []
    for token in re.findall(rf"[A-Za-z]|{SVG_NUMBER.pattern}", text):
        if token.isalpha():
            letter = token
            if ARGUMENTS[letter.upper()] == 0:
                commands.append((letter, []))
            continue
        numbers.append(float(token))
        if len(numbers) == ARGUMENTS[letter.upper()]:
            commands.append((letter, numbers))
            numbers = []
            letter = {"M": "L", "m": "l"}.get(letter, letter)
    assert not numbers, f"arguments left over in {text!r}"
    return commands


coordinates = st.floats(min_value=-3000, max_value=3000, allow_nan=False)


@given(st.lists(coordinates, min_size=1, max_size=12), st.integers(min_value=0, max_value=3))
def test_numbers_are_rounded_and_read_back_as_the_same_values(values, places):
    text = card_art.numbers(",".join(repr(v) for v in values), places)
    assert read_numbers(text) == [round(v, places) + 0.0 for v in values]


@st.composite
def paths(draw):
    steps = [("M", draw(st.lists(coordinates, min_size=2, max_size=2)))]
    for _ in range(draw(st.integers(min_value=1, max_value=12))):
        letter = draw(st.sampled_from("MmLlCcSsHhVvZz"))
        steps.append((letter, draw(st.lists(coordinates, min_size=ARGUMENTS[letter.upper()],
                                            max_size=ARGUMENTS[letter.upper()]))))
    return steps


@settings(max_examples=40)  # each path up to 13 commands: 40 cover the letters' pairs many times over
@given(paths())
def test_a_path_reads_back_as_the_same_commands_rounded(steps):
    source = " ".join(letter + " " + ",".join(repr(v) for v in numbers) for letter, numbers in steps)
    short = card_art.path_data(source, 1)
    assert read_path(short) == [(letter, [round(v, 1) + 0.0 for v in numbers]) for letter, numbers in steps]
    assert len(short) <= len(source)


def test_worked_examples():
    assert card_art.path_data("M 0,0 C 0,3.78 3.09,6.87 6.87,6.87 C 1,2 3,4 5,6 z", 1) == \
        "M0 0C0 3.8 3.1 6.9 6.9 6.9 1 2 3 4 5 6z"
    assert card_art.numbers("c0.8,-0.01,1.7,0.26", 1) == "c.8 0 1.7.3"  # -0.01 is 0: no sign left to separate
    assert card_art.numbers("matrix(-0.99,0,0,-0.99,2551.075,914.141)", 4) == "matrix(-.99 0 0-.99 2551.075 914.141)"
