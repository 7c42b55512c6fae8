"""webapi refuses arguments that do not fit a command exactly as ``inspect.signature().bind`` would (it
checks them without importing ``inspect``, to start faster in the browser): a differential test."""
from __future__ import annotations

import inspect
import json

from hypothesis import given
from hypothesis import strategies as st

from coinche import webapi


def f_positional(a, b=1): ...
def f_keyword_only(a, *, c, d=2): ...
def f_any_keyword(a, **rest): ...


FUNCTIONS = [*webapi.COMMANDS.values(), f_positional, f_keyword_only, f_any_keyword]
NAMES = sorted({name for f in FUNCTIONS for name in inspect.signature(f).parameters} | {"x", "rest"})


def inspect_says(function, args) -> str | None:
    try:
        inspect.signature(function).bind(**args)
    except TypeError as error:
        return str(error)
    return None


@given(st.sampled_from(FUNCTIONS), st.dictionaries(st.sampled_from(NAMES), st.none(), max_size=5))
def test_argument_problems_are_those_inspect_finds(function, args):
    assert webapi._argument_problem(function, args) == inspect_says(function, args)


def test_a_command_with_wrong_arguments_is_answered_bad_args():
    answer = json.loads(webapi.handle("judge", json.dumps({"positions": "x"})))
    assert answer["error"]["code"] == "bad_args"
    assert answer["error"]["message"] == "judge: missing a required argument: 'position'"
