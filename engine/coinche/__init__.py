"""Belote coinchée and classic belote: the rules engine.

Pure Python, standard library only; runs unchanged in CPython and in Pyodide.

>>> from coinche import Deal, Card, Position
>>> Position.parse("trump=h&trick=As,9s,9h&hand=7h,8h,Kd,Ac").ruling().note
'no_undertrump'
"""

__version__ = "0.1.0"

from .calls import BIDS, CAPOT, COINCHE, PASS, SURCOINCHE, TAKES, Call, CallKind
from .cards import CARDS, Card, Rank, Suit, cards_of, format_cards, mask_of, parse_cards
from .deal import Deal, Phase
from .errors import CoincheError, IllegalActionError, InvalidPositionError, NotationError, OutOfTurnError
from .match import Match, Rules, match_winner
from .play import Forbidden, Ruling, legal_mask, rule_position, trick_winner
from .position import Position
from .record import RecordError, deal_to_record, replay
from .scoring import Contract, DealScore, score_classic, score_coinche
from .view import SeatView

__all__ = [
    "BIDS", "CAPOT", "COINCHE", "PASS", "SURCOINCHE", "TAKES", "Call", "CallKind",
    "CARDS", "Card", "Rank", "Suit", "cards_of", "format_cards", "mask_of", "parse_cards",
    "Deal", "Phase", "CoincheError", "IllegalActionError", "InvalidPositionError", "NotationError",
    "OutOfTurnError", "Match", "Rules", "match_winner", "Forbidden", "Ruling", "legal_mask",
    "rule_position", "trick_winner", "Position", "RecordError", "deal_to_record", "replay",
    "Contract", "DealScore", "score_classic", "score_coinche", "SeatView",
]
