"""The judge page as a user meets it: examples, every rule's explanation, links, history, bad links,
the keyboard, sharing, and nothing leaving the site."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

sys.path.insert(0, str(Path(__file__).parent))  # --import-mode=importlib: the helpers beside this file
from conftest import forget_storage, guarded  # noqa: E402
from held_engine import hold_the_engine, release  # noqa: E402

BOOT_TIMEOUT_MS = 60_000
DIST = Path(__file__).resolve().parent.parent / "dist"

ARGUED_OVER_PARTNER = "trump=h&trick=8h,Ah,7c&hand=Jh,Kd,7s"
ARGUED_UNDERTRUMP = "trump=h&trick=As,9s,9h&hand=7h,8h,Kd,Ac"


def open_judge(page, site_url: str, fragment: str = "", ready: bool = True) -> None:
    page.goto(f"{site_url}judge.html{'#' + fragment if fragment else ''}")
    if ready:
        expect(page.locator("body")).not_to_have_attribute("data-engine", "loading", timeout=BOOT_TIMEOUT_MS)
        assert page.locator("body").get_attribute("data-engine") == "ready", page.locator("#engine-text").inner_text()


@pytest.fixture(scope="module")
def judge_up(returning_context, site_url):
    """One judge page, its engine up, for the cases that open link after link: each opens its link on it as a
    fragment navigation (hashchange), which the page reads as it reads a fresh visit's link
    (`loadFromLocation`), without a page and an engine boot each (about 1.3 s of CPU a case). Fresh visits
    have tests of their own (an example opened as a link, a huge bad link)."""
    page = returning_context.new_page()
    open_judge(page, site_url)
    yield page
    try:
        forget_storage(page, site_url)
    finally:
        page.close()


@pytest.fixture
def judge_page(judge_up):
    """The module's judge page (`judge_up`), guarded for this case alone."""
    with guarded(judge_up):
        yield judge_up


def open_link(page, site_url: str, fragment: str) -> None:
    """Open ``#fragment`` on a judge page that is up: the same document, its hash changed."""
    page.goto(f"{site_url}judge.html#{fragment}")
    assert page.evaluate("location.hash") == f"#{fragment}"


def expect_ruled(page, position: str) -> None:
    ruling = page.locator("#ruling")
    expect(ruling).to_have_attribute("data-position", position, timeout=BOOT_TIMEOUT_MS)
    expect(ruling).to_have_attribute("data-state", "ruled", timeout=BOOT_TIMEOUT_MS)


def verdicts(page) -> dict[str, tuple[bool, int]]:
    """{card: (legal, rule)} as rendered."""
    return {
        li.get_attribute("data-card"): (li.get_attribute("data-legal") == "true", int(li.get_attribute("data-rule")))
        for li in page.locator("#verdicts li[data-card]").all()
    }


def reason(page, card: str) -> str:
    return page.locator(f'#verdicts li[data-card="{card}"] .verdict-why').inner_text()


def decisive_rules(page) -> list[str]:
    return [r.get_attribute("data-rule") for r in page.locator(".rule.is-decisive").all()]


