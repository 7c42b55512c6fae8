"""Helpers shared by the tests: random positions, random drivers of deals, engine <-> naive conversions."""

from __future__ import annotations

import random
import time
import zipfile
from pathlib import Path
from typing import Callable

from coinche import CARDS, Call, Deal, Phase, cards_of
from coinche.calls import CallKind

import naive

NAMES = [str(c) for c in CARDS]  # engine card index -> "Jh"
INDEX = {name: i for i, name in enumerate(NAMES)}
SUITS = "shdc"


def names(cards) -> list[str]:
    return [NAMES[c] for c in cards]


def name_set(mask: int) -> set[str]:
    return {NAMES[c] for c in cards_of(mask)}


def mask_of_names(cards) -> int:
    mask = 0
    for c in cards:
        mask |= 1 << INDEX[c]
    return mask


def position_line(trump: str, trick, hand) -> str:
    return f"trump={trump}&trick={','.join(trick)}&hand={','.join(hand)}"


# ---------------------------------------------------------------- random positions
def _suit_cards(suit: str) -> list[str]:
    return [r + suit for r in naive.RANKS]


def uniform_position(rng: random.Random) -> tuple[str, list[str], list[str]]:
    """Random trump, a trick of 0-3 distinct cards, a hand of 1-8 other distinct cards."""
    n_trick = rng.randint(0, 3)
    n_hand = rng.randint(1, 8)
    cards = rng.sample(naive.DECK, n_trick + n_hand)
    return rng.choice(SUITS), cards[:n_trick], cards[n_trick:]


def _fill(rng: random.Random, used: set[str], pool: list[str], k: int) -> list[str]:
    pool = [c for c in pool if c not in used]
    k = min(k, len(pool))
    out = rng.sample(pool, k)
    used.update(out)
    return out


def biased_position(rng: random.Random) -> tuple[str, list[str], list[str]]:
    """Positions that hit the interesting cases often: trump led, void in the suit led, partner or
    opponent winning with a trump, a hand of trumps only, a hand with trumps above and below."""
    trump = rng.choice(SUITS)
    plain = [s for s in SUITS if s != trump]
    kind = rng.randrange(7)
    used: set[str] = set()
    n_trick = rng.randint(1, 3)
    if kind == 0:  # trump led
        trick = _fill(rng, used, _suit_cards(trump), 1)
        trick += _fill(rng, used, naive.DECK, n_trick - 1)
        hand = _fill(rng, used, _suit_cards(trump), rng.randint(0, 4))
        hand += _fill(rng, used, naive.DECK, rng.randint(0 if hand else 1, 8 - len(hand)))
    elif kind in (1, 2, 3):  # a plain suit led, and we hold none of it
        led = rng.choice(plain)
        trick = _fill(rng, used, _suit_cards(led), 1)
        trumps, anything = _suit_cards(trump), naive.DECK
        if kind == 1:  # the partner (second before us) has trumped; the last opponent does anything
            if rng.random() < 0.7:
                trick += _fill(rng, used, trumps, 1)
                trick += _fill(rng, used, rng.choice((trumps, anything)), 1)
            else:
                trick += _fill(rng, used, anything, 1)
        elif kind == 2:  # the opponent just before us has trumped (after the partner, who may have too)
            if rng.random() < 0.6:
                trick += _fill(rng, used, rng.choice((trumps, anything)), 1)
            trick += _fill(rng, used, trumps, 1)
        else:
            trick += _fill(rng, used, anything, n_trick - 1)
        hand_pool = [c for c in naive.DECK if naive.suit_of(c) != led]
        if rng.random() < 0.3:
            hand_pool = [c for c in hand_pool if naive.suit_of(c) == trump]
        hand = _fill(rng, used, hand_pool, rng.randint(1, 8))
    elif kind == 4:  # only trumps in hand
        trick = _fill(rng, used, naive.DECK, n_trick)
        hand = _fill(rng, used, _suit_cards(trump), rng.randint(1, 8))
    elif kind == 5:  # the full four-card tricks of trick_winner, and leading
        trick = _fill(rng, used, naive.DECK, rng.randint(0, 3))
        hand = _fill(rng, used, naive.DECK, rng.randint(1, 8))
    else:  # a trump on the table and trumps above and below it in hand
        trick = _fill(rng, used, naive.DECK, n_trick)
        hand = _fill(rng, used, _suit_cards(trump), rng.randint(1, 4))
        hand += _fill(rng, used, naive.DECK, rng.randint(0, 8 - len(hand)))
    if not hand:
        hand = _fill(rng, used, naive.DECK, 1)
    return trump, trick[:3], hand[:8]


