r"""The message catalogues (web/i18n/*.json) against the code that uses them, and against each other.

- Every key the code uses exists in every catalogue.  "Used" means:
  * a literal `t("key")`, `data-i18n="key"` or `data-i18n-attr="attr:key"` in web/**/*.js and web/**/*.html;
  * any other string literal in the JS that looks like a key of a catalogue namespace (keys are passed as
    data too, e.g. `{title: "rules.cards.trumpRow"}` then `t(title)`);
  * a key built at run time, `t(\`rank.short.${r}\`)` or `t("table.seat." + i)`: its prefix must be listed
    in DYNAMIC_KEYS below, with the suffixes the code may put after it.  A new dynamic prefix in the code
    fails `test_dynamic_prefixes_are_declared` until it is listed there: that is the documented list.
- The engine's message keys exist too: reasons and notes (engine/coinche/play.py) and errors
  (engine/coinche/errors.py ENGLISH), which the pages show as `reason.*`, `note.*`, `error.*`.
- No stale keys: every catalogue has exactly en.json's keys, and every en.json key is used by the code.
- Placeholders match: each translation has the same {names}, the same plural/select arguments and the same
  select options as the English message.
"""
from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest

from coinche.review import DECISION_TYPES
from coinche.rules import OPTIONS, PRESETS
from coinche.webcommands import options as engine_options

ROOT = Path(__file__).resolve().parent.parent
WEB = ROOT / "web"
I18N = WEB / "i18n"
ENGINE = ROOT / "engine" / "coinche"

LANGUAGES = re.findall(r'"(\w\w)"', re.search(r"LANGUAGES\s*=\s*\[([^\]]*)\]", (WEB / "js" / "i18n.js").read_text()).group(1))
RANKS = "789TJQKA"
SUITS = "shdc"


def _engine_keys(pattern: str, path: Path) -> set[str]:
    return set(re.findall(pattern, path.read_text(encoding="utf-8")))


