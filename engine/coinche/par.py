"""The par of a deal: what the Expert scores from a seat, holding the same cards against the same bots.

The Expert replays ``seat`` of a finished deal from its start (the same deck, dealer and rules), the
other three seats played by the bots that sat there (the record's ``seats``), :data:`PAR_DEALS` times
with fresh seeds; the **par** is the mean score of the seat's side over those replays, and the deal's
**duplicate difference** is the side's own score minus the par.

- The score of a side for a deal (:func:`side_score`) is its points minus the opponents' in the result's
  ``scores`` (what the side gained on the opponents with this deal): a declarer's side that fails its
  contract scores negative, and a void deal scores 0.
- The replays' bots (:func:`par_bots`): ``seat`` is the Expert; each other seat the bot of its level in
  the record; a ``"person"`` in another seat (a friends' table) is replaced by the Expert too.
- The seeds (:func:`replay_seed`) come from the deal's deck, dealer, rules and bots and the seat alone,
  never from its calls and cards: the par of a deal is the same whatever was played in it, and the same
  in CPython and in the browser.
- Every bot decides on its own seat's view (``deal.view(seat)``), as at the table: no bot sees a card it
  could not see there.

The page computes a par one action at a time (:func:`par_next`, stateless) on its review helper, so that
the table's bots are never slowed; :func:`par` does it in one call (the command line, ``coinche par``).
Since the replays depend on the deal as dealt alone, the page starts them while the deal is played, from
:func:`coinche.record.dealt_record` (the same replays, the same par: it is shown only once the deal is over).

>>> from coinche.deal import Deal
>>> from coinche.record import deal_to_record
>>> deal = Deal.new("coinche", dealer=3, seed=41)
>>> for call in ("pass",) * 4: deal.apply(call)
>>> record = {**deal_to_record(deal), "seats": ["person", "easy", "easy", "easy"]}
>>> par_bots(record, 0)
('expert', 'easy', 'easy', 'easy')
>>> p = par(record, 0, k=2)
>>> p.k, len(p.scores), p.result, p.difference == p.result - p.mean
(2, 2, 0, True)
>>> sorted(p.to_json())
['bots', 'difference', 'k', 'par', 'result', 'scores', 'seat', 'stderr']
>>> par(record, 0, k=2) == p
True
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Sequence

from .bots import bot_turn, make_bot
from .cards import format_cards
from .deal import Deal
from .errors import CoincheError
from .record import LEVELS, PERSON, dealt, malformed, record_seats
from .rng import derive_seed

#: K, the number of replays a par takes (docs/bots.md, "The par of a deal", says why this many).
PAR_DEALS = 10
#: The level that plays the seat whose par is taken (and a person's seat beside it).
PAR_LEVEL = "expert"
#: At most this many replays (a page or a command line asking for more is refused).
MAX_PAR_DEALS = 1000

Bots = tuple[str, str, str, str]


class ParError(CoincheError, ValueError):
    """A par that cannot be computed: ``par_no_seats`` (the record does not say who sat where),
    ``par_bad_seat``, ``par_bad_index``, ``par_bad_k``, ``par_bad_bots``, ``par_bad_action``, ``par_bad_scores``."""


def side_score(scores: Sequence[int], seat: int) -> int:
    """The score of ``seat``'s side for a deal: its points minus the opponents' (negative for a loss).

    >>> side_score([0, 162], 0), side_score([0, 162], 3), side_score([0, 0], 2)
    (-162, 162, 0)
    """
    side = seat & 1
    return scores[side] - scores[1 - side]


def _seat(seat: Any) -> int:
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat <= 3:
        raise ParError("par_bad_seat", seat=str(seat)[:8])
    return seat


def _index(index: Any) -> int:
    if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < MAX_PAR_DEALS:
        raise ParError("par_bad_index", index=str(index)[:8], last=MAX_PAR_DEALS - 1)
    return index


def parse_bots(text: Any) -> Bots:
    """The bots of a command line's ``--bots``: one level for all four seats, or four separated by commas.

    >>> parse_bots("normal"), parse_bots("easy,normal,expert,normal")
    (('normal', 'normal', 'normal', 'normal'), ('easy', 'normal', 'expert', 'normal'))
    >>> parse_bots("easy,hard")
    Traceback (most recent call last):
    ...
    coinche.par.ParError: the bots must be one level or four, each one of easy, normal, expert: 'easy,hard'
    """
    levels = text.split(",") if isinstance(text, str) else text
    if isinstance(levels, (list, tuple)) and len(levels) == 1:
        levels = list(levels) * 4
    if not isinstance(levels, (list, tuple)) or len(levels) != 4 or not all(level in LEVELS for level in levels):
        raise ParError("par_bad_bots", bots=str(text)[:40], levels=", ".join(LEVELS))
    return tuple(levels)


def par_bots(record: dict[str, Any], seat: int, bots: Any = None) -> Bots:
    """The bots of the replays of ``seat``: the Expert there, in each other seat the record's bot (``bots``,
    one level or four, in place of the record's ``seats`` when given); a person in another seat is the Expert
    too.  A record that does not say who sat where, with no ``bots``, raises ``par_no_seats``.

    >>> par_bots({"seats": ["normal", "person", "easy", "normal"]}, 0)
    ('expert', 'expert', 'easy', 'normal')
    >>> par_bots({}, 2, bots="normal")
    ('normal', 'normal', 'expert', 'normal')
    >>> par_bots({}, 2)
    Traceback (most recent call last):
    ...
    coinche.par.ParError: the record does not say who sat in each seat (give the bots)
    """
    seat = _seat(seat)
    if not isinstance(record, dict):
        raise malformed("not_object")
    seats = parse_bots(bots) if bots is not None else record_seats(record)
    if seats is None:
        raise ParError("par_no_seats")
    return tuple(PAR_LEVEL if s == seat or who == PERSON else who for s, who in enumerate(seats))


def replay_seed(record: dict[str, Any], seat: int, index: int, bots: Any = None) -> int:
    """The seed of replay ``index`` of ``seat``'s par: from the record's deck, dealer, rules, the replays'
    bots and the seat, never from what was called or played.  Bot ``s`` of the replay is seeded with
    ``derive_seed(replay_seed(...), s)``: fresh for each replay and each seat.

    >>> from coinche.deal import Deal
    >>> from coinche.record import deal_to_record
    >>> deal = Deal.new("coinche", dealer=0, seed=1)
    >>> record = {**deal_to_record(deal), "seats": ["person", "normal", "normal", "normal"]}
    >>> replay_seed(record, 0, 0) == replay_seed({**record, "calls": ["pass"]}, 0, 0)
    True
    >>> len({replay_seed(record, 0, 0), replay_seed(record, 0, 1), replay_seed(record, 1, 0)})
    3
    """
    deal = dealt(record)
    return _replay_seed(deal, _seat(seat), _index(index), par_bots(record, seat, bots))


def _replay_seed(deal: Deal, seat: int, index: int, bots: Bots) -> int:
    text = f"par/{deal.rules}/{deal.dealer}/{format_cards(deal.deck)}/{','.join(bots)}/{seat}"
    return derive_seed(text, index)


def _players(deal: Deal, seat: int, index: int, bots: Bots) -> list:
    base = _replay_seed(deal, seat, index, bots)
    return [make_bot(level, seed=derive_seed(base, s)) for s, level in enumerate(bots)]


def _next_action(deal: Deal, players: list) -> str | None:
    """The next action of the replay, in the notation a session's actions use."""
    if deal.is_over:
        return None
    bot = players[deal.turn]
    if deal.may_declare:
        from .announce import format_announcements
        from .deal import ANNOUNCE

        return ANNOUNCE + format_announcements(bot.announce(deal.view(deal.turn)))
    return str(bot.act(deal.view(deal.turn)))


