"""The engine's exceptions.  Each carries a stable message ``key`` and its ``params``,
so a page can say what went wrong in the reader's language."""

from __future__ import annotations

from typing import Any

ENGLISH = {
    "unknown_card": "unknown card '{text}'",
    "unknown_suit": "unknown suit '{text}' (use s, h, d or c)",
    "unknown_trump": "unknown trump '{text}' (use s, h, d, c, sa or ta)",
    "unknown_call": "unknown call '{text}'",
    "duplicate_card": "card {card} appears twice",
    "too_many_cards": "too many cards: {count} (at most {limit})",
    "too_few_cards": "too few cards: {count} (at least {limit})",
    "missing_field": "missing field '{field}'",
    "unknown_field": "unknown field '{field}'",
    "malformed_position": "malformed position: {text}",
    "position_too_long": "position too long: {length} characters (at most {limit})",
    "malformed_record": "malformed record: {detail}",
    "out_of_turn": "it is seat {expected}'s turn, not seat {seat}'s",
    "illegal_call": "{call} is not a legal call now",
    "illegal_card": "{card} may not be played: {reason}",
    "card_not_in_hand": "{card} is not in the hand of seat {seat}",
    "wrong_phase": "no {what} now: the deal is in its {phase} phase",
    "deal_over": "the deal is over",
    "match_over": "the match is over",
    "bad_option": "invalid option {name}={value}",
    "no_match": "no match is in progress",
    "save_corrupt": "the saved game is corrupt: {detail}",
    "save_old": "the saved game comes from another release ({detail})",
    "unknown_rule_option": "unknown rule option '{name}' (coinche rules lists them)",
    "bad_rule_value": "unknown value {value} for the rule option {name} (one of: {allowed})",
    "whatif_malformed": "malformed what-if line: {detail}",
    "whatif_bad_move": "'{move}' is not a {what}",
    "whatif_no_decision": "the branch has no decision {ply} (its last is {last})",
    "unknown_announcement": "unknown announcement '{text}'",
    "announce_not_played": "this table plays no announcements",
    "announce_wrong_time": "seat {seat} may announce only with their first card of the first trick",
    "announcement_not_held": "seat {seat} does not hold the announcement {announcement}",
    "contract_not_played": "this table plays no {kind} contracts (house rule contracts=all)",
    "par_no_seats": "the record does not say who sat in each seat (give the bots)",
    "par_bad_seat": "the seat must be 0, 1, 2 or 3, not {seat}",
    "par_bad_index": "the replay number must be from 0 to {last}, not {index}",
    "par_bad_k": "the number of replays must be 1 to {limit}, not {k}",
    "par_bad_bots": "the bots must be one level or four, each one of {levels}: '{bots}'",
    "par_bad_action": "action {number} of the replay ('{action}') is not one it can make",
    "par_bad_scores": "the replays' scores must be 1 to {limit} whole numbers",
    "daily_bad_date": "'{date}' is not a date from {first} to {last} (YYYY-MM-DD)",
    "bad_records": "the records must be a list of at most {limit}",
    "puzzle_corrupt": "unreadable puzzle: {detail}",
    "puzzle_too_long": "puzzle too long: {length} characters (at most {limit})",
    "puzzle_malformed": "the puzzle's {field} does not read: {text}",
    "puzzle_unknown_theme": "unknown puzzle theme '{theme}'",
    "puzzle_turn": "seat {to} is not the one to play: seat {expected} is",
    "puzzle_hand_count": "seat {seat} holds {count} cards, not {expected}",
    "puzzle_tricks": "impossible tricks won: {tricks}",
    "puzzle_points": "impossible points won: {points} (the cards gone hold {expected})",
    "puzzle_not_legal": "{card} may not be played by seat {seat}",
    "puzzle_belote": "the belote is not side {side}'s",
    "puzzle_not_best": "the solution {cards} is not the best cards: {best_cards}",
    "puzzle_margin": "the other cards lose {found} points, not at least {margin}",
    "puzzle_line_not_best": "move {move} of the line, {card}, is not a best card",
    "puzzle_line_not_forced": "move {move} of the line, {card}, is not forced",
    "puzzle_duplicate_id": "the puzzle id {id} is given twice",
    "puzzle_not_a_mistake": "decision {index} is no card the review marked a mistake or a blunder",
}


#: At most this many characters of bad input are echoed back in an error (see :func:`excerpt`).
EXCERPT = 24


def excerpt(text: str, limit: int = EXCERPT) -> str:
    """``text`` as an error quotes it: whole when short, else its start and "…", cut after the last
    separator (``,`` or ``&``) that fits, so that no card is cut in half.

    >>> excerpt("Jh,Kd")
    'Jh,Kd'
    >>> excerpt("Jh," * 10_000)
    'Jh,Jh,Jh,Jh,Jh,Jh,Jh,…'
    >>> excerpt("x" * 100_000)
    'xxxxxxxxxxxxxxxxxxxxxxx…'
    """
    if len(text) <= limit:
        return text
    head = text[:limit - 1]
    cut = max(head.rfind(","), head.rfind("&"))
    return (head[:cut + 1] if cut > 0 else head) + "…"


class CoincheError(Exception):
    """Base class: ``key`` names the problem, ``params`` fill its message."""

    def __init__(self, key: str, **params: Any) -> None:
        self.key = key
        self.params = params
        super().__init__(self.english())

    def english(self) -> str:
        template = ENGLISH.get(self.key, self.key)
        try:
            return template.format(**self.params)
        except (KeyError, IndexError):
            return f"{self.key} {self.params}"

    def to_json(self) -> dict[str, Any]:
        return {"key": self.key, "params": {k: _jsonable(v) for k, v in self.params.items()}, "message": str(self)}


def _jsonable(value: Any) -> Any:
    """Plain JSON values; cards and suits (int subclasses) become their notation."""
    if value is None or type(value) in (str, int, float, bool):
        return value
    if isinstance(value, dict):
        return {k: _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    return str(value)


class NotationError(CoincheError, ValueError):
    """Text that does not parse: a card, a suit, a call, a position or a record."""


class InvalidPositionError(CoincheError, ValueError):
    """A position that parses but cannot exist (a card twice, too many cards)."""


class IllegalActionError(CoincheError):
    """An action that the rules forbid now."""


class OutOfTurnError(IllegalActionError):
    """An action by a seat whose turn it is not."""
