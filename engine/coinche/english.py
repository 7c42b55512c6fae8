"""Plain-English sentences for the engine's message keys (the command line's language).

The web page has its own catalogue in four languages; this one is the CLI's.

>>> sentence("must_go_over", {"card": "Ah"})
'trump was led: you must play a trump higher than the ace of hearts'
"""

from __future__ import annotations

from .cards import RANK_LETTERS, RANK_NAMES, SUIT_LETTERS, SUIT_NAMES

RULE_SENTENCES = {
    "must_follow": "you hold {suit}, so you must follow {suit}",
    "must_go_over": "trump was led: you must play a trump higher than the {card}",
    "must_trump": "you cannot follow and an opponent is winning: you must trump ({suit})",
    "must_overtrump": "an opponent is winning with the {card}: you must trump higher",
}
RULE_TITLES = {
    0: "the leader plays any card",
    1: "follow suit",
    2: "on a trump lead, go over",
    3: "void: you must trump, unless your partner is master",
    4: "an opponent has trumped: go over if you can",
    5: "otherwise play what you like (nobody must undertrump)",
}
#: Rule 3 when it frees the player (the partner is winning): its exception is what decides.
RULE_3_FREE = "void, but your partner is master: play what you like"
NOTES = {
    "overtrump_partner": "trump was led, so you must go over even your partner's trump",
    "no_undertrump": "you hold no trump higher than the opponent's, so nobody makes you undertrump: any card",
    "partner_master": "your partner is winning, so you may play any trump, lower than theirs or not",
}


def card_words(card: str) -> str:
    return f"{RANK_NAMES[RANK_LETTERS.index(card[0])]} of {SUIT_NAMES[SUIT_LETTERS.index(card[1])]}"


def suit_words(letter: str) -> str:
    return SUIT_NAMES[SUIT_LETTERS.index(letter)]


def sentence(key: str, params: dict) -> str:
    words = {}
    for name, value in params.items():
        if name == "card":
            words[name] = card_words(value)
        elif name == "suit":
            words[name] = suit_words(value)
        else:
            words[name] = value
    return RULE_SENTENCES[key].format(**words)
