"""The engine is the one source of what the page offers and reads (issue 25, item 3): the variants, the match
targets, the bot levels, the house rules and the judge's position limits come from
coinche.webcommands.options, which the build writes into the site (options.json, tools/engine_options.py); the
page draws its settings and the rules page's house rules from it. These tests fail when the page carries its
own copy of a list, and check the page's one use of a limit (a judge link longer than the engine reads)
against the engine's own reading, text by text."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import engine_zips
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from coinche import Position
from coinche.cards import POINTS, POWER, Card
from coinche.errors import CoincheError
from coinche.position import LIMITS, MAX_LENGTH, link_text
from coinche.rules import OPTIONS, PRESETS, TARGETS, VARIANTS
from coinche.session import LEVELS
from coinche.webcommands import options

ROOT = Path(__file__).resolve().parent.parent
WEB = ROOT / "web"
SCRIPTS = sorted(p for p in (WEB / "js").rglob("*.js"))
PAGES = sorted(WEB.glob("*.html"))


def test_the_options_are_the_engines_lists():
    o = options()
    assert o["variants"] == list(VARIANTS) and o["targets"] == list(TARGETS) and o["levels"] == list(LEVELS)
    assert o["defaults"]["variant"] in VARIANTS and o["defaults"]["target"] in TARGETS
    assert o["defaults"]["level"] in LEVELS
    assert [option["name"] for option in o["rules"]["options"]] == [option.name for option in OPTIONS]
    assert set(o["rules"]["presets"]) == set(PRESETS)
    assert o["position"] == {"trick": LIMITS["trick"], "hand": LIMITS["hand"], "max_length": MAX_LENGTH}
    # the ranks strongest first with their points, as the engine scores and ranks a trick's cards
    for name, trump in (("trump", 1), ("plain", 0)):
        hearts = [Card.parse(rank + "h") for rank, _ in o["cards"][name]]
        assert [POINTS[trump][c] for c in hearts] == [points for _, points in o["cards"][name]]
        assert sorted(hearts, key=lambda c: -POWER[trump][c]) == hearts
    assert sum(p for _, p in o["cards"]["trump"]) == 62 and sum(p for _, p in o["cards"]["plain"]) == 30
    json.dumps(o)  # plain JSON, as the file holds it


def test_the_script_writes_them_from_the_wheel_it_is_given(tmp_path):
    wheel, empty = engine_zips(tmp_path)
    out = tmp_path / "options.json"
    subprocess.run([sys.executable, "-I", str(ROOT / "tools" / "engine_options.py"), str(wheel), str(out)], check=True)
    written = json.loads(out.read_text())
    assert written.pop("format") == "coinche-options/1" and written.pop("engine")
    assert written == json.loads(json.dumps(options()))
    assert list(written["rules"]["presets"]) == list(PRESETS)  # the order the settings show
    # An archive that is not the engine: refused, not silently replaced by an installed copy.
    refused = subprocess.run([sys.executable, "-I", str(ROOT / "tools" / "engine_options.py"), str(empty), str(out)],
                             capture_output=True, text=True)
    assert refused.returncode != 0


# ---------------------------------------------------------------- no copy in the page
ARRAY = re.compile(r"\[([^\[\]]*)\]", re.DOTALL)


def _listed(text: str, values, least: int = 2) -> list[str]:
    """The array literals of a script that hold ``least`` or more of ``values`` (as strings or numbers)."""
    words = {str(v) for v in values}
    found = []
    for match in ARRAY.finditer(text):
        items = {item.strip().strip("\"'") for item in match.group(1).split(",")}
        if len(items & words) >= least:
            found.append(match.group(0)[:80])
    return found


# three targets: two round numbers are also a list of delays (online.js's retries: 1000, 2000, 4000 ms)
@pytest.mark.parametrize("name, values, least", [("variants", VARIANTS, 2), ("targets", TARGETS, 3),
                                                 ("levels", LEVELS, 2), ("presets", PRESETS, 2)])
def test_no_script_lists_the_engines_values(name, values, least):
    copies = {p.relative_to(ROOT).as_posix(): _listed(p.read_text(encoding="utf-8"), values, least) for p in SCRIPTS}
    assert not {path: found for path, found in copies.items() if found}, f"a copy of the engine's {name}"


def test_the_check_finds_a_copy():
    assert _listed('export const LEVELS = ["easy", "normal", "expert"];', LEVELS)
    assert _listed("const TARGETS = [501, 701, 1000];", TARGETS, 3)
    assert not _listed("const RETRY_MS = [1000, 2000, 4000, 8000];", TARGETS, 3)
    assert not _listed('const SPEEDS = ["slow", "normal", "fast"];', LEVELS)


@pytest.mark.parametrize("page", PAGES, ids=[p.name for p in PAGES])
def test_no_page_writes_the_engines_choices_in_its_markup(page):
    html = page.read_text(encoding="utf-8")
    values = "|".join(re.escape(str(v)) for v in (*VARIANTS, *TARGETS, *LEVELS))
    assert not re.findall(rf'<input[^>]*name="(?:variant|target|level)" value="(?:{values})"', html), "the settings"
    assert not re.findall(r'data-i18n="house\.value\.', html), "the house rules' values are drawn"
    assert not re.findall(r'<option value="(?:%s)"' % "|".join(map(re.escape, PRESETS)), html), "the presets"


def test_no_script_writes_the_cards_points():
    for path in SCRIPTS:
        assert not re.search(r'\[\s*"J"\s*,\s*(?:20|2)\s*\]', path.read_text(encoding="utf-8")), path


def test_no_script_writes_the_positions_limits():
    judge = (WEB / "js" / "judge" / "notation.js").read_text(encoding="utf-8")
    assert not re.search(r"(?:TRICK|HAND)_LIMIT\s*=\s*\d", judge)
    main = (WEB / "js" / "judge" / "main.js").read_text(encoding="utf-8")
    assert "options.position" in main and not re.search(r"_LIMIT\s*=\s*\d", main)


# ---------------------------------------------------------------- the page's reading against the engine's
NODE = shutil.which("node")


def _read_by_the_page(texts: list[str]) -> list:
    """[(the position text the page reads in a link, its tooLong)] for each link, as the judge page reads
    location.hash (web/js/judge/notation.js: fragmentText, then readPosition)."""
    script = (
        f"import {{ fragmentText, readPosition }} from {json.dumps((WEB / 'js' / 'judge' / 'notation.js').as_uri())};\n"
        "let input = ''; process.stdin.on('data', (d) => { input += d; });\n"
        "process.stdin.on('end', () => { const { limits, texts } = JSON.parse(input);\n"
        "  console.log(JSON.stringify(texts.map((t) => [fragmentText(t), readPosition(fragmentText(t), limits).tooLong]))); });\n"
    )
    done = subprocess.run([NODE, "--input-type=module", "-e", script], capture_output=True, text=True, check=True,
                          input=json.dumps({"limits": options()["position"], "texts": texts}))
    return json.loads(done.stdout)


def test_the_hand_sorts_by_the_engines_orders():
    """The hand's sort (web/js/table/cards.js), given options.cards as the page gives it, puts each suit's
    cards in the engine's order of strength, in trump and out of it."""
    if NODE is None:
        pytest.skip("Node is not installed")
    script = (
        f"import {{ sortHand }} from {json.dumps((WEB / 'js' / 'table' / 'cards.js').as_uri())};\n"
        "let input = ''; process.stdin.on('data', (d) => { input += d; });\n"
        "process.stdin.on('end', () => { const { cards, hands } = JSON.parse(input);\n"
        "  console.log(JSON.stringify(hands.map(([hand, trump]) => sortHand(hand, trump, cards)))); });\n"
    )
    suits = "shdc"
    hands = [([f"{rank}{suit}" for rank in "789TJQKA"], trump) for suit in suits for trump in (suit, None)]
    done = subprocess.run([NODE, "--input-type=module", "-e", script], capture_output=True, text=True, check=True,
                          input=json.dumps({"cards": options()["cards"], "hands": hands}))
    for (hand, trump), shown in zip(hands, json.loads(done.stdout)):
        power = POWER[suits.index(trump) if trump else 4]
        assert shown == sorted(hand, key=lambda c: -power[Card.parse(c)]), (trump, shown)


