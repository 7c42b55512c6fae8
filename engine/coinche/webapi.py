"""The engine's JSON interface for the web worker: text in, text out.

The worker (web/js/engine-worker.js) calls ``handle(cmd, args_json)`` for every message and posts back the
JSON it returns, which is always one of::

    {"result": <any JSON value>}
    {"error": {"code": "<stable_code>", "message": "<English text>", "params": {...}}}

A command is a plain function in ``COMMANDS`` whose keyword arguments are the keys of the ``args`` object;
arguments that do not fit its signature are answered with a ``bad_args`` error before it runs. Raise
``ApiError`` from a command for an expected refusal (an illegal card, an unknown deal...): its code and
params reach the page as data. Any other exception is a bug: it is answered as ``internal_error`` with
the traceback in ``params.traceback``; but a module of the engine that is not there is answered as
``engine_module_missing`` (``params.module``): the site ships the modules a first visit does not need apart,
and the worker mounts them when a command first asks for one, then runs it again (web/js/engine-worker.js).

>>> import json
>>> json.loads(handle("ping", "{}"))["result"]["pong"]
True
>>> json.loads(handle("fly", "{}"))["error"]["code"]
'unknown_command'
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import coinche
from coinche.errors import CoincheError


class ApiError(Exception):
    """A refusal that the page shows to the player: a stable code, parameters, an English message."""

    def __init__(self, code: str, message: str, **params: Any) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.params = params

    def as_json(self) -> dict[str, Any]:
        return {"code": self.code, "message": self.message, "params": self.params}


def ping() -> dict[str, Any]:
    """Answer that the engine is loaded, with its version."""
    return {"pong": True, "version": getattr(coinche, "__version__", None)}


COMMANDS: dict[str, Callable[..., Any]] = {
    "ping": ping,
}


def _call(cmd: str, args_json: str) -> Any:
    function = COMMANDS.get(cmd)
    if function is None:
        raise ApiError("unknown_command", f"unknown command {cmd!r}", cmd=cmd, known=sorted(COMMANDS))
    try:
        args = json.loads(args_json)
    except ValueError as error:
        raise ApiError("bad_args", f"{cmd}: arguments are not valid JSON: {error}", cmd=cmd) from None
    if not isinstance(args, dict):
        raise ApiError("bad_args", f"{cmd}: arguments must be a JSON object", cmd=cmd)
    problem = _argument_problem(function, args)
    if problem:
        raise ApiError("bad_args", f"{cmd}: {problem}", cmd=cmd) from None
    return function(**args)


def _argument_problem(function: Callable[..., Any], args: dict[str, Any]) -> str | None:
    """Why ``function(**args)`` would not bind, or None.  (What ``inspect.signature().bind`` says, without
    importing ``inspect``, the heaviest module of the engine's first start in the browser.)  Commands take
    keyword arguments: no positional-only parameter.

    >>> def f(a, b=1, *, c, d=2): ...
    >>> _argument_problem(f, {"a": 0, "c": 0}), _argument_problem(f, {"c": 0}), _argument_problem(f, {"a": 0, "c": 0, "e": 0})
    (None, "missing a required argument: 'a'", "got an unexpected keyword argument 'e'")
    """
    code = function.__code__
    positional = code.co_varnames[code.co_posonlyargcount:code.co_argcount]
    keyword_only = code.co_varnames[code.co_argcount:code.co_argcount + code.co_kwonlyargcount]
    with_default = set(positional[len(positional) - len(function.__defaults__ or ()):]) | set(function.__kwdefaults__ or ())
    for name in (*positional, *keyword_only):
        if name not in args and name not in with_default:
            return f"missing a required argument: {name!r}"
    if not code.co_flags & 0x08:  # CO_VARKEYWORDS: a **kwargs takes any name
        for name in args:
            if name not in positional and name not in keyword_only:
                return f"got an unexpected keyword argument {name!r}"
    return None


def handle(cmd: str, args_json: str) -> str:
    """Run command ``cmd`` with the JSON object ``args_json`` and return the JSON answer.

    Refusals and bugs are answered as ``{"error": ...}``, not raised.
    """
    try:
        return _dumps({"result": _call(cmd, args_json)})
    except ApiError as error:
        return _dumps({"error": error.as_json()})
    except CoincheError as error:  # the engine's refusals: a stable key and its params
        return _dumps({"error": {"code": error.key, "params": error.to_json()["params"], "message": str(error)}})
    except Exception as error:  # a bug: report it as data, the worker must keep answering
        if isinstance(error, ModuleNotFoundError) and (error.name or "").startswith("coinche."):
            return _dumps({"error": {"code": "engine_module_missing", "message": f"{cmd}: no module {error.name}",
                                     "params": {"cmd": cmd, "module": error.name}}})
        import traceback

        return _dumps({
            "error": {
                "code": "internal_error",
                "message": f"{cmd}: {type(error).__name__}: {error}",
                "params": {"cmd": cmd, "traceback": traceback.format_exc()},
            }
        })


def _dumps(answer: dict[str, Any]) -> str:
    return json.dumps(answer, separators=(",", ":"), allow_nan=False)


# The game's and the judge's commands (coinche.webcommands), registered last: they import the engine.
from . import webcommands  # noqa: E402

COMMANDS.update(webcommands.COMMANDS)

