"""Bots for both variants: three levels that differ only in what they remember, and a baseline.

The API: a bot receives one seat's :class:`~coinche.view.SeatView` and returns an action, a
:class:`~coinche.calls.Call` in the auction or a :class:`~coinche.cards.Card` in the play.

>>> from coinche.deal import Deal
>>> deal = Deal.new("coinche", dealer=0, seed=3)
>>> bots = [make_bot("normal", seed=s) for s in range(4)]
>>> while not deal.is_over:
...     deal.apply(bots[deal.turn].act(deal.view(deal.turn)))
>>> sum(deal.scores) > 0 or deal.void
True

Levels (:data:`LEVELS`): ``easy``, ``normal`` and ``expert`` decide the same way (sampled deals of
the hidden cards, played out; :mod:`coinche.bots.search`) and differ only in what they may remember
(:func:`~coinche.bots.knowledge.remember`); ``baseline`` plays its highest legal card and bids on a
fixed threshold.  A bot's decision depends only on its seed and what it remembers of the view, so a
deal replays exactly.  Every bot keeps the partner rule: it never trumps a trick its partner is
winning when rule 3 leaves it free, unless it holds nothing but trumps.

The auction.  :meth:`Bot.evaluate_calls` gives every legal call of an auction view with its
:class:`~coinche.bots.auction.CallValue`: ``score``, the side's expected score minus the opponents'
for this deal, in points (the unit of :meth:`Bot.explain_card`'s ``expected``), if the auction ended
on that call; ``make_chance``, the percentage of sampled deals in which the contract the call leaves
standing is made by its declarer; ``error``, the standard error of its score minus passing's.
``act`` and ``explain_call`` choose among these prices (:func:`~coinche.bots.auction.choose_call`:
the best score counted one standard error low, passing on a tie), so they always agree.

- *The worlds honour the auction* (:mod:`coinche.bots.inference`).  The hidden hands are sampled in
  proportion to how likely each other seat was to make its calls with the cards a deal gives it,
  under a cheap bidding policy: a hand's rating for each trump (the card points its side can expect,
  a linear fit over playouts) against what each call needs: a bid of ``V`` needs a rating about
  ``V + 28`` in its suit, a raise of the partner's suit support above an average hand, a pass no
  suit reaching the next bid.  Each call's chance is a logistic curve in that gap; a sampled deal is
  kept with the product of its calls' chances, else sampled again (twelve times at most, then the
  likeliest stands).  Expert's card play samples its worlds the same way (it remembers the auction).
- *Calls priced by what they are worth to the side* (:mod:`coinche.bots.auction`).  Each world is
  played out once per trump with our side declaring and once with the opponents' contract when they
  hold one; a bid is priced by its contract's score in those worlds, a pass by the contract standing
  (the partner's, ours or theirs; zero when there is none), a coinche and a surcoinche by the
  standing contract doubled or redoubled, capot bids as capot.  The playouts see every hand: our
  contracts' rows give 12 card points to the defence, and a coinche is weighed with 16 points more
  for their declarer.
- The classic's taking is priced the same way (take in a suit or pass), on unweighted worlds.

The coach: :meth:`Bot.explain_call` gives the bot's call for the seat with a message key and its
parameters, for the page to put into words (call it on a ``normal`` bot).  ``holder`` says who holds
the contract standing: ``partner``, ``self`` (the seat's own earlier bid), ``opponents``, ``coinched``
(our side's contract, coinched) or ``null``.  The keys:

- ``coach_bid`` ``{"call": "100h", "make_chance": 72, "expected": {"s": 62, "h": 104, "d": 70, "c": 58},
  "contract": "90s" | null, "holder": "partner", "contract_chance": 40}``: bid; ``expected`` is the
  side's expected card points plus belote with each trump, ``make_chance`` the percentage of sampled
  deals in which the bid is made, ``contract_chance`` (when a contract stands) the standing
  contract's, the one passing would leave.
- ``coach_take`` ``{"call": "takeh", "make_chance": 70, "expected": {...}}``: take (classic).
- ``coach_pass`` ``{"contract": "100h" | null, "holder": ..., "expected": {...}, "make_chance": 55}``:
  pass (no call worth more); ``make_chance`` (present when a contract stands) is the standing
  contract's chance; ``expected`` is empty after a coinche.
- ``coach_coinche`` ``{"call": "coinche", "contract": "100h", "make_chance": 20, "expected": {...}}``:
  coinche; ``make_chance`` is the opponents' chance to make it.
- ``coach_surcoinche`` ``{"call": "surcoinche", "contract": "100h", "make_chance": 85}``.
- ``coach_forced`` ``{"call": "pass"}``: only one call is legal.

The card coach, :meth:`Bot.explain_card`: key ``coach_card`` with ``{"card": "Jh", "expected":
{"Jh": 38, "7s": 12}}``: the card, and for each card searched the mean score difference (the side's
score minus the opponents' at the end of the deal) it led to over the sampled deals; equivalent
cards (say the 7 and 8 of a suit) are searched once, under the lower; ``expected`` is empty when only
one card is worth considering.
"""

