"""tools/card_art.py's minifier: numbers to the step asked and nothing else changed; a path's commands, absolute
or relative, their repeated letters left out, drawing the same points within half a step. Held to a naive reader
of SVG numbers and path data."""
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


coordinates = st.floats(min_value=-3000, max_value=3000, allow_nan=False).map(lambda v: round(v, 4))  # no exponents


@given(st.lists(coordinates, min_size=1, max_size=12), st.sampled_from([1, 0.5, 0.1, 0.01, 0.0001]))
def test_numbers_are_rounded_and_read_back_as_the_same_values(values, step):
    text = card_art.numbers(",".join(repr(v) for v in values), step)
    assert [abs(a - b) <= step / 2 + 1e-9 for a, b in zip(read_numbers(text), values)] == [True] * len(values)
    assert all(abs(n / step - round(n / step)) < 1e-6 for n in read_numbers(text))


def absolute(commands: list[tuple[str, list[float]]]) -> list[tuple[str, list[float]]]:
    """The naive reader's commands in absolute coordinates, H and V as lines: what the path draws."""
    out, x, y, start = [], 0.0, 0.0, (0.0, 0.0)
    for letter, values in commands:
        upper = letter.upper()
        if upper == "Z":
            out.append(("Z", []))
            x, y = start
            continue
        if upper == "H":
            values, upper = [values[0] + (x if letter == "h" else 0), y], "L"
        elif upper == "V":
            values, upper = [x, values[0] + (y if letter == "v" else 0)], "L"
        elif letter.islower():
            values = [v + (y if i % 2 else x) for i, v in enumerate(values)]
        out.append((upper, values))
        x, y = values[-2], values[-1]
        if upper == "M":
            start = (x, y)
    return out


@st.composite
def paths(draw):
    steps = [("M", draw(st.lists(coordinates, min_size=2, max_size=2)))]
    for _ in range(draw(st.integers(min_value=1, max_value=12))):
        letter = draw(st.sampled_from("MmLlCcSsHhVvZz"))
        steps.append((letter, draw(st.lists(coordinates, min_size=ARGUMENTS[letter.upper()],
                                            max_size=ARGUMENTS[letter.upper()]))))
    return steps


@settings(max_examples=40)  # each path up to 13 commands: 40 cover the letters' pairs many times over
@given(paths(), st.sampled_from([0.5, 0.1]))
def test_a_path_draws_the_same_points_each_within_half_a_step(steps, step):
    source = " ".join(letter + " " + ",".join(repr(v) for v in numbers) for letter, numbers in steps)
    short = card_art.path_data(source, step)
    drawn, meant = absolute(read_path(short)), absolute(read_path(source))
    assert [letter for letter, _ in drawn] == [letter for letter, _ in meant]
    for (_, got), (_, want) in zip(drawn, meant):
        assert all(abs(a - b) <= step / 2 + 1e-6 for a, b in zip(got, want)), (short, got, want)
    assert len(short) <= len(source)


def test_worked_examples():
    assert card_art.path_data("M 0,0 C 0,3.78 3.09,6.87 6.87,6.87 C 1,2 3,4 5,6 z", 0.1) == \
        "M0 0C0 3.8 3.1 6.9 6.9 6.9 1 2 3 4 5 6z"
    assert card_art.path_data("M460 151.9l-1.8-3.2L440 100L440 90L430 90z", 0.5) == "M460 152l-2-3.5L440 100V90H430z"
    assert card_art.numbers("c0.8,-0.01,1.7,0.26", 0.1) == "c.8 0 1.7.3"  # -0.01 is 0: no sign left to separate
    assert card_art.numbers("matrix(-0.99,0,0,-0.99,2551.075,914.141)", 0.0001) == \
        "matrix(-.99 0 0-.99 2551.075 914.141)"