def par_next(record: dict[str, Any], seat: int, index: int, actions: Sequence[str], bots: Any = None) -> str | None:
    """The next action of replay ``index`` of ``seat``'s par (a call, an ``announce:…`` declaration at a table
    that plays them, or a card), given the replay's ``actions`` so far; ``None`` once the replay is over.
    Stateless: each call replays ``actions`` from the deal's start (an action the replay would not have
    made raises ``par_bad_action``).

    >>> from coinche.deal import Deal
    >>> from coinche.record import deal_to_record
    >>> record = {**deal_to_record(Deal.new("coinche", dealer=3, seed=5)), "seats": ["person", "easy", "easy", "easy"]}
    >>> actions = []
    >>> while (action := par_next(record, 0, 0, actions)) is not None:
    ...     actions.append(action)
    >>> len(actions) >= 4, par_replay(record, 0, 0) == replay_score(record, 0, actions)
    (True, True)
    """
    deal = dealt(record)
    seat, index = _seat(seat), _index(index)
    bots = par_bots(record, seat, bots)
    _follow(deal, actions)
    return _next_action(deal, _players(deal, seat, index, bots))


def par_step(record: dict[str, Any], seat: int, index: int, actions: Sequence[str], bots: Any = None) -> dict:
    """:func:`par_next` as the page asks for it: ``{"action": "Jh"}``, or ``{"done": true, "score": N}`` (the
    side's score of the replay) once ``actions`` end it."""
    deal = dealt(record)
    seat, index = _seat(seat), _index(index)
    bots = par_bots(record, seat, bots)
    _follow(deal, actions)
    if deal.is_over:
        return {"done": True, "score": side_score(deal.scores, seat)}
    return {"action": _next_action(deal, _players(deal, seat, index, bots))}


def _follow(deal: Deal, actions: Any) -> None:
    if not isinstance(actions, (list, tuple)):
        raise ParError("par_bad_action", number=0, action="")
    for number, action in enumerate(actions, 1):
        try:
            if not isinstance(action, str):
                raise ParError("par_bad_action", number=number, action=repr(action)[:24])
            deal.apply(action)
        except CoincheError as e:
            if isinstance(e, ParError):
                raise
            raise ParError("par_bad_action", number=number, action=action[:24]) from None


