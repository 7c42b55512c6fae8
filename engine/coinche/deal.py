"""One deal as a state machine: the auction (or the classic taking), then eight tricks.

The uniform API: :attr:`Deal.phase`, :attr:`Deal.current_player`, :meth:`Deal.legal_actions`,
:meth:`Deal.apply` (checked, raising precise exceptions) and the unchecked fast paths
:meth:`Deal.call` / :meth:`Deal.play` for inner loops; :meth:`Deal.view` gives what one seat may see.

>>> deal = Deal.new("coinche", dealer=3, seed=1)
>>> deal.current_player, deal.phase.name
(0, 'AUCTION')
>>> deal.apply(Call.parse("80h")); deal.apply(PASS); deal.apply(PASS); deal.apply(PASS)
>>> deal.phase.name, str(deal.contract)
('PLAY', '80h by 0')
>>> while not deal.is_over:
...     deal.play(deal.legal_cards()[0])
>>> sum(deal.score.cards)
162
"""

from __future__ import annotations

from enum import IntEnum
from typing import Iterable, Sequence

from .announce import Announcement, held, parse_announcements, side_points
from .calls import CAPOT, COINCHE, PASS, SURCOINCHE, TAKES, Call, CallKind, bids_of
from .cards import POINTS, TRUMP_LETTERS, Card, Rank, card_name, cards_of
from .errors import IllegalActionError, OutOfTurnError
from .play import Ruling, legal_mask, rule_position, trick_winner
from .rng import shuffled_deck
from .rules import VARIANTS, Rules
from .scoring import Contract, DealScore, score

_OWN_RULES = {variant: Rules(variant) for variant in VARIANTS}
#: The prefix of a declaration of announcements written as an action: ``announce:Jh-Ah,4J`` (or none, ``announce:``).
ANNOUNCE = "announce:"


class Phase(IntEnum):
    AUCTION = 0
    PLAY = 1
    OVER = 2