from __future__ import annotations

from ..calls import PASS, Call, CallKind
from ..cards import CARDS, POINTS, POWER, Card, mask_of
from ..view import SeatView
from .auction import CallValue, choose_call, evaluate_calls, explain_call
from .knowledge import LEVELS, Knowledge, remember
from .rollout import partner_rule, pick_max
from .search import EXACT_CARDS, PLAY_BUDGET, best_card, choose_card, evaluate_cards

#: Frozen baselines, the yardsticks of the duplicate arena: ``expert-v1`` is the Expert before issue 26 (its
#: sampled deals always played out to the end by the playout policy, never solved exactly); ``expert-v2`` the
#: Expert of issue 26 before its playouts were doubled (sampled deals solved from 12 cards, 3,000 cards played
#: out a decision); ``expert-blind`` the Expert that ignores what the announcements tell in its sampled deals,
#: their cards and what they rule out (house rule ``announce=yes``: it still scores them); ``expert-cards`` the
#: Expert that knows only the announced cards (as before what they rule out was added). Each: (its level's
#: memory, ``exact``, ``budget``, ``announced``) as :class:`Bot` takes them.
BASELINE_BOTS = {"expert-v1": ("expert", 0, 3000, True), "expert-v2": ("expert", 12, 3000, True),
                 "expert-blind": ("expert", EXACT_CARDS, PLAY_BUDGET, False),
                 "expert-cards": ("expert", EXACT_CARDS, PLAY_BUDGET, "cards")}
BASELINES = tuple(BASELINE_BOTS)
ALL_LEVELS = LEVELS + ("baseline",) + BASELINES


class Bot:
    """A search bot of one level: ``act(view)`` for the next action, ``explain_call(view)`` for the coach.

    ``exact``: from how many cards left its sampled deals are solved double dummy (0: never, the
    ``expert-v1`` baseline); ``budget``: how many cards a card decision plays out in all
    (:func:`coinche.bots.search.play_worlds`)."""

    def __init__(self, level: str, seed: int | str = 0, exact: int = EXACT_CARDS, budget: int = PLAY_BUDGET,
                 announced: bool | str = True) -> None:
        if level not in LEVELS:
            raise ValueError(f"unknown level {level!r}")
        self.level = level
        #: whether the sampled worlds honour the announcements shown, their cards and what they rule out (the lab
        #: turns it off: ``False``, or ``"cards"`` for their cards alone)
        self.announced = announced
        self.seed = seed
        self.exact = exact
        self.budget = budget

    def knowledge(self, view: SeatView) -> Knowledge:
        return remember(view, self.level, self.announced)

    def act(self, view: SeatView) -> Call | Card:
        if view.phase == "auction":
            know = self.knowledge(view)
            return choose_call(know, evaluate_calls(know, self.seed))
        return CARDS[choose_card(self.knowledge(view), self.seed, exact=self.exact, budget=self.budget)]

    def announce(self, view: SeatView) -> tuple:
        """The announcements to declare with the first card: every one the hand holds (the points are
        worth more than what they tell the opponents)."""
        return view.announceable

    def explain_announce(self, view: SeatView) -> tuple[tuple, str, dict]:
        """The announcements :meth:`announce` declares, key ``coach_announce`` and its parameters: ``points``
        (what they are worth, if the side's is the best at the table) and ``count``."""
        if not view.announceable:
            raise ValueError("explain_announce is for a seat that may declare announcements")
        chosen = self.announce(view)
        return chosen, "coach_announce", {"points": sum(a.points for a in chosen), "count": len(chosen)}

    def evaluate_calls(self, view: SeatView) -> dict[Call, CallValue]:
        """Every legal call of the auction with its :class:`CallValue` for the seat's side: ``score``
        (the side's expected score minus the opponents' for this deal, in points) and ``make_chance``.
        :meth:`act` and :meth:`explain_call` choose among these prices."""
        if view.phase != "auction":
            raise ValueError("evaluate_calls is for the auction")
        return evaluate_calls(self.knowledge(view), self.seed)

    def explain_call(self, view: SeatView) -> tuple[Call, str, dict]:
        """The call for the seat, a message key and its parameters (auction only)."""
        if view.phase != "auction":
            raise ValueError("explain_call is for the auction")
        return explain_call(self.knowledge(view), self.seed)

    def explain_card(self, view: SeatView) -> tuple[Card, str, dict]:
        """The card for the seat (the one :meth:`act` plays), key ``coach_card`` and its parameters."""
        if view.phase != "play" or not view.legal:
            raise ValueError("explain_card is for the seat to play")
        know = self.knowledge(view)
        means = evaluate_cards(know, self.seed, exact=self.exact, budget=self.budget)
        card = CARDS[best_card(means)]
        expected = {str(CARDS[c]): round(m) for c, m in means} if len(means) > 1 else {}
        return card, "coach_card", {"card": str(card), "expected": expected}

    def __repr__(self) -> str:
        if (self.exact, self.budget, self.announced) != (EXACT_CARDS, PLAY_BUDGET, True):
            return (f"Bot({self.level!r}, seed={self.seed!r}, exact={self.exact!r}, budget={self.budget!r}, "
                    f"announced={self.announced!r})")
        return f"make_bot({self.level!r}, seed={self.seed!r})"


