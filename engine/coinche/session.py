"""A game session: one match, the seats the humans hold, bots in the others, and a save that replays.

This is what the web worker and the 1v1 referee drive.  A session is rebuilt exactly from
its snapshot (settings + every action in order), so a match in progress survives a reload.

>>> s = Session.new(variant="classic", target=501, level="easy", seed="doc")
>>> while s.match.current_player != 0:
...     _ = s.bot_step()
>>> again = Session.from_snapshot(s.snapshot())
>>> again.state(0) == s.state(0)
True
"""

from __future__ import annotations

from typing import Any

from .calls import Call
from .cards import Card, card_name
from .announce import format_announcements, parse_announcements
from .deal import ANNOUNCE, Phase
from .errors import CoincheError
from .match import Match
from .play import trick_points
from .rng import derive_seed
from .record import LEVELS, PERSON
from .rules import TARGETS, VARIANTS, Rules, RulesError

FORMAT = "coinche-session/1"
#: The bots' level of a match started without one.
DEFAULT_LEVEL = "normal"


def last_trick_json(deal) -> dict[str, Any]:
    """The deal's last completed trick: leader, cards, winner, and its points (the dix de der included)."""
    leader, cards, winner = deal.tricks[-1]
    points = trick_points(cards, deal.trump) + (10 if len(deal.tricks) == 8 else 0)
    return {"leader": leader, "cards": [card_name(c) for c in cards], "winner": winner, "points": points}


class SessionError(CoincheError, ValueError):
    """A snapshot that is corrupt (``save_corrupt``) or from another release (``save_old``)."""


def dealer_before(humans: tuple[int, ...]) -> int:
    """The dealer whose deal the first human speaks in first (the seat after the dealer speaks first).

    >>> dealer_before((0,)), dealer_before((2, 3)), dealer_before(())
    (3, 1, 0)
    """
    return (humans[0] - 1) & 3 if humans else 0


def announce_advice(coach, view) -> dict[str, Any] | None:
    """The coach's word at a seat's first card of a table of announcements: the declaration its bot makes
    (``announce:…``), key and parameters; ``None`` where the seat has nothing to declare now."""
    if not view.announceable:
        return None
    chosen, key, params = coach.explain_announce(view)
    return {"call": ANNOUNCE + format_announcements(chosen), "key": key, "params": params}


def make_bot(level: str, seed: int):
    from .bots import make_bot as make

    return make(level, seed=seed)


def settings_rules(settings: dict[str, Any]) -> Rules:
    """The rules of a session's settings: ``rules`` (house rules) when present, else the game's own, with the
    settings' variant and target; an unknown option raises ``unknown_rule_option`` / ``bad_rule_value``."""
    text = settings.get("rules")
    rules = Rules() if text is None else Rules.parse(text)
    return rules.with_match(settings["variant"], settings["target"])


#: Refusals of an action that only a house rule the table does not play allows (a save's actions are refused
#: with them as they are, not as a corrupt save).
RULES_NOT_PLAYED = ("contract_not_played", "announce_not_played")