# ---------------------------------------------------------------- docs/rules.md, "The positions tables argue about"
def test_the_two_argued_positions_are_one_click_away_with_their_rulings(returning_page, site_url):
    page = returning_page
    open_judge(page, site_url)
    examples = page.locator("#examples a.example-link")
    expect(examples).to_have_count(4)
    assert examples.nth(0).get_attribute("href") == f"#{ARGUED_OVER_PARTNER}"
    assert examples.nth(1).get_attribute("href") == f"#{ARGUED_UNDERTRUMP}"
    # each example shows its own ruling, from the engine
    expect(examples.nth(0).locator(".example-ruling")).to_have_text("Rule 2 Only the jack of hearts is legal.")
    # docs/rules.md, "The positions tables argue about": "All four may be played: rule 5, no one must undertrump."
    expect(examples.nth(1).locator(".example-ruling")).to_have_text("Rule 5 All 4 cards are legal.")

    examples.nth(0).click()
    expect_ruled(page, ARGUED_OVER_PARTNER)
    assert page.url.endswith(f"judge.html#{ARGUED_OVER_PARTNER}")
    assert verdicts(page) == {"Jh": (True, 2), "Kd": (False, 1), "7s": (False, 1)}
    assert decisive_rules(page) == ["2"]
    expect(page.locator("#ruling")).to_have_attribute("data-note", "overtrump_partner")
    expect(page.locator("#note-text")).to_contain_text("even your partner's trump")
    expect(page.locator("#note-variant")).to_contain_text("house variant")
    expect(page.locator("#note-variant")).to_contain_text("This page rules by the rules")

    examples.nth(1).click()
    expect_ruled(page, ARGUED_UNDERTRUMP)
    assert verdicts(page) == {"7h": (True, 5), "8h": (True, 5), "Kd": (True, 5), "Ac": (True, 5)}
    assert decisive_rules(page) == ["5"]
    expect(page.locator("#ruling")).to_have_attribute("data-note", "no_undertrump")
    expect(page.locator("#note-text")).to_contain_text("nobody makes you undertrump")
    expect(page.locator("#note-variant")).to_contain_text("undertrump")
    expect(page.locator("#note-variant")).to_contain_text("house variant")

    page.go_back()  # an example is an edit like any other
    expect_ruled(page, ARGUED_OVER_PARTNER)


def test_an_example_opened_as_a_link_lands_on_its_ruling(returning_page, site_url):
    page = returning_page
    open_judge(page, site_url, ARGUED_UNDERTRUMP)
    expect_ruled(page, ARGUED_UNDERTRUMP)
    assert all(legal for legal, _ in verdicts(page).values())


# ---------------------------------------------------------------- every rule and every reason
RULE_CASES = [
    # (position, decisive rule, {card: (legal, rule)}, {card: reason sentence}, note)
    ("trump=s&trick=&hand=Jh,7c", 0, {"Jh": (True, 0), "7c": (True, 0)}, {}, None),
    ("trump=s&trick=Ad&hand=7d,Ks,Ac", 1, {"7d": (True, 1), "Ks": (False, 1), "Ac": (False, 1)},
     {"Ks": "You hold diamonds: you must follow diamonds."}, None),
    ("trump=c&trick=9c,Ac&hand=7c,Jc,Ad", 2, {"7c": (False, 2), "Jc": (True, 2), "Ad": (False, 1)},
     {"7c": "Trump was led: you must play a trump higher than the nine of clubs.",
      "Ad": "You hold clubs: you must follow clubs."}, "overtrump_partner"),
    ("trump=c&trick=9c&hand=7c,8c,Ad", 2, {"7c": (True, 2), "8c": (True, 2), "Ad": (False, 1)},
     {"Ad": "You hold clubs: you must follow clubs."}, None),
    ("trump=h&trick=As,9h,Ks&hand=7h,8h,Ah", 3, {"7h": (True, 3), "8h": (True, 3), "Ah": (True, 3)}, {},
     "partner_master"),
    ("trump=h&trick=As,Ks&hand=7d,Jh", 3, {"7d": (True, 3), "Jh": (True, 3)}, {}, None),
    ("trump=d&trick=Ks&hand=7d,Ac", 3, {"7d": (True, 3), "Ac": (False, 3)},
     {"Ac": "You cannot follow and an opponent is winning: you must trump (diamonds)."}, None),
    ("trump=d&trick=Ks,Qs,Td&hand=9d,8d,Ac", 4, {"9d": (True, 4), "8d": (False, 4), "Ac": (False, 4)},
     {"8d": "An opponent is winning with the ten of diamonds: you must trump higher.",
      "Ac": "An opponent is winning with the ten of diamonds: you must trump higher."}, None),
    ("trump=d&trick=Ks,7s,Jd&hand=9d,Ac", 5, {"9d": (True, 5), "Ac": (True, 5)}, {}, "no_undertrump"),
    ("trump=d&trick=Ks&hand=Ah,Ac", 5, {"Ah": (True, 5), "Ac": (True, 5)}, {}, None),
    # all trumps and no trumps (house rule contracts=all, issue 33): go over in the suit led; no trumping
    ("trump=ta&trick=Ts&hand=Js,7s,Ad", 2, {"Js": (True, 2), "7s": (False, 2), "Ad": (False, 1)},
     {"7s": "Trump was led: you must play a trump higher than the ten of spades.",
      "Ad": "You hold spades: you must follow spades."}, None),
    ("trump=sa&trick=Ks&hand=Ah,Ac", 5, {"Ah": (True, 5), "Ac": (True, 5)}, {}, None),
]


