"""What one seat may know of a deal, and nothing more.

A :class:`SeatView` holds the seat's own hand, the public table (the auction, the turned
card of the classic deal, the contract, during the auction the contract standing so far, the
trick on the table, every trick played, the belote announcements, how many cards each seat
still holds) and, on the seat's turn, its legal actions.  Bots, the web page and the 1v1
referee only ever receive views.

>>> from coinche.deal import Deal
>>> deal = Deal.new("coinche", dealer=0, seed=5)
>>> v = deal.view(2)
>>> len(v.hand), v.hand_counts, v.current_player
(8, (8, 8, 8, 8), 1)
>>> set(v.hand) == set(deal.view(2).hand) and not set(v.hand) & set(deal.view(1).hand)
True

During the auction, ``standing`` is the contract the auction would give if it ended now: the
highest bid, by whom, coinched (×2) or surcoinched (×4):

>>> deal.apply("90h", seat=1)
>>> deal.apply("coinche", seat=2)
>>> deal.view(0).to_json()["standing"]
{'declarer': 1, 'trump': 'h', 'value': 90, 'multiplier': 2}
>>> Deal.new("coinche", dealer=0, seed=5).view(0).standing is None
True

Announcements (house rule ``announce=yes``) are declared with a player's first card; ``declared`` holds the
seat's own at once and everyone's from the end of the first trick, never before; ``announceable`` the
announcements the seat may declare now (its turn to play its first card).
"""

from __future__ import annotations

from dataclasses import dataclass

from .announce import Announcement, held
from .calls import Call
from .cards import CARDS, Card, cards_of, mask_of
from .play import rule_position
from .rules import OWN, Rules
from .scoring import Contract, DealScore


@dataclass(frozen=True, slots=True)
class SeatView:
    seat: int
    variant: str
    dealer: int
    phase: str
    current_player: int
    hand: tuple[Card, ...]
    hand_counts: tuple[int, int, int, int]
    calls: tuple[tuple[int, Call], ...]
    turned: Card | None
    contract: Contract | None
    leader: int
    trick: tuple[Card, ...]
    tricks: tuple[tuple[int, tuple[Card, ...], int], ...]
    announcements: tuple[tuple[int, str, Card], ...]
    cards_won: tuple[int, int]
    tricks_won: tuple[int, int]
    result: DealScore | None
    void: bool
    legal: tuple = ()
    rules: Rules = OWN
    standing: Contract | None = None
    declared: tuple[tuple[int, Announcement], ...] = ()
    announceable: tuple[Announcement, ...] = ()

    @classmethod
    def of(cls, deal, seat: int) -> "SeatView":
        own_turn = not deal.is_over and deal.turn == seat
        turned = None
        if deal.rules.kind.turned_card and deal.turned >= 0:
            turned = CARDS[deal.turned]
        standing = None
        if deal.phase.name == "AUCTION" and deal.high_bid is not None and deal.high_bid.is_bid:
            bid = deal.high_bid
            standing = Contract(deal.variant, deal.high_seat, bid.suit, bid.value, deal.multiplier)
        return cls(
            seat=seat,
            variant=deal.variant,
            dealer=deal.dealer,
            phase=deal.phase.name.lower(),
            current_player=deal.current_player,
            hand=tuple(cards_of(deal.hands[seat])),
            hand_counts=tuple(h.bit_count() for h in deal.hands),
            calls=tuple(deal.calls),
            turned=turned,
            contract=deal.contract,
            leader=deal.leader,
            trick=tuple(CARDS[c] for c in deal.trick),
            tricks=tuple((leader, tuple(CARDS[c] for c in t), w) for leader, t, w in deal.tricks),
            announcements=tuple((s, k, CARDS[c]) for s, k, c in deal.announcements),
            cards_won=tuple(deal.cards_won),
            tricks_won=tuple(deal.tricks_won),
            result=deal.score,
            void=deal.void,
            legal=tuple(deal.legal_actions()) if own_turn else (),
            rules=deal.rules,
            standing=standing,
            declared=tuple((s, a) for s, a in deal.declared if s == seat or deal.tricks or deal.is_over),
            announceable=held(deal.hands[seat]) if own_turn and deal.may_declare else (),
        )

    @property
    def trump(self) -> int:
        return -1 if self.contract is None else self.contract.suit

    @property
    def hand_mask(self) -> int:
        return mask_of(self.hand)

    @property
    def played_mask(self) -> int:
        """Every card already played, this trick included."""
        mask = mask_of(self.trick)
        for _, cards, _ in self.tricks:
            mask |= mask_of(cards)
        return mask

    def ruling(self):
        """The ruling on this seat's hand for the trick on the table (play phase only)."""
        return rule_position(self.hand_mask, self.trick, self.trump, self.rules.undertrump)

    def to_json(self) -> dict:
        out = {
            "seat": self.seat,
            "variant": self.variant,
            "dealer": self.dealer,
            "phase": self.phase,
            "current_player": self.current_player,
            "hand": [str(c) for c in self.hand],
            "hand_counts": list(self.hand_counts),
            "calls": [[s, str(c)] for s, c in self.calls],
            "turned": None if self.turned is None else str(self.turned),
            "contract": None if self.contract is None else self.contract.to_json(),
            "leader": self.leader,
            "trick": [str(c) for c in self.trick],
            "tricks": [{"leader": leader, "cards": [str(c) for c in t], "winner": w} for leader, t, w in self.tricks],
            "announcements": [{"seat": s, "kind": k, "card": str(c)} for s, k, c in self.announcements],
            "cards_won": list(self.cards_won),
            "tricks_won": list(self.tricks_won),
            "result": None if self.result is None else self.result.to_json(),
            "void": self.void,
            "legal": [str(a) for a in self.legal],
            "rules": str(self.rules),
            "standing": None if self.standing is None else self.standing.to_json(),
        }
        if self.rules.announce:
            out["declared"] = [announcement_json(s, a) for s, a in self.declared]
            out["announceable"] = [announcement_json(self.seat, a) for a in self.announceable]
        if self.legal and self.phase == "play":
            ruling = self.ruling()
            out["ruling"] = {
                "rule": ruling.rule,
                "note": ruling.note,
                "forbidden": {str(f.card): {"rule": f.rule, "key": f.key, "params": f.params} for f in ruling.forbidden},
            }
        return out


def announcement_json(seat: int, announcement: Announcement) -> dict:
    return {"seat": seat, "announcement": str(announcement), "name": announcement.name,
            "points": announcement.points, "cards": [str(c) for c in announcement.cards]}
