"""What a bot of each level may remember of a deal: :func:`remember` turns a seat's view into
:class:`Knowledge`, and the bots decide from ``Knowledge`` alone.

The three levels share one way of deciding; they differ only here, in what they keep:

In the auction every level knows the auction so far (it is on the table, as the trick is in the
play) and bids from it the same way.  In the play:

- ``easy``: its own hand, the contract,
  the turned card of the classic deal, and the trick on the table.  Earlier tricks are forgotten:
  it does not know which cards are gone nor who won what.
- ``normal``: also every card already played, as a set (which cards are gone, not who played them
  nor who won them).
- ``expert``: everything a player at the table can know: who played what, hence the voids revealed
  by not following, not trumping or not going over; the points and tricks each side has won; the
  auction, and what each bid implies; the belote announcements (and that a seat which played
  the king or queen of trump without announcing does not hold the other); the classic taker holding
  the turned card.

>>> from coinche.deal import Deal
>>> deal = Deal.new("coinche", dealer=3, seed=4)
>>> for call in ("90h", "pass", "pass", "pass"): deal.apply(call)
>>> for _ in range(5): deal.play(deal.legal_cards()[0])
>>> easy, expert = remember(deal.view(2), "easy"), remember(deal.view(2), "expert")
>>> easy.gone is None and easy.won is None, expert.gone.bit_count(), len(expert.trick)
(True, 4, 1)
"""

from __future__ import annotations

from dataclasses import dataclass

from ..calls import Call, CallKind
from ..cards import ALL_TRUMPS, HIGHER_TRUMPS, SUIT_MASK, Rank, mask_of
from ..play import trick_winner
from ..rules import OWN, Rules
from ..scoring import Contract
from ..view import SeatView

LEVELS = ("easy", "normal", "expert")


@dataclass(frozen=True, slots=True)
class Knowledge:
    """The inputs of every decision.  Card sets are bitmasks; seats are absolute (0..3).

    ``gone`` is ``None`` when the level does not remember the cards played in earlier tricks;
    ``won`` and ``tricks_won`` are ``None`` when it does not know which side won them.
    ``forbidden[s]`` holds cards seat ``s`` cannot hold, ``holds[s]`` cards it must hold,
    ``played_by[s]`` the cards seat ``s`` has played (all three are empty below ``expert``), and
    ``bid_suits`` the ``(seat, suit, value)`` of every bid made (every level in the auction, only
    ``expert`` in the play), ``calls`` the auction likewise.
    """

    level: str
    seat: int
    variant: str
    dealer: int
    phase: str
    hand: int
    legal: tuple
    # the auction (or the taking), as far as the level keeps it
    high_bid: Call | None
    high_seat: int
    coinche_seat: int
    turned: int
    round: int
    # the play
    contract: Contract | None
    leader: int
    trick: tuple[int, ...]
    counts: tuple[int, int, int, int]
    gone: int | None
    won: tuple[int, int] | None
    tricks_won: tuple[int, int] | None
    forbidden: tuple[int, int, int, int] = (0, 0, 0, 0)
    holds: tuple[int, int, int, int] = (0, 0, 0, 0)
    belote_side: int = -1
    bid_suits: tuple[tuple[int, int, int], ...] = ()
    played_by: tuple[int, int, int, int] = (0, 0, 0, 0)
    calls: tuple = ()
    #: the table's rules (the playouts play and score by them)
    rules: Rules = OWN
    #: the announcements the seat has seen declared, ``(seat, announcement)`` in order (``announce=yes``)
    declared: tuple = ()
    #: from the end of the first trick (``announce=yes``), what each seat's declarations allow its dealt hand to
    #: hold: ``(runs, carres)`` per seat (``None`` for the seat itself), the cards of its declared sequences and
    #: the ranks (bits) of its declared carrés; a dealt hand holds no other run of three and no other carré
    #: (a bot declares all it holds): :func:`fits_announcements`
    told: tuple = ()

    @property
    def trump(self) -> int:
        return -1 if self.contract is None else self.contract.suit

    def fingerprint(self) -> str:
        """A stable text of everything known (not the level's name), to seed the decision's random numbers."""
        known = tuple(getattr(self, name) for name in Knowledge.__slots__[1:]
                      if name != "rules" and (name not in ("declared", "told") or getattr(self, name)))
        return repr(known if self.rules.is_own else known + (str(self.rules),))