class Deal:
    """The state of one deal.  Seats are 0..3; sides are ``seat & 1`` (0 and 2 against 1 and 3)."""

    __slots__ = (
        "rules", "variant", "bids", "dealer", "deck", "hands", "dealt", "phase", "turn", "calls",
        "high_bid", "high_seat", "passes", "coinche_seat", "multiplier", "turned", "round",
        "contract", "trump", "leader", "trick", "tricks", "plays", "cards_won", "tricks_won",
        "belote_seat", "belote_played", "announcements", "declared", "spoken", "score", "void",
    )

    def __init__(self, rules: Rules | str, dealer: int, deck: Sequence[int]) -> None:
        """``rules``: the table's :class:`~coinche.rules.Rules`, or a variant's name for its own rules."""
        if isinstance(rules, str):
            if rules not in VARIANTS:
                raise ValueError(f"unknown variant {rules!r}")
            rules = _OWN_RULES[rules]
        if sorted(deck) != list(range(32)):
            raise ValueError("a deck holds each of the 32 cards once")
        self.rules = rules
        self.variant = rules.variant
        self.bids = bids_of(rules.bid_values, rules.bid_kinds)
        self.dealer = dealer
        self.deck = tuple(int(c) for c in deck)
        self.hands = [0, 0, 0, 0]
        self.dealt: list[int] | None = None
        self.phase = Phase.AUCTION
        self.turn = (dealer + 1) & 3
        self.calls: list[tuple[int, Call]] = []
        self.high_bid: Call | None = None
        self.high_seat = -1
        self.passes = 0
        self.coinche_seat = -1
        self.multiplier = 1
        self.turned = -1
        self.round = 1
        self.contract: Contract | None = None
        self.trump = -1
        self.leader = self.turn
        self.trick: list[int] = []
        self.tricks: list[tuple[int, tuple[int, ...], int]] = []
        self.plays: list[int] = []
        self.cards_won = [0, 0]
        self.tricks_won = [0, 0]
        self.belote_seat = -1
        self.belote_played = 0
        self.announcements: list[tuple[int, str, int]] = []
        #: the announcements declared (house rule ``announce=yes``), as ``(seat, announcement)`` in order
        self.declared: list[tuple[int, Announcement]] = []
        #: the seats that have declared (nothing, perhaps), as a bitmask
        self.spoken = 0
        self.score: DealScore | None = None
        self.void = False
        self._deal_packets(rules.kind.packets, 0)
        if rules.kind.turned_card:
            self.turned = self.deck[20]
        else:
            self.dealt = list(self.hands)

    @classmethod
    def new(cls, rules: Rules | str = "coinche", dealer: int = 0, seed: int | str = 0) -> "Deal":
        """A deal shuffled from ``seed``: the same seed gives the same cards everywhere."""
        return cls(rules, dealer, shuffled_deck(seed))

    def _deal_packets(self, packets: Iterable[int], pos: int) -> int:
        deck, hands, first = self.deck, self.hands, self.dealer + 1
        for size in packets:
            for i in range(4):
                seat = (first + i) & 3
                for c in deck[pos:pos + size]:
                    hands[seat] |= 1 << c
                pos += size
        return pos

    # ----------------------------------------------------------------- state
    @property
    def current_player(self) -> int:
        """The seat to act, or -1 once the deal is over."""
        return -1 if self.phase == Phase.OVER else self.turn

    @property
    def is_over(self) -> bool:
        return self.phase == Phase.OVER

    def legal_actions(self) -> list:
        if self.phase == Phase.AUCTION:
            return self.legal_calls()
        if self.phase == Phase.PLAY:
            return self.legal_cards()
        return []

    def legal_calls(self) -> list[Call]:
        if self.phase != Phase.AUCTION:
            return []
        if self.rules.kind.turned_card:
            turned_suit = self.turned >> 3
            if self.round == 1:
                return [PASS, TAKES[turned_suit]]
            return [PASS] + [TAKES[s] for s in range(4) if s != turned_suit]
        if self.coinche_seat >= 0:
            return [PASS, SURCOINCHE]
        calls = [PASS]
        if self.high_bid is None:
            calls.extend(self.bids)
        else:
            calls.extend(b for b in self.bids if b.value > self.high_bid.value)
            if (self.turn & 1) != (self.high_seat & 1):
                calls.append(COINCHE)
        return calls

    def legal_mask(self) -> int:
        """Bitmask of the cards the player to move may play (0 outside the play)."""
        if self.phase != Phase.PLAY:
            return 0
        return legal_mask(self.hands[self.turn], self.trick, self.trump, self.rules.undertrump)

    def legal_cards(self) -> list[Card]:
        return cards_of(self.legal_mask())

    def ruling(self) -> Ruling:
        """Every card of the player to move, legal or forbidden and why."""
        return rule_position(self.hands[self.turn], self.trick, self.trump, self.rules.undertrump)

    # ----------------------------------------------------------------- checked edge
    def apply(self, action: Call | int | str, seat: int | None = None) -> None:
        """Apply a call or a card, checked: raises :class:`OutOfTurnError` or :class:`IllegalActionError`.

        ``action`` may be a :class:`Call`, a card, or their notation (``"80h"``, ``"Jh"``); or, before a
        player's first card, their announcements as ``"announce:Jh-Ah,4J"`` (:meth:`declare`).
        """
        if isinstance(action, str) and action.startswith(ANNOUNCE):
            self.declare(action[len(ANNOUNCE):], seat)
            return
        if self.phase == Phase.OVER:
            raise IllegalActionError("deal_over")
        if seat is not None and seat != self.turn:
            raise OutOfTurnError("out_of_turn", seat=seat, expected=self.turn)
        if isinstance(action, str):
            action = Call.parse(action) if self.phase == Phase.AUCTION else Card.parse(action)
        if self.phase == Phase.AUCTION:
            if not isinstance(action, Call):
                raise IllegalActionError("wrong_phase", what="card", phase="auction")
            if action not in self.legal_calls():
                if action.is_bid and action.suit not in self.rules.bid_kinds:
                    raise IllegalActionError("contract_not_played", kind=TRUMP_LETTERS[action.suit])
                raise IllegalActionError("illegal_call", call=str(action))
            self.call(action)
            return
        if isinstance(action, Call):
            raise IllegalActionError("wrong_phase", what="call", phase="play")
        if not isinstance(action, int) or isinstance(action, bool):
            raise IllegalActionError("card_not_in_hand", card=repr(action), seat=self.turn)
        card = int(action)
        if not 0 <= card < 32:
            raise IllegalActionError("card_not_in_hand", card=str(card), seat=self.turn)
        if not self.hands[self.turn] >> card & 1:
            raise IllegalActionError("card_not_in_hand", card=card_name(card), seat=self.turn)
        if not self.legal_mask() >> card & 1:
            reason = self.ruling().reason(card)
            raise IllegalActionError(
                "illegal_card", card=card_name(card), reason=reason.key, rule=reason.rule, reason_params=reason.params
            )
        self.play(card)

    @property
    def may_declare(self) -> bool:
        """Whether the player to move may declare announcements now: the table plays them and this is their
        first card of the first trick, not yet declared."""
        return self.rules.announce and self.phase == Phase.PLAY and not self.tricks and not self.spoken >> self.turn & 1

    def declare(self, announcements: Iterable[Announcement] | str, seat: int | None = None) -> None:
        """Declare announcements for the player to move before their first card, checked: each must be one of
        :func:`~coinche.announce.held` by the hand, once.  Declaring none is allowed (and is the default)."""
        if isinstance(announcements, str):
            announcements = parse_announcements(announcements)
        announcements = tuple(announcements)
        if not self.rules.announce:
            raise IllegalActionError("announce_not_played")
        if seat is not None and seat != self.turn and self.phase == Phase.PLAY:
            raise OutOfTurnError("out_of_turn", seat=seat, expected=self.turn)
        seat = self.turn if seat is None else seat
        if not self.may_declare:
            raise IllegalActionError("announce_wrong_time", seat=seat)
        holds = held(self.hands[seat])
        for i, a in enumerate(announcements):
            if a not in holds or a in announcements[:i]:
                raise IllegalActionError("announcement_not_held", seat=seat, announcement=str(a))
        self.announce(announcements)

    # ----------------------------------------------------------------- unchecked fast paths
    def announce(self, announcements: Iterable[Announcement]) -> None:
        """Declare announcements for the player to move without checking them."""
        seat = self.turn
        self.spoken |= 1 << seat
        self.declared.extend((seat, a) for a in announcements)

    def call(self, call: Call) -> None:
        """Apply a call without checking it."""
        seat = self.turn
        self.calls.append((seat, call))
        if self.rules.kind.turned_card:
            self._classic_call(seat, call)
        else:
            self._coinche_call(seat, call)

    def _coinche_call(self, seat: int, call: Call) -> None:
        kind = call.kind
        if kind == CallKind.PASS:
            self.passes += 1
            if self.coinche_seat >= 0:
                if self.passes == 2:
                    self._start_play()
                else:
                    self.turn = (seat + 2) & 3
                return
            if self.high_bid is None and self.passes == 4:
                self._void()
                return
            if self.high_bid is not None and self.passes == 3:
                self._start_play()
                return
        elif kind == CallKind.BID:
            self.high_bid, self.high_seat, self.passes = call, seat, 0
            if call.value == CAPOT and not self.rules.capot_coinche:
                self._start_play()  # nothing can be said over a capot that may not be coinched
                return
        elif kind == CallKind.COINCHE:
            self.coinche_seat, self.multiplier, self.passes = seat, self.rules.multiplier(1), 0
        else:  # surcoinche
            self.multiplier = self.rules.multiplier(2)
            self._start_play()
            return
        self.turn = (seat + 1) & 3

    def _classic_call(self, seat: int, call: Call) -> None:
        if call.kind == CallKind.TAKE:
            self.high_bid, self.high_seat = call, seat
            rest = self.deck[21:]
            pos = 0
            for i in range(4):
                s = (self.dealer + 1 + i) & 3
                size = 2 if s == seat else 3
                for c in rest[pos:pos + size]:
                    self.hands[s] |= 1 << c
                pos += size
            self.hands[seat] |= 1 << self.turned
            self.dealt = list(self.hands)
            self._start_play()
            return
        self.passes += 1
        if self.passes == 4:
            if self.round == 2:
                self._void()
                return
            self.round, self.passes = 2, 0
        self.turn = (seat + 1) & 3

    def _void(self) -> None:
        self.void = True
        self.phase = Phase.OVER

    def _start_play(self) -> None:
        bid = self.high_bid
        value = 0 if self.rules.kind.turned_card else bid.value
        self.contract = Contract(self.variant, self.high_seat, bid.suit, value, self.multiplier)
        trump = self.trump = bid.suit
        if trump < 4:  # no belote without a trump suit, nor in all trumps (docs/rules.md)
            both = (1 << (trump * 8 + Rank.KING)) | (1 << (trump * 8 + Rank.QUEEN))
            for seat in range(4):
                if self.hands[seat] & both == both:
                    self.belote_seat = seat
        self.phase = Phase.PLAY
        self.turn = self.leader = (self.dealer + 1) & 3

    def play(self, card: int) -> None:
        """Play a card for the player to move without checking it."""
        seat = self.turn
        self.hands[seat] &= ~(1 << card)
        trick = self.trick
        trick.append(card)
        self.plays.append(card)
        if seat == self.belote_seat and card >> 3 == self.trump and (card & 7) in (Rank.KING, Rank.QUEEN):
            self.belote_played += 1
            self.announcements.append((seat, "belote" if self.belote_played == 1 else "rebelote", card))
        if len(trick) < 4:
            self.turn = (seat + 1) & 3
            return
        winner = (self.leader + trick_winner(trick, self.trump)) & 3
        points = POINTS[self.trump]
        side = winner & 1
        self.cards_won[side] += points[trick[0]] + points[trick[1]] + points[trick[2]] + points[trick[3]]
        self.tricks_won[side] += 1
        self.tricks.append((self.leader, tuple(trick), winner))
        self.trick = []
        self.turn = self.leader = winner
        if len(self.tricks) == 8:
            self.cards_won[side] += 10
            self._finish()

    def _finish(self) -> None:
        self.phase = Phase.OVER
        belote_side = (self.belote_seat & 1) if self.belote_played else None
        self.score = score(self.rules, self.contract, tuple(self.cards_won), belote_side, tuple(self.tricks_won),
                           self.announced, tuple(self.declared))

    @property
    def announced(self) -> tuple[int, int]:
        """The announcement points each side scores (the side holding the best declared announcement)."""
        return side_points(self.declared, self.trump) if self.declared else (0, 0)

    # ----------------------------------------------------------------- derived
    @property
    def trick_seats(self) -> list[int]:
        return [(self.leader + i) & 3 for i in range(len(self.trick))]

    @property
    def scores(self) -> tuple[int, int]:
        """Points each side adds to the match: zero for a void deal."""
        return (0, 0) if self.score is None else self.score.scores

    def clone(self) -> "Deal":
        other = Deal.__new__(Deal)
        for name in Deal.__slots__:
            value = getattr(self, name)
            if isinstance(value, list):
                value = list(value)
            setattr(other, name, value)
        return other

    def view(self, seat: int):
        from .view import SeatView

        return SeatView.of(self, seat)

    def __repr__(self) -> str:
        return f"<Deal {self.variant} dealer={self.dealer} phase={self.phase.name} turn={self.current_player}>"


__all__ = ["ANNOUNCE", "Deal", "Phase", "VARIANTS"]