@pytest.mark.parametrize("position,rule,expected,reasons,note", RULE_CASES, ids=[c[0] for c in RULE_CASES])
def test_every_rule_is_explained(judge_page, site_url, position, rule, expected, reasons, note):
    page = judge_page
    open_link(page, site_url, position)
    expect_ruled(page, position)
    assert verdicts(page) == expected
    assert decisive_rules(page) == [str(rule)]
    expect(page.locator(".rule.is-decisive")).to_have_attribute("aria-current", "true")
    for card, sentence in reasons.items():
        assert reason(page, card) == sentence
    for card, (legal, _) in expected.items():
        mark = page.locator(f'#hand-cards li[data-card="{card}"]')
        expect(mark).to_have_class(f"slot is-{'legal' if legal else 'forbidden'}")
    ruling = page.locator("#ruling")
    if note:
        expect(ruling).to_have_attribute("data-note", note)
        expect(page.locator("#ruling-note")).to_be_visible()
    else:
        assert ruling.get_attribute("data-note") is None
        expect(page.locator("#ruling-note")).to_be_hidden()
    trick = dict(part.split("=") for part in position.split("&"))["trick"]
    seat = ["You lead.", "You play second.", "You play third.", "You play fourth."][len(trick.split(",")) if trick else 0]
    expect(page.locator("#seat-info")).to_contain_text(seat)


# ---------------------------------------------------------------- links and history
def pick(page, card: str) -> None:
    page.locator(f'#picker button[data-card="{card}"]').click()


def test_a_position_built_in_the_editor_round_trips_through_its_link(returning_page, site_url):
    page = returning_page
    open_judge(page, site_url)
    page.locator("label.trump-option.suit-d").click()
    for card in ("Ks", "Qs", "Td"):
        pick(page, card)
    expect(page.locator('input[name="target"][value="hand"]')).to_be_checked()  # the table is full
    for card in ("9d", "8d", "Ac"):
        pick(page, card)
    position = "trump=d&trick=Ks,Qs,Td&hand=9d,8d,Ac"
    expect_ruled(page, position)
    assert urlsplit(page.url).fragment == position
    assert page.locator("#share-link").input_value() == page.url
    expect(page.locator("#seat-info")).to_have_text("You play fourth. Your partner played the queen of spades.")
    shown = verdicts(page)

    other = page.context.new_page()  # a new page opening the same link
    other.goto(page.url)
    expect_ruled(other, position)
    assert verdicts(other) == shown
    assert [r.get_attribute("data-rule") for r in other.locator(".rule.is-decisive").all()] == ["4"]
    other.close()


def test_back_and_forward_walk_through_the_edits_and_undo_takes_back_the_last_pick(returning_page, site_url):
    page = returning_page
    open_judge(page, site_url)
    page.locator("label.trump-option.suit-h").click()
    page.locator('input[name="target"][value="hand"]').check()
    for card in ("Jh", "Kd", "7s"):
        pick(page, card)
    expect_ruled(page, "trump=h&trick=&hand=Jh,Kd,7s")
    page.go_back()
    expect_ruled(page, "trump=h&trick=&hand=Jh,Kd")
    expect(page.locator("#hand-cards li[data-card]")).to_have_count(2)
    page.go_back()
    expect_ruled(page, "trump=h&trick=&hand=Jh")
    page.go_forward()
    expect_ruled(page, "trump=h&trick=&hand=Jh,Kd")
    page.go_forward()
    expect_ruled(page, "trump=h&trick=&hand=Jh,Kd,7s")

    page.locator("#undo").click()
    expect_ruled(page, "trump=h&trick=&hand=Jh,Kd")
    # taking a card back from the hand is an edit too
    page.locator('#hand-cards li[data-card="Jh"] button').click()
    expect_ruled(page, "trump=h&trick=&hand=Kd")
    page.locator("#clear").click()
    expect(page.locator("#ruling")).to_have_attribute("data-state", "prompt")
    assert urlsplit(page.url).fragment == ""
    page.go_back()
    expect_ruled(page, "trump=h&trick=&hand=Kd")


