"""``coinche puzzle-gen``: open puzzles found in the bots' own deals, themed and rated (docs/puzzles.md).

The bots play whole deals (``--bots``, the auction too); at each card of the play with at most
:data:`MAX_CARDS` cards left in the hands, the position is solved double dummy (:mod:`coinche.solver`, one
table of bounds kept along the deal): where one card, or a set of equal ones, beats every other by at least
``--margin`` points (score difference for the side to play), it is a puzzle.  Where the player's next moves
are forced again by that margin (the other seats playing a best card), the puzzle becomes a line.  Nothing
is hand-written: every position is one the bots reached.

Each puzzle is tagged with the themes :func:`themes_of` detects and rated by how often the Normal and the
Expert bot find its solution from the seat's own view (:func:`rating_of`).

    coinche puzzle-gen --puzzles 1200 --seed puzzles/1 --out web/puzzles/open.jsonl
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from dataclasses import replace
from typing import Iterable

from coinche import Deal
from coinche.bots import make_bot
from coinche.cards import POWER, Card, Rank
from coinche.puzzle import Puzzle, best_cards, played_out, solve_puzzle
from coinche.play import trick_winner
from coinche.rng import derive_seed
from coinche.solver import announced_side_points, belote_side

#: From this many cards left in the hands down (five tricks), a position is looked at: solved in a few
#: milliseconds in CPython, within the page's budget in the browser (docs/performance.md).
MAX_CARDS = 20
#: At least this many points (score difference) between the best cards and the next: 10 card points.
MARGIN = 20
#: How many puzzles one deal gives at most (from different tricks), so that the set spans many deals.
PER_DEAL = 2
#: The bots that rate a puzzle, with the rating they are taken to play at, and how many of each (seeded apart).
RATERS = (("normal", 1500), ("expert", 1900))
TRIES = 3
MIN_RATING, MAX_RATING = 600, 2800


# ---------------------------------------------------------------- themes
def _trumps(cards: Iterable[int], trump: int) -> list[int]:
    return [c for c in cards if trump < 4 and c >> 3 == trump]


def themes_of(p: Puzzle, values: dict[Card, float] | None = None) -> tuple[str, ...]:
    """The themes of an open puzzle, from its position and the solver's lines (coinche.puzzle.THEMES):

    - ``draw_trumps``: the seat leads, the solution is a trump, the opponents still hold trumps, and a plain
      card would lose;
    - ``dix_de_der``: the solution's line wins the last trick (its ten points), the best other card's loses it;
    - ``unblock``: the partner is winning a trick of a plain suit and the seat must give a high card of that
      suit while it holds a lower one, the partner keeping cards of the suit;
    - ``partner_lead``: the solution lets the partner win the trick (and lead the next) though the seat could
      have won it, or leads to the partner's winner;
    - ``ruff``: the solution's line has the side win more tricks by trumping a plain suit led than the best
      other card's (ruffing now, leading for the partner's ruff, keeping a trump to ruff later);
    - ``keep_belote``: the seat holds the trump king and queen and must play neither yet;
    - ``last_trump``: the seat holds every trump still out and the choice is whether to play one;
    - ``capot``: the solution's line takes every trick of the deal;
    - ``contract``: the solution makes (or, in defence, beats) the contract, the best other card does not;
    - ``endgame``: three tricks left or fewer.
    """
    values = solve_puzzle(p) if values is None else values
    best, _ = best_cards(values)
    others = [c for c in values if c not in best]
    trump, me, trick = p.trump, p.to_play, [int(c) for c in p.trick]
    hands = [[int(c) for c in h] for h in p.hands]
    mine, partner = hands[me], hands[me ^ 2]
    opponents = hands[me ^ 1] + hands[me ^ 3]
    power = POWER[trump]
    found = []
    line = played_out(p, best[0])
    end = p.after(line)
    alternative = max(others, key=values.__getitem__) if others else None
    alt_line = played_out(p, alternative) if alternative is not None else None
    if not trick and trump < 4 and all(c >> 3 == trump for c in best) and _trumps(opponents, trump) \
            and any(c >> 3 != trump for c in others):
        found.append("draw_trumps")
    if alt_line is not None and _winners(p, line)[-1] & 1 == me & 1 != _winners(p, alt_line)[-1] & 1:
        found.append("dix_de_der")
    winner = (p.leader + trick_winner(trick, trump)) & 3 if trick else -1
    led = trick[0] >> 3 if trick else -1
    if winner == me ^ 2 and led != trump and all(c >> 3 == led for c in best):
        lower = [c for c in others if c >> 3 == led and power[c] < min(power[b] for b in best)]
        if lower and any(c >> 3 == led for c in partner):
            found.append("unblock")
    if _winners(p, line)[0] == me ^ 2 and (not trick or any(_beats(c, trick, trump) for c in p.legal())):
        found.append("partner_lead")
    if alt_line is not None and _ruffs(p, line, me & 1) > _ruffs(p, alt_line, me & 1):
        found.append("ruff")
    if trump < 4:
        belote = {trump * 8 + Rank.KING, trump * 8 + Rank.QUEEN}
        if belote <= set(mine) and not belote & set(best) and belote & set(others):
            found.append("keep_belote")
        held = _trumps(mine, trump)
        if held and not _trumps(opponents + partner, trump) and len(set(c >> 3 for c in values)) > 1 \
                and (any(c >> 3 == trump for c in best) or any(c >> 3 == trump for c in others)):
            found.append("last_trump")
    side = me & 1
    if end.tricks[1 - side] == 0 and end.tricks[side] == 8:
        found.append("capot")
    if alt_line is not None and _made(p, line) != _made(p, alt_line):
        found.append("contract")
    if len(mine) <= 3:
        found.append("endgame")
    return tuple(found)


def _beats(card: int, trick: list[int], trump: int) -> bool:
    return trick_winner(trick + [card], trump) == len(trick)


def _winners(p: Puzzle, line: list[Card]) -> list[int]:
    """The seat winning each trick the line completes, in order."""
    trick, leader, out = [int(c) for c in p.trick], p.leader, []
    for card in line:
        trick.append(int(card))
        if len(trick) == 4:
            leader = (leader + trick_winner(trick, p.trump)) & 3
            out.append(leader)
            trick = []
    return out


def _ruffs(p: Puzzle, line: list[Card], side: int) -> int:
    """How many tricks along ``line`` the side wins with a trump on a plain suit led."""
    trump = p.trump
    if trump >= 4:
        return 0
    trick, leader, count = [int(c) for c in p.trick], p.leader, 0
    for card in line:
        trick.append(int(card))
        if len(trick) == 4:
            w = trick_winner(trick, trump)
            leader = (leader + w) & 3
            count += leader & 1 == side and trick[0] >> 3 != trump and trick[w] >> 3 == trump
            trick = []
    return count


def _made(p: Puzzle, line: list[Card]) -> bool:
    """Whether the contract is made at the end of ``line`` (a line to the end of the deal)."""
    from coinche.solver import outcome_score

    end = p.after(line)
    last = _winners(p, line)[-1] & 1
    points = (end.points[0] + 10 * (last == 0), end.points[1] + 10 * (last == 1))
    capot = 0 if end.tricks[1] == 0 else 1 if end.tricks[0] == 0 else None
    return outcome_score(p.rules, p.contract, points, capot, p.belote, p.announced).made


# ---------------------------------------------------------------- rating
def rating_of(found: dict[str, tuple[int, int]]) -> int:
    """A puzzle's rating from how often each rating bot found its solution (``{level: (found, tries)}``): for a
    bot of rating R that finds it with chance p (smoothed: (found + 1/2) / (tries + 1)), the puzzle's rating
    Q solves p = 1 / (1 + 10^((Q - R) / 400)), as Elo expects; the mean over the bots, within
    :data:`MIN_RATING` .. :data:`MAX_RATING`.

    >>> rating_of({"normal": (3, 3), "expert": (3, 3)}), rating_of({"normal": (0, 3), "expert": (0, 3)})
    (1362, 2038)
    >>> rating_of({"normal": (1, 3), "expert": (3, 3)})
    1575
    """
    ratings = dict(RATERS)
    estimates = []
    for level, (hits, tries) in found.items():
        p = (hits + 0.5) / (tries + 1)
        estimates.append(ratings[level] + 400 * math.log10((1 - p) / p))
    return max(MIN_RATING, min(MAX_RATING, round(sum(estimates) / len(estimates))))


def rate(deal: Deal, solution: Iterable[Card], tries: int = TRIES) -> dict[str, tuple[int, int]]:
    """How often each rating bot (:data:`RATERS`), seeded ``tries`` ways, plays a solution card from the seat's
    own view of ``deal``."""
    seat, wanted = deal.turn, {int(c) for c in solution}
    out = {}
    for level, _ in RATERS:
        hits = sum(int(make_bot(level, seed=f"puzzle-rating/{k}").act(deal.view(seat))) in wanted for k in range(tries))
        out[level] = (hits, tries)
    return out


# ---------------------------------------------------------------- finding puzzles
def position_of(deal: Deal, puzzle_id: str = "") -> Puzzle:
    """The deal's position (in its play) as an open puzzle, with no solution yet."""
    return Puzzle.of(id=puzzle_id, rules=deal.rules, contract=deal.contract,
                     hands=tuple(tuple(Card(c) for c in range(32) if h >> c & 1) for h in deal.hands),
                     leader=deal.leader, trick=tuple(Card(c) for c in deal.trick), points=tuple(deal.cards_won),
                     tricks=tuple(deal.tricks_won), belote=belote_side(deal), announced=announced_side_points(deal),
                     solution=())