# ---------------------------------------------------------------- random play of an engine deal
Policy = Callable[[Deal, random.Random], object]


def random_action(deal: Deal, rng: random.Random, style: str = "random"):
    """A random legal action, biased so that auctions end in every way (coinche, surcoinche, capot,
    void) and play follows one of a few styles (random, always the strongest or the weakest card)."""
    actions = deal.legal_actions()
    if deal.phase == Phase.AUCTION:
        kinds = {a.kind: a for a in actions}
        if CallKind.SURCOINCHE in kinds:
            return kinds[CallKind.SURCOINCHE] if rng.random() < 0.3 else kinds[CallKind.PASS]
        if CallKind.COINCHE in kinds and rng.random() < 0.12:
            return kinds[CallKind.COINCHE]
        if CallKind.TAKE in kinds:
            takes = [a for a in actions if a.kind == CallKind.TAKE]
            return rng.choice(takes) if rng.random() < 0.3 else kinds[CallKind.PASS]
        bids = [a for a in actions if a.kind == CallKind.BID]
        if not bids or rng.random() < 0.6:
            return kinds[CallKind.PASS]
        if rng.random() < 0.9:
            return rng.choice(bids[:8])
        return rng.choice(bids)
    if style == "first":
        return actions[0]
    if style == "last":
        return actions[-1]
    return rng.choice(actions)


def play_random_deal(variant: str, seed: int, dealer: int | None = None,
                     on_step: Callable[[Deal], None] | None = None) -> Deal:
    """A seeded deal played to the end with random legal actions; ``on_step(deal)`` before every action."""
    rng = random.Random(seed)
    deal = Deal.new(variant, rng.randrange(4) if dealer is None else dealer, seed)
    style = rng.choice(("random", "random", "first", "last"))
    while not deal.is_over:
        if on_step is not None:
            on_step(deal)
        action = random_action(deal, rng, style)
        if isinstance(action, Call):
            deal.call(action)
        else:
            deal.play(action)
    return deal


def engine_zips(folder: Path) -> tuple[Path, Path]:
    """Two archives for the build's tools that import the engine from a wheel (tools/first_deals.py,
    tools/engine_options.py): the engine's sources zipped as a wheel holds them, and one that is no engine."""
    engine = Path(__file__).resolve().parent.parent / "engine"
    wheel = folder / "coinche-0-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as archive:
        for path in (engine / "coinche").rglob("*.py"):
            archive.write(path, path.relative_to(engine).as_posix())
    empty = folder / "empty.whl"
    with zipfile.ZipFile(empty, "w") as archive:
        archive.writestr("other/__init__.py", "")
    return wheel, empty


def child_pids(pid: int) -> set[int]:
    """The processes whose parent is ``pid`` (Linux: read from /proc)."""
    out = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            out.add(int(stat.parent.name))
    return out


def gone(pids: set[int], within: float) -> bool:
    """Whether every process of ``pids`` has ended within ``within`` seconds."""
    deadline = time.monotonic() + within
    while pids & {int(p.name) for p in Path("/proc").glob("[0-9]*")}:
        if time.monotonic() > deadline:
            return False
        time.sleep(0.1)
    return True


# Issue 42's record: seat 0 (declarer, 110 in diamonds, surcoinched) trumps its partner's winning trick with the
# jack of diamonds at decision 27, the worst card of its deal.
ISSUE_42 = {
    "format": "coinche-deal/2", "variant": "coinche", "rules": "own", "dealer": 3,
    "deck": "Jc,9c,7d,7s,Ac,Ad,Ks,8h,Qs,9s,7c,8d,9d,Jd,Qd,Kd,8c,Th,Jh,Qh,As,Tc,8s,9h,Ts,Ah,7h,Qc,Js,Kh,Kc,Td",
    "calls": "80d pass 90s 100h 110d coinche pass surcoinche".split(),
    "plays": "9d Qd Qc 8d Tc Ac 8c 7c Ah 7h Kh 7d 9c Kd 8h Kc 9h Th Jh Jd 8s 7s Js 9s Qs Td As Ts Qh Jc Ad Ks".split(),
}
