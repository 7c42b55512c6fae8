"""The ``coinche`` command line: ``judge``, ``simulate``, ``replay``, ``review``, ``par``, ``daily`` and ``rules``.

Run ``coinche COMMAND --help`` for each command's options.  More commands come from whatever is
registered under the entry-point group ``coinche.commands``: a function called with the command
line's sub-parsers.  The lab (``lab/coinche_lab``, installed for development by ``make venv``) adds
``arena`` and ``bidding`` that way; the engine never imports it.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from importlib.metadata import entry_points
from typing import Any, Callable, Iterable, Iterator, TextIO, TypeVar

from .announce import held
from .calls import PASS
from .cards import CARDS, SUIT_LETTERS, mask_of
from .deal import Deal, Phase
from .english import NOTES, RULE_3_FREE, RULE_TITLES, card_words, sentence, trump_phrase
from .errors import CoincheError
from .par import MAX_PAR_DEALS, PAR_DEALS
from .play import rule_position
from .position import Position
from .record import check, deal_to_record
from .rng import SplitMix64, derive_seed
from .rules import OPTIONS, PRESETS, Rules, describe

T = TypeVar("T")


# ---------------------------------------------------------------- judge
def ruling_json(position: Position) -> dict:
    ruling = rule_position(mask_of(position.hand), position.trick, position.trump)
    legal = ruling.legal
    return {
        "position": str(position),
        "rule": ruling.rule,
        "note": ruling.note,
        "legal": [str(c) for c in position.hand if legal >> c & 1],
        "forbidden": {
            str(f.card): {"rule": f.rule, "key": f.key, "params": f.params, "text": sentence(f.key, f.params)}
            for f in ruling.forbidden
        },
    }


def error_json(error: CoincheError, line: str | None = None) -> dict:
    out = {"error": error.to_json()}
    if line is not None:
        out["input"] = line
    return out


def judge_text(position: Position) -> str:
    ruling = position.ruling()
    seat_words = ("lead", "play second", "play third", "play fourth")[len(position.trick)]
    lines = [f"{trump_phrase(position.trump)}; you {seat_words}."]
    if position.partner_index is not None:
        lines.append(f"Your partner played the {card_words(str(position.trick[position.partner_index]))}.")
    title = RULE_3_FREE if ruling.rule == 3 and not ruling.forbidden else RULE_TITLES[ruling.rule]
    lines.append(f"Rule {ruling.rule} decides: {title}.")
    if ruling.note:
        lines.append(f"Note: {NOTES[ruling.note]}.")
    for card in position.hand:
        reason = ruling.reason(card)
        if reason is None:
            lines.append(f"  {card}  legal")
        else:
            lines.append(f"  {card}  forbidden (rule {reason.rule}): {sentence(reason.key, reason.params)}")
    return "\n".join(lines)


def judge_batch(lines: Iterable[str], out: TextIO) -> tuple[int, int]:
    """One JSON object per input line; a bad line gets an error object and the batch goes on.

    A line in the canonical notation (``trump=…&trick=…&hand=…``, as ``str(Position)`` prints it)
    takes a fast path that writes the same JSON as :func:`ruling_json`; any other line, and every
    invalid one, goes through :meth:`Position.parse`.
    """
    dumps = json.dumps
    cache: dict[str, str] = {}
    fragments: dict[tuple, str] = {}
    ok = bad = 0
    write = out.write
    for raw in lines:
        line = raw.strip()
        text = cache.get(line)
        if text is None:
            text = _canonical_ruling_json(line, fragments)
            if text is not None:
                ok += 1
            else:
                try:
                    text = dumps(ruling_json(Position.parse(line)), separators=(",", ":"))
                    ok += 1
                except CoincheError as e:
                    text = dumps(error_json(e, line), separators=(",", ":"))
                    bad += 1
            if len(cache) < 100_000:
                cache[line] = text
        write(text + "\n")
    return ok, bad


_SUIT_INDEX = {letter: i for i, letter in enumerate(SUIT_LETTERS)}
_CARD_INDEX = {str(card): int(card) for card in CARDS}


def _canonical_ruling_json(line: str, fragments: dict[tuple, str]) -> str | None:
    """The compact JSON of :func:`ruling_json` for a valid position written canonically, else ``None``.

    ``fragments`` caches the JSON of each forbidden card with its reason across calls.
    """
    parts = line.split("&")
    if len(parts) != 3:
        return None
    trump_part, trick_part, hand_part = parts
    if trump_part[:6] != "trump=" or trick_part[:6] != "trick=" or hand_part[:5] != "hand=":
        return None
    trump = _SUIT_INDEX.get(trump_part[6:])
    trick_names = trick_part[6:].split(",") if len(trick_part) > 6 else []
    hand_names = hand_part[5:].split(",")
    if trump is None or len(trick_names) > 3 or len(hand_names) > 8:
        return None
    index = _CARD_INDEX
    try:
        trick = [index[name] for name in trick_names]
        hand = [index[name] for name in hand_names]
    except KeyError:
        return None
    hand_mask = 0
    for c in hand:
        hand_mask |= 1 << c
    seen = hand_mask
    for c in trick:
        seen |= 1 << c
    if seen.bit_count() != len(trick) + len(hand):
        return None  # a card twice
    ruling = rule_position(hand_mask, trick, trump)
    legal = ruling.legal
    forbidden = []
    for f in ruling.forbidden:
        key = (f.card, f.rule, f.key, *f.params.values())
        fragment = fragments.get(key)
        if fragment is None:
            body = {"rule": f.rule, "key": f.key, "params": f.params, "text": sentence(f.key, f.params)}
            fragment = fragments[key] = f'"{f.card}":' + json.dumps(body, separators=(",", ":"))
        forbidden.append(fragment)
    note = "null" if ruling.note is None else f'"{ruling.note}"'
    legal_names = ",".join(f'"{name}"' for name, c in zip(hand_names, hand) if legal >> c & 1)
    return (f'{{"position":"{line}","rule":{ruling.rule},"note":{note},"legal":[{legal_names}],'
            f'"forbidden":{{{",".join(forbidden)}}}}}')


def cmd_judge(args: argparse.Namespace) -> int:
    if args.batch:
        ok, bad = judge_batch(sys.stdin, sys.stdout)
        return 0
    if not args.position:
        print("coinche judge: give a POSITION, or --batch to read positions from stdin", file=sys.stderr)
        return 2
    try:
        position = Position.parse(args.position)
    except CoincheError as e:
        if args.json:
            print(json.dumps(error_json(e, args.position)))
        print(f"coinche judge: invalid position: {e}", file=sys.stderr)
        return 2
    print(json.dumps(ruling_json(position)) if args.json else judge_text(position))
    return 0


# ---------------------------------------------------------------- simulate
class RandomPlayer:
    """Random legal calls (a pass half the time, so auctions vary) and random legal cards."""

    def __init__(self, seed: int | str) -> None:
        self.rng = SplitMix64(seed)

    def choose(self, deal: Deal):
        rng = self.rng
        if deal.phase == Phase.AUCTION:
            calls = deal.legal_calls()
            if rng.next64() & 1:
                return PASS
            return calls[rng.below(len(calls))]
        mask = deal.legal_mask()
        n = mask.bit_count()
        k = rng.below(n) if n > 1 else 0
        while k:
            mask &= mask - 1
            k -= 1
        return (mask & -mask).bit_length() - 1


def play_deal(deal: Deal, choose) -> Deal:
    """Play ``deal`` out with ``choose(deal)`` for each call and card; each player declares every
    announcement it holds."""
    while deal.phase != Phase.OVER:
        if deal.may_declare:
            deal.announce(held(deal.hands[deal.turn]))
        action = choose(deal)
        if deal.phase == Phase.AUCTION:
            deal.call(action)
        else:
            deal.play(action)
    return deal


def cmd_simulate(args: argparse.Namespace) -> int:
    out = open(args.out, "w", encoding="utf-8") if args.out else sys.stdout
    players = None
    if args.bots:
        from .bots import bot_turn, make_bot

        players = [make_bot(level, seed=derive_seed(args.seed, 1000 + s)) for s, level in enumerate(args.bots)]
    else:
        random_player = RandomPlayer(args.seed)
    start = time.perf_counter()
    totals = [0, 0]
    made = void = 0
    dumps = json.dumps
    progress = args.out is not None and sys.stderr.isatty()
    rules = Rules.for_table(args.rules, args.variant)
    try:
        for i in range(args.deals):
            deal_seed = derive_seed(args.seed, i)
            deal = Deal.new(rules, i & 3, deal_seed)
            if players is None:
                play_deal(deal, random_player.choose)
            else:
                while deal.phase != Phase.OVER:
                    bot_turn(deal, players[deal.turn])
            record = deal_to_record(deal)
            if args.bots:
                record["seats"] = list(args.bots)
            record["seed"] = str(deal_seed)
            out.write(dumps(record, separators=(",", ":")))
            out.write("\n")
            a, b = deal.scores
            totals[0] += a
            totals[1] += b
            void += deal.void
            made += bool(deal.score and deal.score.made)
            if progress and i % 1000 == 999:
                print(f"\r{i + 1}/{args.deals} deals", end="", file=sys.stderr)
    finally:
        if args.out:
            out.close()
    elapsed = time.perf_counter() - start
    played = args.deals - void
    house = "" if rules.is_own else f" (rules {rules})"
    print(
        f"{args.deals} {rules.variant} deals{house} in {elapsed:.2f} s ({args.deals / max(elapsed, 1e-9):,.0f}/s): "
        f"{void} void, {made}/{played} contracts made, points {totals[0]} to {totals[1]}",
        file=sys.stderr,
    )
    return 0


# ---------------------------------------------------------------- replay
def _result_text(result: dict) -> str:
    if result["void"]:
        return "void"
    cards, scores = result["cards"], result["scores"]
    return f"cards {cards[0]}-{cards[1]}, scores {scores[0]}-{scores[1]}"


def cmd_what_if(args: argparse.Namespace) -> int:
    from .whatif import parse_line, what_if

    with open(args.file, encoding="utf-8") as f:
        lines = [line for line in f if line.strip()]
    if not 1 <= args.deal <= len(lines):
        print(f"{args.file}: no record {args.deal} (it holds {len(lines)})", file=sys.stderr)
        return 2
    try:
        branch = what_if(json.loads(lines[args.deal - 1]), parse_line(args.what_if), by=args.by)
    except json.JSONDecodeError as e:
        print(f"{args.file}:{args.deal}: not JSON: {e}", file=sys.stderr)
        return 1
    except CoincheError as e:
        print(f"{args.file}:{args.deal}: {e}", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(branch))
        return 0
    real, result = branch["real"], branch["result"]
    print(f"what if {branch['line']} (by {branch['by']}): {_result_text(result)}; the deal: {_result_text(real)}")
    print("plays: " + ",".join(branch["record"]["plays"]))
    return 0


def read_lines(lines: Iterable[str], read: Callable[[str], T]) -> Iterator[tuple[int, T | None, Exception | None]]:
    """Each line that is not blank, by its number (from 1) and what ``read`` made of it: ``(number, item, None)``,
    or ``(number, None, error)`` when ``read`` refused it with a :class:`CoincheError` or a
    :class:`json.JSONDecodeError`."""
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            item = read(line)
        except (json.JSONDecodeError, CoincheError) as e:
            yield number, None, e
            continue
        yield number, item, None


class JsonLines:
    """The records of a JSON-lines file, each read by ``read`` (a function of the decoded line): iterating gives
    ``(line number, item)``; a line that is not JSON or that ``read`` refuses (a :class:`CoincheError`) is
    named on stderr, ``FILE:N: not JSON: …`` or ``FILE:N: the error``, counted in ``bad`` and skipped."""

    def __init__(self, path: str, read: Callable[[Any], T]) -> None:
        self.path, self.read, self.bad = path, read, 0

    def __iter__(self) -> Iterator[tuple[int, T]]:
        with open(self.path, encoding="utf-8") as f:
            for number, item, error in read_lines(f, lambda line: self.read(json.loads(line))):
                if error is None:
                    yield number, item
                    continue
                self.bad += 1
                why = f"not JSON: {error}" if isinstance(error, json.JSONDecodeError) else str(error)
                print(f"{self.path}:{number}: {why}", file=sys.stderr)


def cmd_replay(args: argparse.Namespace) -> int:
    if args.what_if:
        return cmd_what_if(args)
    records = JsonLines(args.file, check)
    ok = sum(1 for _ in records)
    print(f"{ok} records replayed and checked, {records.bad} wrong")
    return 0 if records.bad == 0 else 1


# ---------------------------------------------------------------- review
REVIEW_REASONS = {
    "trumped_partner": "you trumped the trick your partner was winning with the {card}",
    "kept_master": "an opponent was winning and you held the {card}, which would have taken the trick",
    "wasted_master": "your partner was winning: the {card} could have won a trick of its own",
    "gave_points": "an opponent was winning and you gave them the {card}",
    "belote_kept": "the {card} of the belote was the card to play",
    "missed_load": "your partner was winning: the {card} would have given them its points",
}


REVIEW_PLURALS = {"inaccuracy": "inaccuracies", "mistake": "mistakes", "blunder": "blunders"}
REVIEW_LUCK = {
    "unlucky": "unlucky (the best choice with what you knew, costly with the cards as they lay)",
    "lucky": "lucky (a costly choice with what you knew that cost nothing here)",
}


def review_lines(result: dict) -> list[str]:
    """The review in English: one line per decision, then the summary."""
    from .english import card_words

    lines = []
    for d in result["decisions"]:
        where = f"call {d['index'] + 1}" if d["kind"] == "call" else f"trick {d['trick']}"
        line = f"  seat {d['seat']}  {where:<8} {d['action']:<10} Expert: {d['best']:<10}"
        line += f" expected {d['played_score']:+.0f} / {d['best_score']:+.0f}"
        if d["kind"] == "call":
            made = [f"{d[k + '_contract']} made {d[k + '_chance']}%" for k in ("played", "best")
                    if d[k + "_chance"] is not None]
            line += "".join(f"  {m}" for m in dict.fromkeys(made))
        if d["mark"]:
            line += f"  lost {d['loss']:.0f}: {d['mark']}"
        if d["reason"]:
            words = {k: card_words(v) if k == "card" else v for k, v in d["reason"]["params"].items()}
            line += f" ({REVIEW_REASONS[d['reason']['key']].format(**words)})"
        if d.get("hindsight_loss"):
            best = "best sound call" if d["kind"] == "call" else "best"
            line += f"  in hindsight lost {d['hindsight_loss']:.0f} ({best} {d['hindsight_best']})"
        if d.get("luck"):
            line += f": {REVIEW_LUCK[d['luck']]}"
        lines.append(line)
    summary = result["summary"]
    marks = ", ".join(f"{n} {name if n == 1 else REVIEW_PLURALS[name]}" for name, n in summary["marks"].items())
    luck = summary.get("luck", {})
    lines.append(f"  {summary['decisions']} decisions, {summary['lost']} points lost: {marks}; "
                 f"{luck.get('unlucky', 0)} unlucky, {luck.get('lucky', 0)} lucky")
    return lines


def _review_seats(record, args: argparse.Namespace) -> list[int] | None:
    """The seats to review in ``record``: ``--seat``, the player's (``--player``: the seat of a history line that
    the site exported, ``history.seat``, else 0), or all four (None)."""
    if args.player:
        about = record.get("history") if isinstance(record, dict) else None
        seat = about.get("seat") if isinstance(about, dict) else None
        return [seat if seat in (0, 1, 2, 3) and not isinstance(seat, bool) else 0]
    return None if args.seat is None else [args.seat]


def cmd_review(args: argparse.Namespace) -> int:
    from .review import review

    reviews = JsonLines(args.file, lambda record: review(record, _review_seats(record, args)))
    for number, result in reviews:
        if args.json:
            print(json.dumps({"line": number, **result}, separators=(",", ":")))
        else:
            print(f"{args.file}:{number}: review {result['key']} (points: the side's score minus the opponents'; "
                  + ", ".join(f"{name} from {points}" for name, points in result["thresholds"].items()) + ")")
            print("\n".join(review_lines(result)))
    return 0 if reviews.bad == 0 else 1


# ---------------------------------------------------------------- par
def history_seats(record: dict) -> list[str] | None:
    """Who sat where in a line of the site's history file that predates the records' ``seats``: the player in
    ``history.seat``, the bots of ``history.level`` elsewhere (a solo deal's); ``None`` when it does not say."""
    about = record.get("history")
    if not isinstance(about, dict) or about.get("online") or about.get("level") not in ("easy", "normal", "expert"):
        return None
    seat = about.get("seat")
    seat = seat if seat in (0, 1, 2, 3) and not isinstance(seat, bool) else 0
    return ["person" if s == seat else about["level"] for s in range(4)]


def _par_requests(args: argparse.Namespace) -> tuple[list, int]:
    """Each good line of the file as ``(line number, deal, seat, bots, result)``; each bad one named on stderr."""
    from .par import par_bots, record_score
    from .record import dealt

    def request(record):
        seat = _review_seats(record, args)[0]
        if isinstance(record, dict) and "seats" not in record and history_seats(record):
            record = {**record, "seats": history_seats(record)}
        result = record_score(record, seat)
        return dealt(record), seat, par_bots(record, seat, args.bots), result

    lines = JsonLines(args.file, request)
    requests = [(number, *item) for number, item in lines]
    return requests, lines.bad


def cmd_par(args: argparse.Namespace) -> int:
    from .par import Par, replay_job

    if args.seat is None and not args.player:
        print("coinche par: give --seat N or --player", file=sys.stderr)
        return 2
    requests, bad = _par_requests(args)
    jobs = [(deal, seat, i, bots) for _, deal, seat, bots, _ in requests for i in range(args.k)]
    if args.jobs > 1 and len(jobs) > 1:
        from concurrent.futures import ProcessPoolExecutor

        pool = ProcessPoolExecutor(max_workers=args.jobs)
        scores = pool.map(replay_job, jobs, chunksize=max(1, min(args.k, len(jobs) // (4 * args.jobs))))
    else:
        pool = None
        scores = map(replay_job, jobs)
    try:
        for number, _, seat, bots, result in requests:
            p = Par(seat, bots, tuple(next(scores) for _ in range(args.k)), result)
            if args.json:
                print(json.dumps({"line": number, **p.to_json()}, separators=(",", ":")), flush=True)
            else:
                error = "" if p.stderr is None else f" ± {p.stderr:.1f}"
                print(f"{args.file}:{number}: seat {seat}: par {p.mean:+.1f}{error} (the Expert, {p.k} replays), "
                      f"result {p.result:+d}, difference {p.difference:+.1f}", flush=True)
    finally:
        if pool is not None:
            pool.shutdown(cancel_futures=True)
    return 0 if bad == 0 else 1


# ---------------------------------------------------------------- daily
def cmd_daily(args: argparse.Namespace) -> int:
    from .daily import daily_set, today

    try:
        deals = daily_set(today() if args.date is None else args.date)
    except CoincheError as e:
        print(f"coinche daily: {e}", file=sys.stderr)
        return 2
    for d in deals:
        print(json.dumps(d.start_record(), separators=(",", ":")))
    return 0


# ---------------------------------------------------------------- rules
def rules_lines(rules: Rules | None) -> list[str]:
    """``coinche rules``: the options and presets in English, or what one notation means."""
    from .english import RULE_OPTIONS

    if rules is not None:
        lines = [f"{rules}: {'the game' + chr(39) + 's own rules' if rules.is_own else 'house rules'}"]
        for option in OPTIONS:
            value = option.text(getattr(rules, option.field))
            summary, meanings = RULE_OPTIONS[option.name]
            mark = "  (house rule)" if option.name in rules.changes() else ""
            lines.append(f"  {option.name}={value}: {meanings.get(value, value)}{mark}")
        return lines
    lines = ["The rules notation: options name=value separated by commas, or a preset, optionally followed by",
             "options that change it (e.g. 'de-2000,target=1000'). Only options that differ from the game's own",
             "are printed. Options (the game's own value first):"]
    for option in OPTIONS:
        summary, meanings = RULE_OPTIONS[option.name]
        lines.append(f"  {option.name}: {summary}")
        lines.extend(f"      {v}: {meanings.get(v, v)}" for v in option.texts)
    lines.append("Presets:")
    for name, preset in PRESETS.items():
        lines.append(f"  {name}: {preset.options_text() or 'the game' + chr(39) + 's own rules'}")
    return lines


def cmd_rules(args: argparse.Namespace) -> int:
    rules = None if args.notation is None else Rules.parse(args.notation)
    if args.json:
        data = describe() if rules is None else rules.to_json()
        print(json.dumps(data, indent=1))
    else:
        print("\n".join(rules_lines(rules)))
    return 0


# ---------------------------------------------------------------- puzzles
def check_puzzle_lines(lines: Iterable[str]) -> Iterable[tuple[int, str, dict | None]]:
    """Each puzzle line re-solved: ``(line number, id, None)`` when it holds, else ``(number, id, reason)`` with
    the reason as ``{key, params}``; a line that does not read gives the id ``""`` and its error (blank lines
    skipped, an id seen before is a reason too)."""
    from .puzzle import Puzzle, check_puzzle

    seen: set[str] = set()
    for number, puzzle, e in read_lines(lines, Puzzle.from_json):
        if e is not None:
            yield number, "", {"key": e.key, "params": e.params}
            continue
        if puzzle.id in seen:
            yield number, puzzle.id, {"key": "puzzle_duplicate_id", "params": {"id": puzzle.id}}
            continue
        seen.add(puzzle.id)
        yield number, puzzle.id, check_puzzle(puzzle)


def cmd_puzzles(args: argparse.Namespace) -> int:
    started = time.process_time()
    held_ = failed = skipped = 0
    with open(args.check, encoding="utf-8") as f:
        for number, puzzle_id, reason in check_puzzle_lines(f):
            if reason is None:
                held_ += 1
                continue
            text = CoincheError(reason["key"], **reason["params"]).english()
            if puzzle_id:
                failed += 1
                print(f"{args.check}:{number}: {puzzle_id}: {text}")
            else:
                skipped += 1
                print(f"{args.check}:{number}: skipped: {text}")
    print(f"{held_ + failed} puzzles re-solved: {held_} hold, {failed} do not; {skipped} lines skipped "
          f"({time.process_time() - started:.1f} s CPU)")
    return 0 if failed == skipped == 0 else 1


# ---------------------------------------------------------------- main
#: The entry-point group of the commands that other packages add (a function of the sub-parsers).
COMMANDS_GROUP = "coinche.commands"
#: The lab's commands, named only to say what is missing when the lab is not installed.
LAB_COMMANDS = ("arena", "bidding", "par-levels", "puzzle-gen")


def _count_argument(limit: int):
    def count(text: str) -> int:
        if not text.isdigit() or not 1 <= int(text) <= limit:
            raise argparse.ArgumentTypeError(f"a whole number from 1 to {limit}, not {text!r}")
        return int(text)
    return count


def _bots_argument(text: str) -> tuple[str, ...]:
    from .par import parse_bots

    try:
        return parse_bots(text)
    except CoincheError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="coinche", description="Belote coinchée: judge, simulate, replay, review, par, daily.")
    sub = parser.add_subparsers(dest="command", required=True)

    judge = sub.add_parser("judge", help="which cards may be played in a position, and why")
    judge.add_argument("position", nargs="?", help="e.g. 'trump=h&trick=8h,Ah,7c&hand=Jh,Kd,7s'")
    judge.add_argument("--json", action="store_true", help="print one JSON object")
    judge.add_argument("--batch", action="store_true", help="read one position per line on stdin, write JSON lines")
    judge.set_defaults(func=cmd_judge)

    simulate = sub.add_parser("simulate", help="play deals and write their records as JSON lines")
    simulate.add_argument("--variant", choices=("coinche", "classic"), help="replaces the rules' variant")
    simulate.add_argument("--rules", metavar="TEXT", help="the table's rules (see `coinche rules`; default: the game's own)")
    simulate.add_argument("--deals", type=int, default=100)
    simulate.add_argument("--seed", default="0")
    simulate.add_argument("--out", help="write records to this file (default: stdout)")
    simulate.add_argument("--bots", type=_bots_argument, metavar="LEVEL[,LEVEL,LEVEL,LEVEL]",
                          help="bots instead of random play: one level (easy, normal, expert) for the four seats, "
                               "or one per seat from 0 (the records say so in their seats)")
    simulate.set_defaults(func=cmd_simulate)

    rep = sub.add_parser("replay", help="re-check every record of a JSON-lines file (the site's history file too)")
    rep.add_argument("file")
    rep.add_argument("--what-if", metavar="PLY:MOVE[,PLY:MOVE...]",
                     help="branch the deal of --deal at decision PLY (0-based, calls then cards) with MOVE and play it out")
    rep.add_argument("--by", choices=("expert", "dd"), default="expert", help="who plays the branch out (default: expert)")
    rep.add_argument("--deal", type=int, default=1, metavar="N", help="the record (line number, from 1) to branch")
    rep.add_argument("--json", action="store_true", help="the branch as JSON (with its whole record)")
    rep.set_defaults(func=cmd_replay)

    rev = sub.add_parser("review", help="the Expert's review of each deal of a JSON-lines file of records")
    rev.add_argument("file")
    seat = rev.add_mutually_exclusive_group()
    seat.add_argument("--seat", type=int, choices=range(4), help="review this seat only (default: all four)")
    seat.add_argument("--player", action="store_true",
                      help="review the player's seat of each line of the site's history file (its history.seat)")
    rev.add_argument("--json", action="store_true", help="one JSON object per deal")
    rev.set_defaults(func=cmd_review)

    par = sub.add_parser("par", help="the par of each deal of a JSON-lines file: the Expert's mean score from a seat")
    par.add_argument("file")
    seat = par.add_mutually_exclusive_group()
    seat.add_argument("--seat", type=int, choices=range(4), help="the seat whose par is taken")
    seat.add_argument("--player", action="store_true",
                      help="the player's seat of each line of the site's history file (its history.seat)")
    par.add_argument("--k", type=_count_argument(MAX_PAR_DEALS), default=PAR_DEALS, metavar="K",
                     help=f"replays per deal (default {PAR_DEALS}, docs/bots.md says why)")
    par.add_argument("--jobs", type=_count_argument(64), default=1, metavar="J", help="replay on J processes (default 1)")
    par.add_argument("--bots", type=_bots_argument, metavar="LEVEL[,LEVEL,LEVEL,LEVEL]",
                     help="the bots that sat in the seats (default: the record's seats)")
    par.add_argument("--json", action="store_true", help="one JSON object per deal: par, result, difference, k, stderr")
    par.set_defaults(func=cmd_par)

    daily = sub.add_parser("daily", help="the deals of the day, as records' starting positions (JSON lines)")
    daily.add_argument("--date", metavar="YYYY-MM-DD", help="the day (default: today in UTC)")
    daily.set_defaults(func=cmd_daily)

    rules = sub.add_parser("rules", help="the house-rule options, the presets, or what a rules notation means")
    rules.add_argument("notation", nargs="?", help="e.g. 'de-2000' or 'open=82,round=5up'")
    rules.add_argument("--json", action="store_true", help="the same as data")
    rules.set_defaults(func=cmd_rules)

    puzzles = sub.add_parser("puzzles", help="re-solve every puzzle of a JSON-lines file (docs/puzzles.md)")
    puzzles.add_argument("--check", metavar="FILE", required=True,
                         help="name each line that does not hold (its solution not exactly the best cards, its margin "
                              "not held) or does not read")
    puzzles.set_defaults(func=cmd_puzzles)

    for command in entry_points(group=COMMANDS_GROUP):
        command.load()(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] in LAB_COMMANDS and not entry_points(group=COMMANDS_GROUP):
        print(f"coinche {argv[0]}: a command of the lab (lab/coinche_lab), which is not installed here: "
              "run `make venv` (pip install -e .) in a clone of the repository", file=sys.stderr)
        return 2
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except BrokenPipeError:
        return 0
    except (OSError, ValueError) as e:
        print(f"coinche {args.command}: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