class Session:
    def __init__(self, settings: dict[str, Any]) -> None:
        self.settings = settings
        deal_seed = settings.get("deal_seed")
        self.rules = settings_rules(settings)
        self.match = Match(self.rules, seed=settings["seed"],
                           first_dealer=settings.get("first_dealer", 0),
                           first_deal_seed=None if deal_seed is None else int(deal_seed))
        self.actions: list[str] = []
        self.humans = tuple(settings.get("humans", (0,)))
        self._bots: dict[tuple[int, int], Any] = {}

    @classmethod
    def new(cls, variant: str | None = None, target: int | None = None, level: str = DEFAULT_LEVEL,
            seed: int | str | None = None, humans: tuple[int, ...] = (0,),
            deal_seed: int | str | None = None, first_dealer: int | None = 0,
            rules: Rules | str | None = None) -> "Session":
        """A new match; ``deal_seed`` and ``first_dealer`` deal its first deal as a shared one (the seed
        and dealer of ``state()["deal_seed"]`` and ``["deal"]["dealer"]``), the next ones from ``seed``.

        ``first_dealer=None``: the seat before the first human deals, so that a human speaks first
        (:func:`dealer_before`); the dealer rotates from there.  ``rules``: the table's rules (a
        :class:`~coinche.rules.Rules` or its notation, which an unknown option makes raise
        ``unknown_rule_option``); ``variant`` and ``target``, when given, replace the rules' own."""
        if isinstance(rules, str):
            rules = Rules.parse(rules)
        rules = rules or Rules()
        variant = rules.variant if variant is None else variant
        target = rules.target if target is None else target
        if variant not in VARIANTS:
            raise CoincheError("bad_option", name="variant", value=variant)
        if target not in TARGETS:
            raise CoincheError("bad_option", name="target", value=target)
        rules = rules.with_match(variant, target)
        if level not in LEVELS:
            raise CoincheError("bad_option", name="level", value=level)
        if seed is None:
            import os

            seed = os.urandom(8).hex()
        settings = {"variant": variant, "target": target, "level": level, "seed": str(seed), "humans": list(humans)}
        if not rules.is_own:
            settings["rules"] = str(rules)  # absent for the game's own rules: a save as before
        if deal_seed is not None:
            text = str(deal_seed)
            if not text.isdigit() or int(text) >> 64:
                raise CoincheError("bad_option", name="deal_seed", value=text)
            settings["deal_seed"] = text  # text: a 64-bit integer does not survive JSON numbers in a browser
        if first_dealer is None:
            first_dealer = dealer_before(humans)
        if first_dealer != 0:
            if first_dealer not in (0, 1, 2, 3):
                raise CoincheError("bad_option", name="first_dealer", value=first_dealer)
            settings["first_dealer"] = first_dealer
        return cls(settings)

    # ------------------------------------------------------------ save and restore
    def snapshot(self) -> dict[str, Any]:
        from . import __version__

        return {"format": FORMAT, "engine": __version__, "settings": dict(self.settings), "actions": list(self.actions)}

    @classmethod
    def from_snapshot(cls, snapshot: Any) -> "Session":
        if not isinstance(snapshot, dict) or "format" not in snapshot:
            raise SessionError("save_corrupt", detail="not a saved game")
        if snapshot["format"] != FORMAT:
            raise SessionError("save_old", detail=str(snapshot["format"]))
        settings = snapshot.get("settings")
        actions = snapshot.get("actions")
        if not isinstance(settings, dict) or not isinstance(actions, list):
            raise SessionError("save_corrupt", detail="settings or actions missing")
        try:
            session = cls.new(
                settings["variant"], settings["target"], settings["level"], settings["seed"],
                tuple(settings.get("humans", (0,))), settings.get("deal_seed"), settings.get("first_dealer", 0),
                settings_rules(settings),
            )
            for i, action in enumerate(actions):
                if not isinstance(action, str):
                    raise SessionError("save_corrupt", detail=f"action {i + 1} is not text")
                session._apply(action)
        except (SessionError, RulesError):
            raise  # an unknown rule option is named as such: the save is kept, not called corrupt
        except CoincheError as e:
            if e.key in RULES_NOT_PLAYED:  # an action of a house rule the save's rules do not play: named so
                raise
            raise SessionError("save_corrupt", detail=str(e)) from None
        except (KeyError, TypeError, ValueError) as e:
            raise SessionError("save_corrupt", detail=str(e)) from None
        return session

    # ------------------------------------------------------------ actions
    def _apply(self, action: str, seat: int | None = None) -> dict[str, Any]:
        match = self.match
        deal = match.deal
        before_tricks, before_ann = len(deal.tricks), len(deal.announcements)
        actor = deal.turn
        kind = "announce" if action.startswith(ANNOUNCE) else "call" if deal.phase == Phase.AUCTION else "card"
        match.apply(action, seat)
        self.actions.append(action)
        event: dict[str, Any] = {"seat": actor, "action": action, "type": kind}
        if len(deal.announcements) > before_ann:
            event["announce"] = deal.announcements[-1][1]
        if len(deal.tricks) > before_tricks:
            event["trick"] = dict(last_trick_json(deal), last=len(deal.tricks) == 8)
        if deal.is_over:
            match.history[-1]["seats"] = self.seats()
            event["deal_end"] = {
                "record": match.history[-1],
                "totals": list(match.totals),
                "parts": [] if deal.score is None else deal.score.parts_json(),
            }
            if deal.score is not None and deal.rules.announce:  # each announcement, what it gave and to whom
                event["deal_end"]["announcements"] = deal.score.announcements_json()
            if match.is_over:
                event["match_over"] = {"winner": match.winner, "totals": list(match.totals)}
        return event

    def seats(self) -> list[str]:
        """Who sits in each seat, as a record's ``seats`` say it: ``"person"`` or the bots' level.

        >>> Session.new(level="expert", seed="doc", humans=(0, 2)).seats()
        ['person', 'expert', 'person', 'expert']
        """
        return [PERSON if seat in self.humans else self.settings["level"] for seat in range(4)]

    def act(self, seat: int, action: str) -> dict[str, Any]:
        """A human's action, checked (turn, legality); raises a :class:`CoincheError` subclass."""
        if seat not in self.humans:
            raise CoincheError("out_of_turn", seat=seat, expected=self.match.current_player)
        action = self._normalise(action)
        return self._apply(action, seat)

    def _normalise(self, action: str) -> str:
        if not isinstance(action, str):
            raise CoincheError("unknown_call", text=repr(action))
        if action.startswith(ANNOUNCE):
            return ANNOUNCE + format_announcements(parse_announcements(action[len(ANNOUNCE):]))
        if self.match.deal.phase == Phase.AUCTION:
            return str(Call.parse(action))
        return str(Card.parse(action))

    def bot_for(self, seat: int):
        key = (self.match.deal_index, seat)
        bot = self._bots.get(key)
        if bot is None:
            self._bots = {k: v for k, v in self._bots.items() if k[0] == self.match.deal_index}
            bot = make_bot(self.settings["level"], derive_seed(self.settings["seed"], 100_000 + key[0] * 4 + seat))
            self._bots[key] = bot
        return bot

    def replace_by_bot(self, seat: int) -> None:
        """Give a human's seat to a bot for the rest of the match (the 1v1 referee, when a player leaves).

        The actions played so far stay as they are, so the snapshot still replays.
        """
        if seat in self.humans:
            self.humans = tuple(s for s in self.humans if s != seat)
            self.settings["humans"] = list(self.humans)

    def take_back(self, seat: int) -> None:
        """Give a seat a bot held back to a human (a friends' table: its player came back with their token).

        >>> s = Session.new(seed="doc", humans=(0, 1))
        >>> s.replace_by_bot(1); s.take_back(1); s.humans, s.settings["humans"]
        ((0, 1), [0, 1])
        """
        if seat not in self.humans and seat in (0, 1, 2, 3):
            self.humans = tuple(sorted((*self.humans, seat)))
            self.settings["humans"] = list(self.humans)

    def bot_turn(self) -> tuple[int, Any, Any] | None:
        """``(seat, bot, view)`` for the bot to move; ``None`` when a human is to move or the match is over.

        For a caller that lets the bot think elsewhere (the referee's worker processes: bot and view
        pickle) and then applies its answer with :meth:`bot_apply`; :meth:`bot_step` does both here.
        """
        match = self.match
        seat = match.current_player
        if seat < 0 or seat in self.humans:
            return None
        return seat, self.bot_for(seat), match.deal.view(seat)

    def bot_apply(self, seat: int, action: Any) -> dict[str, Any]:
        """Apply the action the bot of ``seat`` chose, checked (turn, legality) like a human's."""
        if seat in self.humans:
            raise CoincheError("out_of_turn", seat=seat, expected=self.match.current_player)
        deal = self.match.deal
        if deal.may_declare and deal.turn == seat:
            self._apply(ANNOUNCE + format_announcements(self.bot_for(seat).announce(deal.view(seat))), seat)
        return self._apply(str(action), seat)

    def bot_step(self) -> dict[str, Any] | None:
        """Let the bot to move act once; ``None`` when a human is to move or the match is over."""
        turn = self.bot_turn()
        if turn is None:
            return None
        seat, bot, view = turn
        return self.bot_apply(seat, bot.act(view))

    def coach(self, seat: int) -> dict[str, Any] | None:
        """The Normal bot's call for ``seat`` during the auction, with its reason (message key + params); at
        the seat's first card of a table of announcements, the declaration it would make (``announce:…``)."""
        deal = self.match.deal
        if deal.is_over or deal.turn != seat:
            return None
        from .bots import make_bot as make

        coach = make("normal", seed=derive_seed(self.settings["seed"], 200_000 + self.match.deal_index * 4 + seat))
        view = deal.view(seat)
        if deal.phase == Phase.AUCTION:
            call, key, params = coach.explain_call(view)
            return {"call": str(call), "key": key, "params": params}
        return announce_advice(coach, view)

    # ------------------------------------------------------------ what a seat sees
    def state(self, seat: int) -> dict[str, Any]:
        match = self.match
        out = match.view(seat)
        out["settings"] = dict(self.settings)
        out["deal_seed"] = str(match.deal_seed(match.deal_index))  # with deal.dealer: a link to this deal
        out["humans"] = list(self.humans)
        out["history"] = [
            {"scores": r["result"]["scores"], "void": r["result"]["void"], "contract": r["result"]["contract"],
             "made": r["result"].get("made")}
            for r in match.history
        ]
        last = match.deal.tricks[-1] if match.deal.tricks else None
        out["last_trick"] = None if last is None else {
            "leader": last[0], "cards": [card_name(c) for c in last[1]], "winner": last[2]}
        return out