#: Baseline bidding: a hand's value for a trump (J 20, 9 14, A 11 ... in trump, and outside
#: aces 11 and tens 10), and the value at which it bids 80 or takes.
BASELINE_THRESHOLD = 56


def baseline_value(hand: int, trump: int) -> int:
    points = POINTS[trump]
    return sum(points[c] for c in range(32) if hand >> c & 1 and (c >> 3 == trump or points[c] >= 10))


class BaselineBot:
    """The fixed yardstick: highest legal card (keeping the partner rule), bids on a fixed threshold."""

    level = "baseline"

    def __init__(self, seed: int | str = 0) -> None:
        self.seed = seed

    def act(self, view: SeatView) -> Call | Card:
        if view.phase == "auction":
            return self.explain_call(view)[0]
        hand, trump = view.hand_mask, view.trump
        legal = partner_rule(hand, view.trick, trump, mask_of(view.legal))
        key = [POWER[trump][c] * 16 + POINTS[trump][c] for c in range(32)]
        return CARDS[pick_max(legal, key)]

    announce = Bot.announce

    def explain_call(self, view: SeatView) -> tuple[Call, str, dict]:
        hand, legal = view.hand_mask, view.legal
        if view.rules.kind.turned_card:
            hand |= 1 << int(view.turned)
            takes = [c for c in legal if c.kind == CallKind.TAKE]
            best = max(takes, key=lambda c: baseline_value(hand, c.suit))
            if baseline_value(hand, best.suit) >= BASELINE_THRESHOLD * 5 // 8:
                return best, "coach_take", {"call": str(best)}
            return PASS, "coach_pass", {"contract": None}
        if any(c.kind == CallKind.BID for _, c in view.calls):
            return PASS, "coach_pass", {"contract": None}
        suit = max(range(4), key=lambda t: (baseline_value(hand, t), -t))
        lowest = next((c for c in legal if c.kind == CallKind.BID and c.suit == suit), None)
        if baseline_value(hand, suit) >= BASELINE_THRESHOLD and lowest is not None:
            return lowest, "coach_bid", {"call": str(lowest)}
        return PASS, "coach_pass", {"contract": None}


def bot_turn(deal, bot) -> None:
    """Let ``bot`` act for the player to move of ``deal``: first its announcements when it may declare
    them (house rule ``announce=yes``), then its call or card, each checked."""
    if deal.may_declare:
        deal.declare(bot.announce(deal.view(deal.turn)))
    deal.apply(bot.act(deal.view(deal.turn)))


def make_bot(level: str, seed: int | str = 0) -> Bot | BaselineBot:
    """A bot of ``level`` (``easy``, ``normal``, ``expert``, ``baseline`` or one of :data:`BASELINES`) seeded
    with ``seed``."""
    if level == "baseline":
        return BaselineBot(seed)
    if level in BASELINE_BOTS:
        memory, exact, budget, announced = BASELINE_BOTS[level]
        return Bot(memory, seed, exact=exact, budget=budget, announced=announced)
    return Bot(level, seed)


__all__ = ["ALL_LEVELS", "LEVELS", "Bot", "BaselineBot", "CallValue", "Knowledge", "bot_turn", "make_bot",
           "remember"]