def _too_long_in_the_engine(text: str) -> dict | None:
    try:
        Position.parse(text)
    except CoincheError as error:
        if error.key == "position_too_long":
            return error.params
    return None


PIECES = st.sampled_from(["trump=h", "&", "trick=", "hand=", "Jh", ",", "8h,Ah,7c", "#", "?", " ", "x", "é", "\t",
                          "%", "%23", "%3F", "%25", "%2", "%20", "%4A", "%C3%A9", "%E0%A4"])


@pytest.mark.skipif(NODE is None, reason="Node is not installed")
@settings(max_examples=30, deadline=None)
@given(st.lists(st.lists(PIECES, max_size=80).map("".join), min_size=1, max_size=40))
def test_the_page_and_the_engine_read_a_link_alike(texts):
    """The judge page reads a link (fragmentText, readPosition) as the engine reads it (link_text, parse): the
    same position text, too long for the same links. The engine is given location.hash as it is."""
    texts = [t for t in texts if "\n" not in t]
    texts += ["x" * MAX_LENGTH, "#" + "x" * MAX_LENGTH, "x" * (MAX_LENGTH + 1), " " * 500 + "trump=h&hand=Jh",
              "#%23trump=h&hand=Jh", "%23trump=h&hand=Jh", "#trump=h&hand=%254Ah", "#%E0%A4%A", "#%23" + "x" * MAX_LENGTH]
    read = _read_by_the_page(texts)
    assert [text for text, _ in read] == [link_text(t) for t in texts]
    assert [too_long for _, too_long in read] == [_too_long_in_the_engine(t) for t in texts]


@given(st.text(alphabet="%0123456789abcdefABCDEFg&=#xé", max_size=30))
def test_the_links_percent_escapes_read_as_urllib_reads_them(text: str) -> None:
    """position._unquote (kept apart from urllib, whose bytecode the site would ship) against urllib's own."""
    from urllib.parse import unquote

    from coinche.position import _BAD_ESCAPE, _unquote

    assume(not _BAD_ESCAPE.search(text))

    def read(f):
        try:
            return f(text)
        except UnicodeDecodeError:
            return "not UTF-8"

    assert read(_unquote) == read(lambda t: unquote(t, errors="strict"))