def one_run(p: Puzzle, cards: list[Card]) -> bool:
    """Whether ``cards`` are one card up to equivalence: of one suit with no card between them that another
    seat holds or that is on the table (touching ranks, as the solver sees them)."""
    from coinche.cards import mask_of
    from coinche.solver import distinct

    live = mask_of([c for seat, h in enumerate(p.hands) if seat != p.to_play for c in h] + list(p.trick))
    return distinct(mask_of(cards), live, p.trump).bit_count() == 1


def forced_line(p: Puzzle, first: Card, margin: int) -> tuple[tuple[Card, ...], float | None]:
    """The line from ``first``: the other seats play a best card, the player's moves go on while each is the
    only best by ``margin`` (a set of equal cards: the lowest); it ends on the player's last forced move
    (``()`` when there is none after ``first``).  With the smallest gap of those moves (``None`` if none)."""
    line, forced, smallest = [first], 1, None
    at = p.after([first])
    while any(at.hands):
        best, gap = best_cards(solve_puzzle(at))
        if at.to_play == p.to_play:
            if gap is None or gap < margin:
                break
            forced = len(line) + 1
            smallest = gap if smallest is None else min(smallest, gap)
        line.append(best[0])
        at = at.after([best[0]])
    return (tuple(line[:forced]), smallest) if forced > 1 else ((), None)