def _auction_state(view: SeatView) -> tuple[Call | None, int, int, int]:
    high, high_seat, coinche_seat, passes, rnd = None, -1, -1, 0, 1
    for seat, call in view.calls:
        if call.kind in (CallKind.BID, CallKind.TAKE):
            high, high_seat = call, seat
        elif call.kind == CallKind.COINCHE:
            coinche_seat = seat
        elif call.kind == CallKind.PASS and view.rules.kind.turned_card:
            passes += 1
            if passes == 4:
                rnd = 2
    return high, high_seat, coinche_seat, rnd


def remember(view: SeatView, level: str, announced: bool | str = True) -> Knowledge:
    """Keep of ``view`` only what ``level`` may know.  ``announced``: whether what the announcements shown tell
    is known, their cards held by their seats and what they rule out (every level; for the lab's arenas,
    ``False`` ignores it and ``"cards"`` knows only the cards)."""
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}")
    high, high_seat, coinche_seat, rnd = _auction_state(view)
    hand = view.hand_mask
    trick = tuple(int(c) for c in view.trick)
    contract = view.contract
    counts = view.hand_counts
    if view.phase == "play":
        played = _trick_seats(view)
        left = len(view.hand) + (view.seat in played)
        counts = tuple(left - (s in played) for s in range(4))
    expert = level == "expert"
    gone = None
    if level != "easy" and view.phase == "play":
        gone = 0
        for _, cards, _ in view.tricks:
            gone |= mask_of(cards)
    base = dict(
        level=level, seat=view.seat, variant=view.variant, dealer=view.dealer, phase=view.phase,
        hand=hand, legal=tuple(view.legal), high_bid=high, high_seat=high_seat, coinche_seat=coinche_seat,
        turned=-1 if view.turned is None else int(view.turned), round=rnd, contract=contract,
        leader=view.leader if view.phase == "play" else -1, trick=trick, counts=tuple(counts), gone=gone,
        won=tuple(view.cards_won) if expert and view.phase == "play" else None,
        tricks_won=tuple(view.tricks_won) if expert and view.phase == "play" else None,
        rules=view.rules,
    )
    if view.phase == "auction":
        # the auction in progress is on the table for every level, as the trick is in the play
        base["calls"] = tuple(view.calls)
        base["bid_suits"] = tuple((s, c.suit, c.value) for s, c in view.calls if c.kind == CallKind.BID)
    elif expert:
        base.update(_expert_inferences(view))
    if view.declared:
        base["declared"] = tuple(view.declared)
    if announced and view.phase == "play" and view.rules.announce and view.tricks:
        base.update(_announced_cards(view, base.get("holds", (0, 0, 0, 0)), base.get("forbidden", (0, 0, 0, 0)),
                                     told=announced is True))
    return Knowledge(**base)


def _announced_cards(view: SeatView, holds: tuple, forbidden: tuple, told: bool = True) -> dict:
    """From the end of the first trick, when every seat has declared and the table has seen it: each other
    seat holds the cards of its announcements not played yet; with ``told``, also not the card just below or
    above one of its sequences (a sequence declared is the whole run), and ``told`` limits the rest of its
    dealt hand."""
    holds, forbidden, played = list(holds), list(forbidden), view.played_mask
    runs, carres = [0, 0, 0, 0], [0, 0, 0, 0]
    for s, announcement in view.declared:
        if s == view.seat:
            continue
        mask = announcement.mask
        holds[s] |= mask & ~played
        if not told:
            continue
        if announcement.is_carre:
            carres[s] |= 1 << announcement.top
        else:
            runs[s] |= mask
            forbidden[s] |= ((mask << 1 | mask >> 1) & SUIT_MASK[announcement.suit] & ~mask) & ~played
    out = dict(holds=tuple(holds), forbidden=tuple(f & ~holds[s] for s, f in enumerate(forbidden)))
    if told:
        out["told"] = tuple(None if s == view.seat else (runs[s], carres[s]) for s in range(4))
    return out


def _runs(byte: int) -> int:
    """The bits of ``byte`` (one suit's ranks) that lie in a run of three or more."""
    out = run = 0
    for rank in range(9):
        if rank < 8 and byte >> rank & 1:
            run += 1
            continue
        if run >= 3:
            out |= ((1 << run) - 1) << (rank - run)
        run = 0
    return out