# ---------------------------------------------------------------- bad links
BAD_LINKS = [
    # (fragment, engine's message, what the editor keeps: (trump, trick, hand))
    ("trump=h&trick=8h&hand=Jh,Xx,7s", "Unknown card “Xx”.", ("h", ["8h"], ["Jh", "7s"])),
    ("trump=h&trick=8h,Ah&hand=Jh,8h", "The eight of hearts appears twice.", ("h", ["8h", "Ah"], ["Jh"])),
    ("trump=h&trick=8h,Ah,7c,9c&hand=Jh", "Too many cards: 4 (at most 3).", ("h", ["8h", "Ah", "7c"], ["Jh"])),
    ("trump=s&trick=&hand=7h,8h,9h,Th,Jh,Qh,Kh,Ah,7c", "Too many cards: 9 (at most 8).",
     ("s", [], ["7h", "8h", "9h", "Th", "Jh", "Qh", "Kh", "Ah"])),
    ("trump=x&trick=8h&hand=Jh", "Unknown trump “x” (use s, h, d or c, sa for no trumps, ta for all trumps).",
     (None, ["8h"], ["Jh"])),
    ("trump=h&seat=2&hand=Jh", "Unknown field “seat”.", ("h", [], ["Jh"])),
    ("hello%20world", "Malformed position: hello world.", (None, [], [])),
    ("%E0%A4%A", "Malformed position: %E0%A4%A.", (None, [], [])),
    # decoded once, as the notation says: `%254Ah` is the card `%4Ah`, never `Jh` (as `coinche judge` reads it)
    ("trump=h&hand=%254Ah", "Unknown card “%4Ah”.", ("h", [], [])),
    ("%2523trump=h&hand=Jh", "Unknown field “%23trump”.", (None, [], ["Jh"])),
]


@pytest.mark.parametrize("fragment,message,kept", BAD_LINKS, ids=[b[0] for b in BAD_LINKS])
def test_a_bad_link_says_what_is_wrong_and_keeps_what_it_could_read(judge_page, site_url, fragment, message, kept):
    page = judge_page
    open_link(page, site_url, fragment)
    problem = page.locator("#link-problem")
    expect(problem).to_be_visible()
    expect(page.locator("#link-problem-head")).to_have_text(f"This link could not be read in full. {message}")
    if fragment.startswith("trump=x"):  # what was left out names every trump the notation reads, sa and ta too
        expect(page.locator("#link-problem-detail")).to_contain_text("sa for no trumps, ta for all trumps")
    trump, trick, hand = kept
    assert [li.get_attribute("data-card") for li in page.locator("#trick-cards li[data-card]").all()] == trick
    assert [li.get_attribute("data-card") for li in page.locator("#hand-cards li[data-card]").all()] == hand
    checked = page.locator('input[name="trump"]:checked')
    if trump:
        expect(checked).to_have_value(trump)
    else:
        expect(checked).to_have_count(0)

    # the editor stays usable: finish the position and get a ruling
    page.locator("label.trump-option.suit-c").click()
    if not hand:
        page.locator('input[name="target"][value="hand"]').check()
        pick(page, "Qd")
    expect(page.locator("#ruling")).to_have_attribute("data-state", "ruled")
    expect(problem).to_be_hidden()


# tests/test_cli.py ONE_POSITION_LINKS: what `coinche judge` reads as trump=h&hand=Jh, as fragments
ONE_POSITION_LINKS = ["trump=h&hand=Jh", "%23trump=h&hand=Jh", "#trump=h&hand=Jh", "?trump=h&hand=Jh",
                      "trump=h&hand=%4Ah", "%74rump=%68&hand=Jh"]


