"""A match: deals one after another until a side reaches the target.

>>> m = Match(Rules("classic", 501), seed="demo")
>>> while not m.is_over:
...     m.apply_unchecked(m.legal_actions()[-1])
>>> max(m.totals) >= 501 and m.winner in (0, 1) and len(m.history) == m.deal_index
True
"""

from __future__ import annotations

from .calls import Call
from .deal import Deal, Phase
from .errors import IllegalActionError
from .record import deal_to_record
from .rng import derive_seed
from .rules import TARGETS, Rules


def match_winner(totals: tuple[int, int], target: int, end: str = "reach", tie: str = "again",
                 declarer_side: int | None = None) -> int | None:
    """The side that has won, ``None`` while the match goes on.

    The game's own: reaching the target is enough, the higher total wins, an exact tie plays on.
    ``end="pass"``: a side must pass the target; ``tie="declarer"``: an exact tie over it goes to
    ``declarer_side``, the side that declared the last deal.

    >>> match_winner((510, 480), 501), match_winner((510, 520), 501), match_winner((520, 520), 501)
    (0, 1, None)
    >>> match_winner((501, 480), 501), match_winner((501, 480), 501, end="pass")
    (0, None)
    >>> match_winner((520, 520), 501, tie="declarer", declarer_side=1)
    1
    """
    a, b = totals
    if end == "pass":
        a_over, b_over = a > target, b > target
    else:
        a_over, b_over = a >= target, b >= target
    if not a_over and not b_over:
        return None
    if a == b:
        return declarer_side if tie == "declarer" else None
    return 0 if a > b else 1


class Match:
    """Deals in sequence, dealer rotating, each shuffled from a seed derived from the match seed."""

    def __init__(self, rules: Rules = Rules(), seed: int | str = 0, first_dealer: int = 0,
                 first_deal_seed: int | None = None) -> None:
        """``first_deal_seed``, if given, shuffles deal 0 instead of the match seed (a shared deal played
        again); the deals after it come from ``seed`` as usual."""
        self.rules = rules
        self.seed = seed
        self.first_dealer = first_dealer
        self.first_deal_seed = first_deal_seed
        self.totals = [0, 0]
        self.history: list[dict] = []
        self.deal_index = 0
        self.winner: int | None = None
        self.last_deal: Deal | None = None
        self.deal = self._new_deal()

    def deal_seed(self, index: int) -> int:
        """The seed that shuffles deal ``index``: with its dealer, all it takes to deal the same cards."""
        if index == 0 and self.first_deal_seed is not None:
            return self.first_deal_seed
        return derive_seed(self.seed, index)

    def _new_deal(self) -> Deal:
        dealer = (self.first_dealer + self.deal_index) & 3
        return Deal.new(self.rules, dealer, self.deal_seed(self.deal_index))

    @property
    def is_over(self) -> bool:
        return self.winner is not None

    @property
    def current_player(self) -> int:
        return -1 if self.is_over else self.deal.current_player

    def legal_actions(self) -> list:
        return [] if self.is_over else self.deal.legal_actions()

    def apply(self, action, seat: int | None = None) -> None:
        """Checked: raises for an out-of-turn or illegal action, or once the match is over."""
        if self.is_over:
            raise IllegalActionError("match_over")
        self.deal.apply(action, seat)
        self._after_action()

    def apply_unchecked(self, action) -> None:
        if isinstance(action, Call):
            self.deal.call(action)
        else:
            self.deal.play(action)
        self._after_action()

    def _after_action(self) -> None:
        deal = self.deal
        if deal.phase != Phase.OVER:
            return
        self.history.append(deal_to_record(deal))
        a, b = deal.scores
        self.totals[0] += a
        self.totals[1] += b
        rules = self.rules
        declarer_side = None if deal.contract is None else deal.contract.side
        self.winner = match_winner((self.totals[0], self.totals[1]), rules.target, rules.end, rules.tie, declarer_side)
        self.last_deal = deal
        self.deal_index += 1
        if self.winner is None:
            self.deal = self._new_deal()

    def view(self, seat: int) -> dict:
        """The seat's view of the current deal with the match around it, as JSON."""
        return {
            "variant": self.rules.variant,
            "target": self.rules.target,
            "rules": str(self.rules),
            "house_rules": self.rules.changes(),
            "bid_values": ["capot" if v == 250 else str(v) for v in self.rules.bid_values],
            "totals": list(self.totals),
            "deal_index": self.deal_index,
            "winner": self.winner,
            "deal": self.deal.view(seat).to_json(),
        }