def _engine_errors() -> set[str]:
    tree = ast.parse((ENGINE / "errors.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "ENGLISH" for t in node.targets):
            return set(ast.literal_eval(node.value))
    raise AssertionError("engine/coinche/errors.py has no ENGLISH dict")


# The reason and note keys of the five card-play rules (coinche.play: Forbidden.key, Ruling.note).
REASONS = _engine_keys(r'"(must_\w+)"', ENGINE / "play.py")
NOTES = set(re.findall(r'(?:note = |Ruling\(.*)"(\w+)"', (ENGINE / "play.py").read_text(encoding="utf-8")))
ERRORS = _engine_errors()
# The bots' advice keys, shown by the table's coach as coach.*.
COACH = set().union(*(_engine_keys(r'"(coach_\w+)"', path) for path in (ENGINE / "bots").glob("*.py")))

# The house-rule options the settings offer one by one (the variant and the target have their own settings).
HOUSE_OPTIONS = [o for o in OPTIONS if o.name not in ("variant", "target")]

# Keys built at run time: prefix -> the suffixes the code may append (None: whatever en.json holds under
# that prefix, for families whose members the code takes from data it does not enumerate).
DYNAMIC_KEYS: dict[str, set[str] | None] = {
    "suit.": set(SUITS) | {"sa", "ta"},  # and a contract of no trumps or all trumps (house rule contracts=all)
    "suit.short.": {"sa", "ta"},  # their short names (js/table/cards.js suitIcon)
    "announcement.": {"tierce", "cinquante", "cent", "carre",  # js/table/bidding.js announcementList
                      "line.sequence", "line.carre"},  # the engine's key of an announcement (Announcement.text)
    "suit.of.": set(SUITS),
    "suit.symbol.": set(SUITS),
    "rank.": set(RANKS),
    "rank.short.": set(RANKS),
    "language.": set(LANGUAGES),
    "call.": {"pass", "coinche", "surcoinche"},  # i18n.callName; bids and takes use call.bid/capot/take
    "rule.": {str(n) for n in range(6)},  # the leader (0) and the five rules
    "reason.": REASONS,
    "note.": NOTES,
    # engine refusals, and the worker's when the engine's later modules cannot be fetched (js/engine-worker.js);
    # the pages fall back to error.internal for other codes
    "error.": ERRORS | {"engine_part_missing"},
    "judge.variant.": NOTES - {"partner_master"},  # a house variant exists for the two argued rules only
    "judge.example.": None,
    "judge.link.dropped_": None,
    "judge.seat.": {"partner", "opponent"},  # who played a card of the trick
    "judge.seat.led_": {"partner", "opponent"},
    "coach.": COACH,
    "table.seat.": {"0", "1", "2", "3"},
    "table.announce.": {"belote", "rebelote"},
    "home.boot.": None,
    "rules.cards.table.": {"caption", "rank", "trumpOrder", "trumpPoints", "plainOrder", "plainPoints"},
    "rules.board.": {"trump", "trick", "hand", "opponent", "partner", "you", "legal", "forbidden"},
    # house rules (js/table/house.js): the engine's options and values, and the parts of a deal's score
    "house.option.": {o.name for o in HOUSE_OPTIONS},
    "house.value.": {f"{o.name}.{v}" for o in HOUSE_OPTIONS for v in o.texts},
    "house.part.": {"cards", "contract", "capot_bonus", "down", "belote", "rounding", "announcement"},
    "house.preset.": set(PRESETS) | {"custom"},
    # the settings' choices (js/main.js): the engine's lists (coinche.webcommands.options)
    "settings.variant.": set(engine_options()["variants"]),
    "settings.level.": set(engine_options()["levels"]),
    # the progress page (js/progress/main.js): the review's sorts of decision, its marks, the tables' columns
    "progress.type.": set(DECISION_TYPES) | {"call", "card"},
    "progress.figure.": {"inaccuracy", "mistake", "blunder"},
    "progress.col.": {"deal", "lost", "luck", "average", "links", "type", "decisions",
                      "per_deal", "per_decision"},
    # the puzzle page (js/puzzles/*.js): the themes the set's generator tags, their names and the why
    "puzzles.theme.": None,
    "puzzles.why.": None,
    "review.reason.": None,  # a mistake's puzzle: the review's reason for the card played (js/puzzles/main.js)
    "puzzles.progress.col.": {"theme", "tried", "solved"},
}

# Literals that look like keys but are not (file names are recognised by their extension).
NOT_KEYS = {
    "error.internal_error",  # judge/main.js compares a built key with the engine's catch-all code
}
FILE_NAME = re.compile(r"\.(html|m?js|css|json|svg|png|ico|wasm|whl|zip|tgz|txt|webmanifest)$")


def load(lang: str) -> dict[str, str]:
    return json.loads((I18N / f"{lang}.json").read_text(encoding="utf-8"))


EN = load("en")
NAMESPACES = {key.split(".")[0] for key in EN}
KEY_CHARS = r"[a-z][A-Za-z0-9_]*(?:\.[A-Za-z0-9_-]+)*"


def sources(*patterns: str) -> list[Path]:
    return sorted(p for pattern in patterns for p in WEB.rglob(pattern) if "i18n" not in p.parts)


def _keyish(text: str) -> bool:
    return text.split(".")[0] in NAMESPACES and not FILE_NAME.search(text) and text not in NOT_KEYS


def scan() -> tuple[dict[str, set[str]], dict[str, set[str]]]:
    """(literal keys, dynamic prefixes), each mapped to the files that use them."""
    literal: dict[str, set[str]] = {}
    dynamic: dict[str, set[str]] = {}
    for path in sources("*.js", "*.html"):
        text = path.read_text(encoding="utf-8")
        where = str(path.relative_to(ROOT))
        found: set[str] = set(re.findall(r'data-i18n="([^"]+)"', text))
        for attrs in re.findall(r'data-i18n-attr="([^"]+)"', text):
            found |= {pair.split(":", 1)[1].strip() for pair in attrs.split(";") if ":" in pair}
        prefixes: set[str] = set()
        if path.suffix == ".js":
            # `prefix.${...}` in a template literal, "prefix." + value in a concatenation.
            prefixes |= {p for p in re.findall(rf"`({KEY_CHARS}[._])\$\{{", text)}
            prefixes |= {p for p in re.findall(rf"""["']({KEY_CHARS}[._])["']\s*\+""", text)}
            found |= {s for s in re.findall(rf"""["'`]({KEY_CHARS})["'`]""", text) if "." in s or s in EN}
        for key in found:
            if _keyish(key):
                literal.setdefault(key, set()).add(where)
        for prefix in prefixes:
            if prefix.split(".")[0] in NAMESPACES:
                dynamic.setdefault(prefix, set()).add(where)
    return literal, dynamic


LITERAL, DYNAMIC = scan()


def expected_keys() -> set[str]:
    """Every key the code and the engine can ask for, as far as it can be known."""
    keys = set(LITERAL)
    for prefix, suffixes in DYNAMIC_KEYS.items():
        if suffixes is not None:
            keys |= {prefix + s for s in suffixes}
    return keys


def used(key: str) -> bool:
    return key in expected_keys() or any(key.startswith(p) for p, s in DYNAMIC_KEYS.items() if s is None)


# ---------------------------------------------------------------- the catalogues and the code
def test_languages_have_catalogues():
    assert LANGUAGES[0] == "en" and set(LANGUAGES) == {"en", "fr", "de", "es"}
    for lang in LANGUAGES:
        assert all(isinstance(v, str) for v in load(lang).values()), lang


def test_scan_finds_the_pages_keys():
    """The scanner itself: it sees keys of each kind of use (a guard against a regex that finds nothing)."""
    assert "rules.title" in LITERAL  # data-i18n
    assert "rules.nav.label" in LITERAL  # data-i18n-attr
    assert "rules.cards.trumpRow" in LITERAL  # a literal passed as data
    assert "card.name" in LITERAL  # t("...")
    assert "rank.short." in DYNAMIC  # t(`rank.short.${...}`)


def test_dynamic_prefixes_are_declared():
    undeclared = {p: sorted(files) for p, files in DYNAMIC.items() if p not in DYNAMIC_KEYS}
    assert not undeclared, (
        "keys built at run time from these prefixes: list each in DYNAMIC_KEYS (tests/test_catalogues.py) "
        f"with the suffixes the code may use: {undeclared}")


def test_engine_keys_found():
    assert REASONS == {"must_follow", "must_go_over", "must_trump", "must_overtrump", "must_undertrump"}
    assert NOTES == {"overtrump_partner", "no_undertrump", "partner_master"}
    assert {"unknown_card", "illegal_card", "out_of_turn"} <= ERRORS
    assert "coach_pass" in COACH


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_used_key_exists(lang):
    catalogue = load(lang)
    missing = sorted(k for k in expected_keys() if k not in catalogue)
    where = {k: sorted(LITERAL.get(k, {"(dynamic)"})) for k in missing}
    assert not missing, f"{lang}.json lacks keys the code uses: {where}"


@pytest.mark.parametrize("prefix", sorted(p for p, s in DYNAMIC_KEYS.items() if s is None))
def test_open_prefixes_are_not_empty(prefix):
    assert any(k.startswith(prefix) for k in EN), f"no en.json key starts with {prefix!r}"


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_same_keys_as_english(lang):
    catalogue = load(lang)
    assert not sorted(set(EN) - set(catalogue)), f"{lang}.json lacks: {sorted(set(EN) - set(catalogue))}"
    assert not sorted(set(catalogue) - set(EN)), f"{lang}.json has stale keys: {sorted(set(catalogue) - set(EN))}"


def test_no_unused_english_keys():
    unused = sorted(k for k in EN if not used(k))
    assert not unused, f"en.json keys that no code uses (remove them, or declare their prefix): {unused}"


# ---------------------------------------------------------------- placeholders
def _closing(text: str, start: int) -> int:
    depth = 0
    for i in range(start, len(text)):
        if text[i] == "{":
            depth += 1
        elif text[i] == "}":
            depth -= 1
            if depth == 0:
                return i
    raise ValueError(f"unbalanced braces: {text!r}")


def _options(text: str) -> dict[str, str]:
    options, i = {}, 0
    while i < len(text):
        match = re.compile(r"\s*([^\s{]+)\s*\{").match(text, i)
        if not match:
            if text[i:].strip():
                raise ValueError(f"bad options: {text!r}")
            break
        end = _closing(text, match.end() - 1)
        options[match.group(1)] = text[match.end():end]
        i = end + 1
    return options


def arguments(message: str) -> set[tuple]:
    """The arguments of an ICU-subset message (web/js/i18n.js): ("name",), ("name", "plural") or
    ("name", "select", options...), collected through nested messages."""
    found: set[tuple] = set()
    text = message.replace("''", "")
    i = 0
    while i < len(text):
        if text[i] == "}":
            raise ValueError(f"unbalanced braces: {message!r}")
        if text[i] != "{":
            i += 1
            continue
        end = _closing(text, i)
        body = text[i + 1:end]
        parts = body.split(",", 2)
        if len(parts) == 1:
            found.add((body.strip(),))
        else:
            name, kind, rest = (p.strip() for p in parts)
            assert kind in ("plural", "select"), f"unknown argument type {kind!r} in {message!r}"
            options = _options(rest)
            assert "other" in options, f"{name}: an 'other' option is required in {message!r}"
            found.add((name, kind) if kind == "plural" else (name, kind, *sorted(options)))
            for option in options.values():
                found |= arguments(option)
        i = end + 1
    return found


def test_arguments_parser():
    assert arguments("{n, plural, one {# point} other {# points of {total}}}") == {("n", "plural"), ("total",)}
    assert arguments("{a}: {k, select, x {X} other {}}") == {("a",), ("k", "select", "other", "x")}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_messages_parse(lang):
    for key, message in load(lang).items():
        try:
            arguments(message)
        except (ValueError, AssertionError) as error:
            pytest.fail(f"{lang}.json {key}: {error}")


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_placeholders_match_english(lang):
    catalogue = load(lang)
    wrong = {key: (sorted(arguments(EN[key])), sorted(arguments(catalogue[key])))
             for key in EN if key in catalogue and arguments(EN[key]) != arguments(catalogue[key])}
    assert not wrong, f"{lang}.json: arguments differ from en.json (en, {lang}): {wrong}"


# ---------------------------------------------------------------- card notation
@pytest.mark.parametrize("lang", LANGUAGES)
def test_card_notation_is_unambiguous(lang):
    """Card pictures print rank.short: within a language no two ranks may share it."""
    catalogue = load(lang)
    shorts = [catalogue[f"rank.short.{r}"] for r in RANKS]
    assert len(set(shorts)) == len(RANKS), f"{lang}: {shorts}"
    assert [catalogue[f"suit.symbol.{s}"] for s in SUITS] == ["♠", "♥", "♦", "♣"]


# ---------------------------------------------------------------- the glossary (docs/glossary.json)
GLOSSARY = json.loads((ROOT / "docs" / "glossary.json").read_text(encoding="utf-8"))


def _exempt(key: str) -> bool:
    return any(key.startswith(pattern.rstrip("*")) for pattern in GLOSSARY["exempt"])


def _term_words(lang: str) -> dict[str, str]:
    return GLOSSARY["languages"][lang]["words"]


def test_the_glossary_covers_every_language_and_term():
    assert set(GLOSSARY["languages"]) == set(LANGUAGES)
    for lang in LANGUAGES:
        assert set(_term_words(lang)) == set(GLOSSARY["terms"]), lang
        assert GLOSSARY["languages"][lang]["seed"]
    markdown = (ROOT / "docs" / "glossary.md").read_text(encoding="utf-8")
    for lang in LANGUAGES:
        for term, word in _term_words(lang).items():
            assert f"| {lang} | {term} | {word} |" in markdown, (lang, term)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_catalogue_uses_the_glossary_words(lang):
    catalogue = load(lang)
    wrong = []
    for term, spec in GLOSSARY["terms"].items():
        word = _term_words(lang)[term]
        for key in spec["keys"]:
            value = catalogue[key]
            ok = value == word if spec["match"] == "exact" else word.casefold() in value.casefold()
            if not ok:
                wrong.append(f"{key} = {value!r} should use {word!r} ({term})")
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_catalogue_avoids_the_words_the_glossary_replaces(lang):
    catalogue = load(lang)
    found = [f"{key}: {word!r} ({why})"
             for word, why in GLOSSARY["languages"][lang]["avoid"].items()
             for key, value in catalogue.items()
             if not _exempt(key) and re.search(rf"(?<!\w){re.escape(word)}", value)]
    assert not found, "\n".join(found)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_judge_page_and_the_1v1_server_have_distinct_names(lang):
    catalogue = load(lang)
    judge, referee = _term_words(lang)["judge"], _term_words(lang)["referee"]
    assert judge.casefold() not in referee.casefold() and referee.casefold() not in judge.casefold()
    judge_names = [catalogue[k] for k in GLOSSARY["terms"]["judge"]["keys"]]
    server_names = [v for k, v in catalogue.items() if k.startswith(("online.", "settings.referee"))]
    assert not [v for v in judge_names if referee.casefold() in v.casefold()], judge_names
    assert not [v for v in server_names if re.search(rf"(?<!\w){re.escape(judge)}", v, re.IGNORECASE)], lang