def test_a_link_reads_as_the_command_line_reads_it(judge_page, site_url):
    page = judge_page
    for fragment in ONE_POSITION_LINKS:
        open_link(page, site_url, ARGUED_OVER_PARTNER)  # another position between two links
        expect_ruled(page, ARGUED_OVER_PARTNER)
        open_link(page, site_url, fragment)
        expect_ruled(page, "trump=h&trick=&hand=Jh")
        expect(page.locator("#link-problem")).to_be_hidden()
        expect(page.locator('input[name="trump"]:checked')).to_have_value("h")
    # the ruling read out by a screen reader: the deciding rule, then each forbidden card and why
    open_link(page, site_url, ARGUED_OVER_PARTNER)
    expect_ruled(page, ARGUED_OVER_PARTNER)
    expect(page.get_by_role("status").filter(has_text="Rule 2")).to_have_text(
        "Rule 2: Only the jack of hearts is legal. Trump was led, so you must go over even your partner's trump. "
        "Some tables play otherwise at home; the rules do not. "
        "Forbidden: the king of diamonds. You hold hearts: you must follow hearts. "
        "Forbidden: the seven of spades. You hold hearts: you must follow hearts.")


def test_a_link_is_decoded_once_like_the_command_line(returning_page, site_url):
    page = returning_page
    open_judge(page, site_url, "trump=h&trick=&hand=Kd,%254Ah")
    expect(page.locator("#link-problem-detail")).to_contain_text("“%4Ah” (not a card)")
    assert [li.get_attribute("data-card") for li in page.locator("#hand-cards li[data-card]").all()] == ["Kd"]
    expect_ruled(page, "trump=h&trick=&hand=Kd")  # the editor rules on what it kept: no jack of hearts
    done = subprocess.run([sys.executable, "-m", "coinche.cli", "judge", "trump=h&trick=&hand=Kd,%254Ah"],
                          capture_output=True, text=True)
    assert done.returncode == 2 and "%4Ah" in done.stderr


HUGE_LINKS = [
    "x" * 100_000,  # a 100,000-character fragment that is no position at all
    "trump=h&trick=&hand=" + ",".join(["Jh"] * 33_000),  # a hand of 33,000 cards
    "trump=h&trick=&hand=" + ",".join(f"Q{i}" for i in range(20_000)),  # 20,000 bad cards
]
# The tests follow each link with one comma or more at its end, as a link cut or pasted twice may have (an
# empty place is no card, and was once told as "Unknown card “”"). Each is longer than any position: the page
# tells it so at once, as the engine would (position_too_long), without waiting for the worker.
def told_too_long(fragment: str) -> str:
    return (f"This link could not be read in full. Too long for a position: {len(fragment)} characters "
            "(a position has at most 100).")
# The page's cost is the best of at least 3 tries; on a machine loaded many times over, up to TRIES (a try that
# took longer was the machine's, not the page's: the threshold stays 100 ms).
TRIES = 8


def link_problem_size(page) -> dict:
    return page.evaluate("""() => {
        const box = document.getElementById("link-problem");
        return { height: box.getBoundingClientRect().height, text: box.textContent.length };
    }""")


@pytest.mark.parametrize("fragment", HUGE_LINKS, ids=["100k-chars", "33k-cards", "20k-bad-cards"])
def test_a_huge_bad_link_is_told_at_once_in_a_few_words(returning_page, site_url, fragment):
    """The page's own work on a link, message drawn, stays under 100 ms whatever the link's size, and the
    message names the link's real problem: too long for a position, as the engine says of it. The machine is
    shared: the best of three tries or more (TRIES) is the page's cost (bench/judge_links_bench.py prints the
    figures)."""
    page = returning_page
    open_judge(page, site_url)
    # Following the link from the open page (measured from the page's first look at the new fragment).
    tries = []
    for i in range(TRIES):
        page.evaluate("(fragment) => { performance.clearMeasures(); location.hash = fragment; }", fragment + "," * (i + 1))
        expect(page.locator("#link-problem")).to_be_visible()
        tries.append(link_read_ms(page))
        expect(page.locator("#link-problem-head")).to_have_text(told_too_long(fragment + "," * (i + 1)))  # the real problem
        assert link_told_ms(page) > 0
        if len(tries) >= 3 and min(tries) < 100:
            break
    assert min(tries) < 100, tries
    size = link_problem_size(page)
    assert size["height"] < 400 and size["text"] < 600, size
    # Opened in a fresh page: the same short message, as fast.
    tries = []
    for _ in range(TRIES):
        page.goto("about:blank")
        page.goto(f"{site_url}judge.html#{fragment}")
        expect(page.locator("#link-problem")).to_be_visible()
        tries.append(link_read_ms(page))
        if len(tries) >= 3 and min(tries) < 100:
            break
    assert min(tries) < 100, tries
    size = link_problem_size(page)
    assert size["height"] < 400 and size["text"] < 600, size
    assert len(page.url) < 200, "the history entry keeps what was read, not 100 kB"  # see LONG_LINK
    expect(page.locator("#link-problem-head")).to_have_text(told_too_long(fragment), timeout=BOOT_TIMEOUT_MS)


