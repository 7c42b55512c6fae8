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
    "must_undertrump": "an opponent is winning with the {card} and this table's rules make you play a trump, lower as it is",
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


#: ``coinche rules``: each option's summary and each value's meaning (docs/rules.md, "House rules", says it in full).
RULE_OPTIONS = {
    "variant": ("how trump is named", {"coinche": "an auction of bids", "classic": "a turned card is taken"}),
    "target": ("the points a side plays to", {}),
    "end": ("what ends the match", {"reach": "reaching the target is enough", "pass": "a side must pass the target"}),
    "open": ("the lowest opening bid", {"80": "80, then 90, 100 ...", "82": "82, then 90, 100 ..."}),
    "down": ("the defence's score on a failed contract",
             {"162bid": "162 + the contract", "160bid": "160 + the contract", "160": "160",
              "bid": "the contract alone"}),
    "surcoinche": ("what a surcoinche multiplies by", {"4": "x4", "3": "x3"}),
    "multiply": ("what a coinche or surcoinche multiplies",
                 {"all": "the cards and the contract", "contract": "the contract alone"}),
    "capot": ("what capot is worth",
              {"250": "a bid of 250, scored as a contract",
               "500": "500 when bid and made, 500 to the defence when bid and lost, 250 for the cards when made unbid"}),
    "capot_coinche": ("whether a bid capot may be coinched",
                      {"yes": "it may", "no": "it may not, and the auction ends on it"}),
    "round": ("each side's deal score rounded to the ten",
              {"none": "not rounded", "5up": "to the nearest ten, 5 up", "5down": "to the nearest ten, 5 down"}),
    "tie": ("an exact tie over the target", {"again": "one more deal", "declarer": "the last deal's declaring side wins"}),
    "belote": ("the belote of a failed contract's declarer",
               {"keep": "stays with its side", "defence": "goes to the defence"}),
    "undertrump": ("over an opponent's trump you cannot beat",
                   {"no": "any card", "yes": "you must play a lower trump if you hold one (pisser)"}),
    "contracts": ("what a coinche bid may name",
                  {"suits": "a trump suit", "all": "a trump suit, no trumps (sa) or all trumps (ta)"}),
    "announce": ("announcements (tierce, cinquante, cent, carres) on the first trick",
                 {"no": "not played", "yes": "declared with the first card, shown at the end of the first trick"}),
    "announce_make": ("whether the declaring side's announcements count toward its contract",
                      {"yes": "they count, as the belote does", "no": "cards and belote alone make it"}),
    "announce_multiply": ("whether a coinche or surcoinche multiplies the announcements",
                          {"no": "never multiplied, as the belote", "yes": "multiplied as the contract"}),
}


def card_words(card: str) -> str:
    return f"{RANK_NAMES[RANK_LETTERS.index(card[0])]} of {SUIT_NAMES[SUIT_LETTERS.index(card[1])]}"


def suit_words(letter: str) -> str:
    return SUIT_NAMES[SUIT_LETTERS.index(letter)]


def trump_phrase(trump: int) -> str:
    """``Trump hearts``, ``No trumps`` or ``All trumps``."""
    return ("No trumps", "All trumps")[trump - 4] if trump >= 4 else f"Trump {SUIT_NAMES[trump]}"


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