def puzzles_of_deal(deal: Deal, bots, deal_id: str, margin: int = MARGIN, per_deal: int = PER_DEAL,
                    tries: int = TRIES) -> list[Puzzle]:
    """Play ``deal`` to its end with ``bots`` and return the puzzles found on the way (at most ``per_deal``,
    from different tricks, the widest margins first), each with its line, themes and rating.  The margin a
    puzzle states is the smallest gap of its moves, down to a multiple of ten."""
    found = []
    while not deal.is_over:
        if deal.phase.name == "PLAY" and sum(h.bit_count() for h in deal.hands) <= MAX_CARDS \
                and len(deal.legal_cards()) > 1:
            p = position_of(deal, f"{deal_id}.{len(deal.plays)}")
            values = solve_puzzle(p)
            best, gap = best_cards(values)
            if gap is not None and gap >= margin and one_run(p, best):
                found.append((gap, len(found), p, values, best, deal.clone()))
        deal.apply(bots[deal.turn].act(deal.view(deal.turn)))
    chosen, tricks = [], set()
    for gap, _, p, values, best, at in sorted(found, key=lambda f: (-f[0], f[1])):
        trick = p.tricks[0] + p.tricks[1]
        if trick in tricks or len(chosen) >= per_deal:
            continue
        tricks.add(trick)
        line, smallest = forced_line(p, best[0], margin)
        stated = int(gap if smallest is None else min(gap, smallest))
        done = replace(p, solution=tuple(best), margin=stated - stated % 10, line=line)
        done = replace(done, themes=themes_of(done, values), rating=rating_of(rate(at, best, tries)))
        chosen.append(Puzzle.from_json(done.to_json()))  # checked as any line read back
    return chosen