def link_read_ms(page) -> float:
    read = page.evaluate('() => performance.getEntriesByName("judge-link-read").at(-1)?.duration ?? null')
    assert read is not None
    return read


def link_told_ms(page) -> float:
    """From the page's first look at the link to the engine's word on it drawn (measure "judge-link-told")."""
    page.wait_for_function('() => performance.getEntriesByName("judge-link-told").length > 0')
    return page.evaluate('() => performance.getEntriesByName("judge-link-told").at(-1).duration')


def test_an_unfinished_position_asks_for_what_is_missing(returning_page, site_url):
    page = returning_page
    open_judge(page, site_url, "trump=h&trick=8h")
    expect(page.locator("#ruling")).to_have_attribute("data-state", "prompt")
    expect(page.locator("#ruling-prompt")).to_have_text("Add the cards you held (1 to 8).")
    expect(page.locator("#link-problem")).to_be_hidden()
    expect(page.locator("#share")).to_be_disabled()


# ---------------------------------------------------------------- keyboard, sharing, loading, privacy
def tab_to(page, selector: str, limit: int = 60) -> None:
    for _ in range(limit):
        page.keyboard.press("Tab")
        if page.evaluate("(s) => document.activeElement?.matches(s) ?? false", selector):
            return
    raise AssertionError(f"Tab never reached {selector}")


def test_keyboard_only(returning_page, site_url):
    page = returning_page
    open_judge(page, site_url)
    tab_to(page, 'input[name="trump"]')
    page.keyboard.press("Space")  # spades
    page.keyboard.press("ArrowRight")  # hearts
    expect(page.locator('input[name="trump"]:checked')).to_have_value("h")
    tab_to(page, "#picker button")
    for keys in ("8h", "ah", "7c", "jh", "kd", "7s", "qs"):
        page.keyboard.press(keys[0])
        page.keyboard.press(keys[1])
    expect_ruled(page, "trump=h&trick=8h,Ah,7c&hand=Jh,Kd,7s,Qs")
    page.keyboard.press("Backspace")  # undo the last pick
    expect_ruled(page, ARGUED_OVER_PARTNER)
    # arrows move through the picker, Enter adds the focused card
    page.keyboard.press("ArrowDown")
    focused = page.evaluate("() => document.activeElement.dataset.card")
    page.keyboard.press("Enter")
    expect_ruled(page, f"{ARGUED_OVER_PARTNER},{focused}")
    tab_to(page, "#share")
    page.keyboard.press("Enter")
    expect(page.locator("#share-status")).not_to_be_empty()


def test_share_copies_the_link_and_offers_the_share_sheet(clipboard_page, site_url):
    page = clipboard_page
    page.add_init_script("""
        window.__shared = [];
        navigator.share = (data) => { window.__shared.push(data); return Promise.resolve(); };
    """)
    open_judge(page, site_url, ARGUED_OVER_PARTNER)
    expect_ruled(page, ARGUED_OVER_PARTNER)
    page.locator("#share").click()
    expect(page.locator("#share-status")).to_have_text("Link copied. Anyone who opens it sees this ruling.")
    link = f"{site_url}judge.html#{ARGUED_OVER_PARTNER}"
    assert page.evaluate("() => navigator.clipboard.readText()") == link
    shared = page.evaluate("() => window.__shared")
    assert shared == [{"title": "The judge", "text": "Only the jack of hearts is legal.", "url": link}]