def replay_score(record: dict[str, Any], seat: int, actions: Sequence[str]) -> int:
    """The score of ``seat``'s side once ``actions`` (a whole replay) are played from the record's deal."""
    deal = dealt(record)
    _follow(deal, actions)
    if not deal.is_over:
        raise ParError("par_bad_action", number=len(actions), action="…")
    return side_score(deal.scores, _seat(seat))


def par_replay(record: dict[str, Any], seat: int, index: int, bots: Any = None) -> int:
    """The score of ``seat``'s side in replay ``index`` of its par (what stepping :func:`par_next` gives)."""
    deal = dealt(record)
    seat, index = _seat(seat), _index(index)
    return _play_out(deal, seat, index, par_bots(record, seat, bots))


def _play_out(deal: Deal, seat: int, index: int, bots: Bots) -> int:
    players = _players(deal, seat, index, bots)
    while not deal.is_over:
        bot_turn(deal, players[deal.turn])
    return side_score(deal.scores, seat)


@dataclass(frozen=True)
class Par:
    """A deal's par from ``seat``: the replays' ``scores``, their ``mean`` (the par) and its standard
    error (``None`` from fewer than two replays), the record's own ``result`` and the ``difference``
    (``result - mean``)."""

    seat: int
    bots: Bots
    scores: tuple[int, ...]
    result: int

    @property
    def k(self) -> int:
        return len(self.scores)

    @property
    def mean(self) -> float:
        return sum(self.scores) / len(self.scores)

    @property
    def stderr(self) -> float | None:
        k = len(self.scores)
        if k < 2:
            return None
        mean = self.mean
        return math.sqrt(sum((s - mean) ** 2 for s in self.scores) / (k - 1) / k)

    @property
    def difference(self) -> float:
        return self.result - self.mean

    def to_json(self) -> dict[str, Any]:
        """``par``, ``result``, ``difference``, ``k``, ``stderr`` (par, difference and standard error rounded
        to 0.1 point), with the ``seat``, its replays' ``bots`` and their ``scores``."""
        stderr = self.stderr
        return {"par": round(self.mean, 1), "result": self.result, "difference": round(self.difference, 1),
                "k": self.k, "stderr": None if stderr is None else round(stderr, 1),
                "seat": self.seat, "bots": list(self.bots), "scores": list(self.scores)}


def _k(k: Any) -> int:
    if not isinstance(k, int) or isinstance(k, bool) or not 1 <= k <= MAX_PAR_DEALS:
        raise ParError("par_bad_k", k=str(k)[:8], limit=MAX_PAR_DEALS)
    return k


def record_score(record: dict[str, Any], seat: int) -> int:
    """The record's own score for ``seat``'s side, once the record is checked (its result is the rules')."""
    from .record import check

    return side_score(check(record).scores, _seat(seat))


def summary(record: dict[str, Any], seat: int, scores: Any, bots: Any = None) -> Par:
    """The :class:`Par` of replays already played (``scores``, one per replay, in order)."""
    seat = _seat(seat)
    if (not isinstance(scores, (list, tuple)) or not 1 <= len(scores) <= MAX_PAR_DEALS
            or not all(isinstance(s, int) and not isinstance(s, bool) for s in scores)):
        raise ParError("par_bad_scores", limit=MAX_PAR_DEALS)
    bots = par_bots(record, seat, bots)
    return Par(seat, bots, tuple(scores), record_score(record, seat))


def par(record: dict[str, Any], seat: int, k: int = PAR_DEALS, jobs: int = 1, bots: Any = None) -> Par:
    """The par of ``seat`` in the finished deal ``record`` over ``k`` replays, spread over ``jobs`` processes
    (CPython only; the scores, and so the par, do not depend on it)."""
    seat, k = _seat(seat), _k(k)
    result = record_score(record, seat)
    bots = par_bots(record, seat, bots)
    deal = dealt(record)
    if jobs > 1 and k > 1:
        from concurrent.futures import ProcessPoolExecutor

        with ProcessPoolExecutor(max_workers=min(jobs, k)) as pool:
            scores = list(pool.map(replay_job, [(deal, seat, i, bots) for i in range(k)]))
    else:
        scores = [replay_job((deal, seat, i, bots)) for i in range(k)]
    return Par(seat, bots, tuple(scores), result)


def replay_job(job: tuple[Deal, int, int, Bots]) -> int:
    """The side's score of one replay ``(deal as dealt, seat, index, bots)``: a job for a process pool."""
    return _play_out(job[0].clone(), *job[1:])


__all__ = ["MAX_PAR_DEALS", "PAR_DEALS", "PAR_LEVEL", "Par", "ParError", "par", "par_bots", "par_next",
           "par_replay", "par_step", "parse_bots", "record_score", "replay_job", "replay_score", "replay_seed", "side_score", "summary"]