def generate(count: int, seed: str, bots_level: str = "normal", margin: int = MARGIN, out=None,
             progress=None, per_deal: int = PER_DEAL) -> list[Puzzle]:
    """At least ``count`` puzzles from deals ``derive_seed(seed, i)`` played by ``bots_level`` bots."""
    puzzles: list[Puzzle] = []
    i = 0
    tag = "".join(ch for ch in seed.rsplit("/", 1)[-1] if ch.isalnum())[:12] or "o"
    while len(puzzles) < count:
        deal = Deal.new("coinche", i & 3, derive_seed(seed, i))
        bots = [make_bot(bots_level, seed=f"{seed}/{i}/{s}") for s in range(4)]
        for p in puzzles_of_deal(deal, bots, f"{tag}.{i}", margin, per_deal):
            puzzles.append(p)
            if out is not None:
                out.write(p.to_json() + "\n")
                out.flush()
        i += 1
        if progress is not None:
            progress(i, len(puzzles))
    return puzzles


# ---------------------------------------------------------------- the command
def add_puzzle_gen_parser(subparsers) -> None:
    gen = subparsers.add_parser("puzzle-gen", help="open puzzles from the bots' own deals (docs/puzzles.md)")
    gen.add_argument("--puzzles", type=int, default=100, help="how many at least (default 100)")
    gen.add_argument("--seed", default="puzzles/1", help="the deals' seed (default puzzles/1)")
    gen.add_argument("--bots", choices=("easy", "normal", "expert"), default="normal", help="who plays the deals")
    gen.add_argument("--margin", type=int, default=MARGIN, help=f"points between the best card and the next (default {MARGIN})")
    gen.add_argument("--per-deal", type=int, default=PER_DEAL, help=f"puzzles a deal gives at most (default {PER_DEAL})")
    gen.add_argument("--out", help="write the JSON lines to this file (default: stdout)")
    gen.add_argument("--retag", metavar="FILE", help="instead: the puzzles of FILE with their themes detected anew")
    gen.set_defaults(func=cmd_puzzle_gen)


def retag(lines: Iterable[str]) -> Iterable[Puzzle]:
    """Each puzzle line read back with its themes detected anew (:func:`themes_of`), the rest kept."""
    for line in lines:
        if line.strip():
            p = Puzzle.from_json(line)
            yield replace(p, themes=themes_of(p))


def cmd_puzzle_gen(args: argparse.Namespace) -> int:
    started = time.process_time()
    out = open(args.out, "w", encoding="utf-8") if args.out else sys.stdout
    if args.retag:
        with open(args.retag, encoding="utf-8") as f:
            found = [p.to_json() + "\n" for p in retag(f.readlines())]
        out.writelines(found)
        if args.out:
            out.close()
        return 0

    def progress(deals: int, found: int) -> None:
        print(f"\r{deals} deals, {found} puzzles, {time.process_time() - started:.0f} s CPU", end="", file=sys.stderr)

    try:
        generate(args.puzzles, args.seed, args.bots, args.margin, out, progress, args.per_deal)
    finally:
        if args.out:
            out.close()
    print(file=sys.stderr)
    return 0


__all__ = ["generate", "puzzles_of_deal", "rating_of", "themes_of"]