def test_the_editor_works_before_the_engine_is_ready(guarded_page, site_url):
    page = guarded_page
    held = hold_the_engine(page)
    page.goto(f"{site_url}judge.html#{ARGUED_OVER_PARTNER}", wait_until="domcontentloaded")
    expect(page.locator("#picker button[data-card]")).to_have_count(32)
    early = page.evaluate("""() => ({
        engine: document.body.dataset.engine,
        hand: [...document.querySelectorAll("#hand-cards li[data-card]")].map((li) => li.dataset.card),
    })""")
    assert early == {"engine": "loading", "hand": ["Jh", "Kd", "7s"]}
    expect(page.locator("#engine-status")).to_be_visible()
    pick(page, "Qs")  # an edit while the engine boots
    expect(page.locator("body")).to_have_attribute("data-engine", "loading")
    release(held)
    expect_ruled(page, f"{ARGUED_OVER_PARTNER},Qs")
    expect(page.locator("#engine-status")).to_be_hidden()
    expect(page.locator(".scope")).to_contain_text("All-trump and no-trump have tables of their own")
    expect(page.locator(".scope")).to_contain_text("Whether it was wise stays between you and your choices")
    expect(page.locator(".scope")).to_contain_text("trump=sa (no trumps) or trump=ta (all trumps) is ruled")


@pytest.mark.parametrize("lang", ["en", "fr", "de", "es"])
def test_the_page_text_is_the_seeds_in_every_language(returning_page, site_url, lang):
    """judge-de.txt's sections in each language: its FAQ ("which belote is this" among them), the short
    "free, in the browser, no account" block, the five rules in the seed's order, the worked tricks as links;
    the <title> and the description follow the language."""
    page = returning_page
    page.add_init_script(f"localStorage.setItem('coinche.lang', '{lang}')")
    open_judge(page, site_url, ready=False)
    messages = json.loads((DIST / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
    expect(page).to_have_title(messages["judge.page.title"])
    assert page.locator('meta[name="description"]').get_attribute("content") == messages["judge.page.description"]
    expect(page.locator("#faq details")).to_have_count(6)
    expect(page.locator("#faq")).to_contain_text(messages["judge.faq.q5"])
    expect(page.locator("#play-a-hand")).to_contain_text(messages["judge.cta.text"])
    expect(page.locator(".why-rules li")).to_have_count(5)
    assert {"en": "no account", "fr": "sans compte", "de": "ohne Konto", "es": "sin cuenta"}[lang] in messages["judge.cta.text"]
    assert {"en": "belote contrée", "fr": "belote contrée", "de": "Belote contrée", "es": "belote contrée"}[lang] \
        in messages["judge.faq.a5"]
    page.locator("#worked a.worked-link").nth(1).click()  # the second reconstructed trick, ruled by rule 5
    expect_ruled(page, ARGUED_UNDERTRUMP)
    expect(page.locator("#ruling-summary .summary-rule")).to_have_text(messages["judge.rule_n"].replace("{n}", "5"))
    if lang != "en":
        page.select_option("#language", "en")
        expect(page).to_have_title(catalogue_en()["judge.page.title"])


def catalogue_en() -> dict:
    return json.loads((DIST / "i18n" / "en.json").read_text(encoding="utf-8"))


def test_nothing_leaves_the_site_and_the_position_never_reaches_the_server(guarded_page, site_url):
    page = guarded_page
    requests = []
    page.context.on("request", lambda r: requests.append(r.url))
    open_judge(page, site_url, ARGUED_OVER_PARTNER)
    expect_ruled(page, ARGUED_OVER_PARTNER)
    page.locator("#examples a.example-link").nth(1).click()
    expect_ruled(page, ARGUED_UNDERTRUMP)
    pick(page, "Qs")
    expect_ruled(page, f"{ARGUED_UNDERTRUMP},Qs")
    origin = urlsplit(site_url).netloc
    assert requests
    for url in requests:
        parts = urlsplit(url)
        assert parts.netloc == origin, url
        assert "trump" not in parts.query and not parts.fragment, url