RUNS = tuple(_runs(b) for b in range(256))
#: The ranks whose four cards are a carré (nines to aces).
CARRE_RANKS = 0b11111100


def fits_announcements(hands, told: tuple, played_by: tuple) -> bool:
    """Whether each seat's cards in ``hands`` with those it was seen to play (``played_by``) hold no run of
    three and no carré beyond what it declared (``told``, :class:`Knowledge`).

    >>> from coinche.cards import mask_of, parse_cards
    >>> told = (None, (0, 0), (mask_of(parse_cards("7h,8h,9h")), 0), (0, 1 << 4))
    >>> hands = [0, mask_of(parse_cards("7s,9s,Ts")), mask_of(parse_cards("7h,8h,9h,Jh")), 0]
    >>> fits_announcements(hands, told, (0, 0, 0, 0))
    True
    >>> fits_announcements(hands, told, (0, 1 << 1, 0, 0))  # the 8s it played: 7s 8s 9s Ts, undeclared
    False
    """
    for s, limit in enumerate(told):
        if limit is None:
            continue
        h = hands[s] | played_by[s]
        runs, carres = limit
        if (h & h >> 8 & h >> 16 & h >> 24 & CARRE_RANKS) & ~carres:
            return False
        for i in (0, 8, 16, 24):
            if RUNS[h >> i & 255] << i & ~runs:
                return False
    return True


def _trick_seats(view: SeatView) -> list[int]:
    return [(view.leader + i) & 3 for i in range(len(view.trick))]


def _expert_inferences(view: SeatView) -> dict:
    """Voids and missing high trumps shown by the play, belote holders, the bids, who played what."""
    forbidden = [0, 0, 0, 0]
    holds = [0, 0, 0, 0]
    played_by = [0, 0, 0, 0]
    trump = view.trump
    tricks = [(leader, cards) for leader, cards, _ in view.tricks]
    if view.trick:
        tricks.append((view.leader, view.trick))
    for leader, cards in tricks:
        led = cards[0] >> 3
        played_by[leader] |= 1 << cards[0]
        for i in range(1, len(cards)):
            seat, card, prior = (leader + i) & 3, cards[i], cards[:i]
            played_by[seat] |= 1 << card
            w = trick_winner(prior, trump)
            best = prior[w]
            suit = card >> 3
            ordered = led == trump or trump == ALL_TRUMPS
            if suit != led:
                forbidden[seat] |= SUIT_MASK[led]
                if led != trump and trump < 4 and w != i - 2:
                    # an opponent was winning: a player holding a trump (a higher one) had to play it
                    if best >> 3 == trump:
                        if suit != trump or not (HIGHER_TRUMPS[best] >> card & 1):
                            forbidden[seat] |= HIGHER_TRUMPS[best]
                    elif suit != trump:
                        forbidden[seat] |= SUIT_MASK[trump]
            elif ordered and best >> 3 == led and not (HIGHER_TRUMPS[best] >> card & 1):
                forbidden[seat] |= HIGHER_TRUMPS[best]
    belote_side = -1
    if 0 <= trump < 4:
        king, queen = trump * 8 + Rank.KING, trump * 8 + Rank.QUEEN
        announced = {s for s, _, _ in view.announcements}
        for s in announced:
            belote_side = s & 1
            holds[s] |= ((1 << king) | (1 << queen))
        for s in range(4):
            if s not in announced:
                for c, other in ((king, queen), (queen, king)):
                    if played_by[s] >> c & 1:
                        forbidden[s] |= 1 << other
    if view.rules.kind.turned_card and view.turned is not None and view.contract is not None:
        holds[view.contract.declarer] |= 1 << int(view.turned)
    gone = view.played_mask
    for s in range(4):
        holds[s] &= ~gone
        if s == view.seat:
            forbidden[s], holds[s] = 0, 0
        forbidden[s] &= ~holds[s]
    bid_suits = tuple((s, c.suit, c.value) for s, c in view.calls if c.kind == CallKind.BID)
    return dict(
        forbidden=tuple(forbidden), holds=tuple(holds), belote_side=belote_side, bid_suits=bid_suits,
        played_by=tuple(played_by), calls=tuple(view.calls),
    )
