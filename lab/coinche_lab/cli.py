"""The lab's commands of the ``coinche`` command line: ``arena``, ``bidding``, ``par-levels`` and
``puzzle-gen``.

The engine's command line (:mod:`coinche.cli`) knows nothing of the lab: it calls every function
registered under the entry-point group ``coinche.commands`` (``pyproject.toml``) with its
sub-parsers, and :func:`register` is the lab's.  So imports go one way, the lab to the engine.

>>> import argparse
>>> parser = argparse.ArgumentParser(prog="coinche")
>>> register(parser.add_subparsers(dest="command"))
>>> parser.parse_args(["bidding", "auction-v2", "auction-v1", "--deals", "4"]).deals
4
"""

from __future__ import annotations

from .arena import add_arena_parser
from .bidding_arena import add_bidding_parser
from .par_levels import add_par_levels_parser
from .puzzles import add_puzzle_gen_parser


def register(subparsers) -> None:
    """Add ``coinche arena``, ``coinche bidding``, ``coinche par-levels`` and ``coinche puzzle-gen`` to the
    command line's sub-parsers."""
    add_arena_parser(subparsers)
    add_bidding_parser(subparsers)
    add_par_levels_parser(subparsers)
    add_puzzle_gen_parser(subparsers)
