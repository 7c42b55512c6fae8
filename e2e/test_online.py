"""1v1 online through the page, as two players would: a referee (`python -m coinche_referee`) on a free
localhost port, two browser contexts. A private table by link and a whole match to 501 played by tapping
cards and bidding; the lonely queue's countdown and its offer of a table against three bots; a dropped
socket and a reload mid-match, each followed by the seat taken back with its token; a private table still
waiting for the friend that outlives its referee (kill -9, Redis, the page resuming by itself); a player who leaves,
replaced by a bot, and the other told; the bidding coach's call, computed by the page's own engine; the
referee's limits (wrong codes, connections from one address) told in words. No console error, no request
outside localhost."""
from __future__ import annotations

import json
import random
import re
import subprocess
import sys
import time
from contextlib import ExitStack
from pathlib import Path

import pytest
from playwright.sync_api import expect

sys.path.insert(0, str(Path(__file__).parent))  # --import-mode=importlib: the helpers beside this file
from conftest import forget_storage, save_a_snapshot, watched
from test_table import BOOT_MS, UI, bid_or_pass, look, tap, until_changed

MATCH_SECONDS = 400
VIEWPORT = {"width": 390, "height": 844}

# The state the page's table shows (the referee's view of this seat).
TABLE_STATE = """async () => {
  const { game } = await import('/js/main.js');
  return { seat: game.seat, state: game.state };
}"""


def start_referee(tmp_path, *options: str):
    """The referee as its own process on a free port: (process, ws:// URL)."""
    log = open(tmp_path / "referee.log", "w")
    process = subprocess.Popen(
        [sys.executable, "-m", "coinche_referee", "--port", "0", "--bot-delay", "0", "--lobby-timeout", "2",
         "--level", "easy", "--log-level", "WARNING", *options],
        stdout=subprocess.PIPE, stderr=log, text=True)
    line = process.stdout.readline()
    match = re.search(r"ws://[\d.]+:\d+", line)
    if not match:
        process.kill()
        pytest.fail(f"the referee did not start: {line!r} {(tmp_path / 'referee.log').read_text()}")
    return process, match.group(0)


@pytest.fixture(scope="module")
def referee(tmp_path_factory):
    process, url = start_referee(tmp_path_factory.mktemp("referee"))
    yield url
    process.terminate()
    process.wait(10)


@pytest.fixture(scope="session")
def player_contexts():
    """The people's browser contexts of this worker, by touch screen or not: each a returning visitor's
    (its first visit made when first needed, `save_a_snapshot`), lent to one person of one test at a time."""
    contexts: dict[bool, list] = {}
    yield contexts
    for made in contexts.values():
        for context in made:
            context.close()


@pytest.fixture
def players(browser, player_contexts, site_url):
    """A function that opens one more player: a browser context of their own (a returning visitor's, whose
    engine boots from its snapshot, with nothing else kept from an earlier test) and its guarded page
    (``touch``: a touch screen, for ``tap()``; ``refused``: the browser's own console error for a refused
    WebSocket is expected, the referee being down for a moment)."""
    opened = []
    lent = {False: 0, True: 0}
    watching = ExitStack()

    def open_player(permissions=(), touch=False, refused=False):
        made = player_contexts.setdefault(touch, [])
        if lent[touch] == len(made):
            context = browser.new_context(reduced_motion="reduce", viewport=VIEWPORT, has_touch=touch)
            context.add_init_script("localStorage.setItem('coinche.speed', 'test')")  # the test pace
            save_a_snapshot(context, site_url)
            made.append(context)
        context = made[lent[touch]]
        lent[touch] += 1
        if permissions:
            context.grant_permissions(list(permissions))
        page = context.new_page()
        opened.append((context, watching.enter_context(watched(page)), refused))
        return page

    yield open_player
    watching.close()
    problems = [p for _, seen, refused in opened for p in seen.problems
                if not (refused and "WebSocket connection" in p and "ERR_CONNECTION_REFUSED" in p)]
    for context, _, _ in opened:  # the tabs closed, what the site kept wiped: lent again clean
        for page in context.pages:
            page.close()
        wiper = context.new_page()
        forget_storage(wiper, site_url)
        wiper.close()
        context.clear_permissions()
    assert not problems, "a page misbehaved:\n" + "\n".join(problems)


def set_up(page, url, name, referee=None):
    """Home, then the settings as a player fills them: name, referee (if given), 501; then the 1v1 lobby."""
    page.goto(url)
    expect(page.locator("#home")).to_be_visible()
    page.click("#btn-settings")
    dialog = page.locator("#dlg-settings")
    expect(dialog.locator("#setting-name")).to_be_visible()  # the 1v1 fields come with the lobby's module
    dialog.locator("input[name=target][value='501']").check(force=True)
    dialog.locator("#setting-name").fill(name)
    if referee:
        dialog.locator("#setting-referee").fill(referee)
    dialog.locator("button[type=submit]").click()
    expect(dialog).to_be_hidden()


def enter_lobby(page):
    page.click("#btn-online")
    expect(page.locator("#online")).to_be_visible()
    expect(page.locator("#btn-online-queue")).to_be_visible()


def queue_two(players, site_url, referee):
    """Two players through "Find an opponent": (the page in seat 0, the page in seat 1)."""
    a, b = players(), players()
    set_up(a, site_url, "Ana", referee)
    set_up(b, site_url, "Bob", referee)
    enter_lobby(a)
    a.click("#btn-online-queue")
    expect(a.locator("#online-countdown")).to_be_visible()
    enter_lobby(b)
    b.click("#btn-online-queue")
    for page in (a, b):
        expect(page.locator("#table")).to_be_visible()
    return a, b


def table(page):
    return page.evaluate(TABLE_STATE)


def check_dimmed_cards(page, ui):
    got = table(page)
    deal = got["state"]["deal"]
    assert deal["current_player"] == got["seat"] and deal["phase"] == "play"
    forbidden = set(deal["hand"]) - set(deal["legal"])
    assert set(deal["ruling"]["forbidden"]) == forbidden
    assert set(ui["hand"]) == set(deal["hand"])
    assert set(ui["forbidden"]) == forbidden and set(ui["playable"]) == set(deal["legal"])


def step(page, rng, counts) -> tuple[bool, str | None]:
    """One thing the player does now, if any: close a deal summary, bid or pass, or play a card. Returns
    whether the match is over for this page, and the UI's text when it did nothing (for until_changed)."""
    ui, seen = look(page)
    if ui["result"]:
        return True, seen
    if ui["summary"]:
        counts["deals"] += 1
        page.click("#dlg-summary .dialog-actions .btn.primary")
    elif ui["bidding"]:
        bid_or_pass(page, "coinche", rng)
    elif ui["myTurn"]:
        check_dimmed_cards(page, ui)
        counts["cards"] += 1
        card = rng.choice(ui["playable"])
        # After a reload the page focuses a card (keyboard focus kept where the turn is); raised, it would
        # cover its neighbour's edge, which a finger's tap does not meet: tap as a touch user, unfocused.
        page.evaluate("() => document.activeElement?.blur()")
        tap(page, card)
        expect(page.locator(f'#hand .card[data-card="{card}"]')).to_have_count(0)
    else:
        return False, seen
    return False, None


def play_until(pages, rng, done, seconds=MATCH_SECONDS):
    """Every page's player does what they can until ``done(finished, counts)``. When none could act, the wait
    is on the first page's UI, which a card or a call of anyone at the table changes (its trick, whose turn)."""
    counts = {"deals": 0, "cards": 0}
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        steps = [step(page, rng, counts) for page in pages]
        finished = [over for over, _ in steps]
        if done(finished, counts):
            return counts
        if all(seen is not None for _, seen in steps):
            until_changed(pages[0], steps[0][1], seconds=0.5)
    raise AssertionError(f"not done within {seconds} s: {counts}")


@pytest.mark.full_only  # a whole match to 501 in two browsers: 76 s of CPU (make test: the other online tests play deals)
def test_a_private_table_by_link_and_a_whole_match(players, site_url, referee):
    a = players(permissions=("clipboard-read", "clipboard-write"))
    set_up(a, site_url, "Ana", referee)
    enter_lobby(a)
    expect(a.locator("#online-who")).to_contain_text("Ana")
    a.click("#btn-online-create")
    link = a.locator("#online-link")
    expect(link).to_have_value(re.compile(r"#join=[2-9A-HJKMNP-Z]{6}$"))
    invite = link.input_value()
    code = invite.rsplit("=", 1)[1]
    expect(a.locator("#online-code-shown")).to_have_text(code)
    a.click("#btn-online-copy")
    expect(a.locator("#online-copied")).to_contain_text("copied")
    assert a.evaluate("() => navigator.clipboard.readText()") == invite
    assert "referee=" in invite  # not the build's default referee: the friend needs it

    b = players()
    set_up(b, site_url, "Bob")  # no referee of their own: it comes with the link
    b.goto(invite)
    for page in (a, b):
        expect(page.locator("#table")).to_be_visible()
    expect(a.locator('.seat[data-pos="1"] .seat-name')).to_have_text("Bob")  # seat 1, on Ana's right
    expect(b.locator('.seat[data-pos="3"] .seat-name')).to_have_text("Ana")  # seat 0, on Bob's left
    assert table(a)["seat"] == 0 and table(b)["seat"] == 1
    assert "#join" not in b.url  # a code is used once

    counts = play_until([a, b], random.Random(7), lambda finished, _: all(finished))
    assert counts["cards"] >= 16 and counts["deals"] >= 1
    def final(page):
        score = page.locator("#dlg-result .final-score")
        return int(score.locator(".us").inner_text()), int(score.locator(".them").inner_text())

    (a_us, a_them), (b_us, b_them) = final(a), final(b)
    assert (a_us, a_them) == (b_them, b_us) and max(a_us, a_them) >= 501  # seats 0 and 1 are opponents
    a.locator("#dlg-result .dialog-actions .btn:not(.primary)").click()  # home
    expect(a.locator("#home")).to_be_visible()
    expect(a.locator("#btn-resume")).to_be_hidden()  # an online match is not saved as a solo match


def test_nobody_comes_the_countdown_and_the_bots_instead(players, site_url, referee):
    page = players()
    set_up(page, site_url, "Solo", referee)
    enter_lobby(page)
    # first a public table of four, bots after 15 s: its countdown, then cancelled (out of its queue)
    page.select_option("#online-preset", "classic")
    page.select_option("#online-wait", "15")
    page.click("#btn-online-public")
    countdown = page.locator("#online-countdown")
    expect(countdown).to_have_text(re.compile(r"^1[0-5] seconds$"))
    expect(page.locator("#online-status")).to_contain_text("Waiting for other players")
    page.click("#btn-online-cancel")
    expect(page.locator("#btn-online-queue")).to_be_visible()
    page.click("#btn-online-queue")
    expect(countdown).to_have_text(re.compile(r"^[12] seconds?$"))
    expect(page.locator("#online-status")).to_contain_text("Waiting for an opponent")
    expect(page.locator("#btn-online-bots")).to_be_visible(timeout=10_000)  # the referee's no_opponent
    expect(page.locator("#online-status")).to_contain_text("Nobody came")
    expect(countdown).to_be_hidden()
    page.click("#btn-online-bots")
    expect(page.locator("#table")).to_be_visible(timeout=BOOT_MS)
    expect(page.locator("body")).to_have_attribute("data-state", "ready", timeout=BOOT_MS)
    play_until([page], random.Random(1), lambda _, counts: counts["cards"] >= 1, seconds=60)
    state = page.evaluate("async () => (await (await import('/js/main.js')).engine.call('state')).state")
    assert state["settings"]["humans"] == [0] and state["target"] == 501  # the local engine's match


def test_a_private_table_outlives_its_referee_with_redis(players, site_url, tmp_path):
    """A referee sharing Redis keeps a 1v1 private table still waiting for the friend: killed (kill -9) and
    another started on the same address, the creator's page reconnects by itself and shows the same code,
    and the friend's link seats both at the table."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
    from redis_server import RedisServer, free_port, need_redis

    need_redis()
    server = RedisServer().start()
    port = str(free_port())
    options = ("--port", port, "--redis", server.url)
    first, url = start_referee(tmp_path, *options)
    second = None
    try:
        a = players(refused=True)  # its page tries to reconnect while no referee listens
        set_up(a, site_url, "Ana", url)
        enter_lobby(a)
        a.click("#btn-online-create")
        link = a.locator("#online-link")
        expect(link).to_have_value(re.compile(r"#join=[2-9A-HJKMNP-Z]{6}$"))
        invite = link.input_value()
        first.kill()
        first.wait(10)
        banner = a.locator("#online-banner")
        expect(banner).to_contain_text("econnect")  # the page tries again by itself
        second, again = start_referee(tmp_path, *options)  # the same address, as behind one proxy
        assert again == url
        expect(banner).to_be_hidden(timeout=20_000)  # resumed: told created again, the same code
        expect(a.locator("#online-link")).to_have_value(invite)
        expect(a.locator("#online-code-shown")).to_have_text(invite.rsplit("=", 1)[1])
        b = players()
        set_up(b, site_url, "Bob")
        b.goto(invite)
        for page in (a, b):
            expect(page.locator("#table")).to_be_visible(timeout=20_000)
        assert table(a)["seat"] == 0 and table(b)["seat"] == 1
        expect(a.locator('.seat[data-pos="1"] .seat-name')).to_have_text("Bob")
    finally:
        for process in (first, second):
            if process is not None and process.poll() is None:
                process.kill()
                process.wait(10)
        server.cleanup()


@pytest.mark.full_only  # 23 s of CPU (make test: the referee's reconnection tests)
def test_a_dropped_socket_and_a_reload_take_the_seat_back(players, site_url, referee):
    a, b = queue_two(players, site_url, referee)
    rng = random.Random(3)
    play_until([a, b], rng, lambda _, counts: counts["cards"] >= 3, seconds=120)

    before = table(a)["state"]
    a.evaluate("async () => (await import('/js/main.js')).online.drop()")
    expect(b.locator("#online-banner")).to_contain_text("Ana is back", timeout=15_000)
    expect(a.locator("#online-banner")).to_be_hidden(timeout=15_000)
    after = table(a)["state"]
    assert after["seq"] >= before["seq"] and after["totals"] == before["totals"]

    a.reload()  # the tab keeps its seat's token: the page goes straight back to the table
    expect(a.locator("#table")).to_be_visible(timeout=15_000)
    expect(b.locator("#online-banner")).to_contain_text("Ana is back", timeout=15_000)
    back = table(a)
    assert back["seat"] == 0 and back["state"]["seq"] >= after["seq"]
    assert set(a.evaluate(UI)["hand"]) == set(back["state"]["deal"]["hand"])
    expect(a.locator('.seat[data-pos="1"] .seat-name')).to_have_text("Bob")
    cards = play_until([a, b], rng, lambda _, counts: counts["cards"] >= 4, seconds=120)["cards"]
    assert cards >= 4


def english_call_advice(call):
    """The coach's English sentence for a call, as the catalogue's `coach.auction` words it."""
    catalogue = json.loads((Path(__file__).parent.parent / "web" / "i18n" / "en.json").read_text())["coach.auction"]
    symbols = {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}
    found = re.fullmatch(r"(\d+|capot)([shdc])", call)
    if not found:
        sentence = f"I would {call}."  # pass, coinche, surcoinche
        assert "{" + sentence + "}" in catalogue
        return sentence
    value, suit = found.groups()
    assert "{I would bid {value} {suit, select, s {♠}" in catalogue and "{I would bid capot {suit" in catalogue
    return f"I would bid {value} {symbols[suit]}."


@pytest.mark.full_only  # 17 s of CPU (make test: tests/test_referee_coach.py)
def test_the_coach_suggests_the_normal_bots_call_in_a_1v1_auction(players, site_url, referee):
    """As in solo play: on the player's turn in the auction the coach line names the Normal bot's call,
    computed by the page's own engine from the view the referee sent (the referee sends nothing more)."""
    from coinche.webcommands import coach_view

    a, b = queue_two(players, site_url, referee)  # seat 1 (Bob) speaks first
    line = b.locator("#coach-line")
    expect(line).to_have_attribute("data-kind", "auction", timeout=BOOT_MS)
    expect(line).to_be_visible()
    got = table(b)
    deal = got["state"]["deal"]
    assert got["seat"] == 1 and deal["phase"] == "auction" and deal["current_player"] == 1
    expected = coach_view(deal)  # the engine's explain_call on this very view, computed here in Python
    assert line.get_attribute("data-call") == expected["call"]
    said = line.inner_text().replace("\n", " ")
    assert said.count(english_call_advice(expected["call"])) == 1 and said.count("I would") == 1
    lit = re.compile(r"\bsuggested\b")
    bid = re.fullmatch(r"(\d+|capot)([shdc])", expected["call"])
    if bid:  # a bid: its number and its suit are lit
        expect(b.locator("#bidding .suggested")).to_have_count(2)
        expect(b.locator(f"#bidding .chip.value[data-value='{bid[1]}']")).to_have_class(lit)
        expect(b.locator(f"#bidding .chip.suit[data-suit='{bid[2]}']")).to_have_class(lit)
    else:
        expect(b.locator(f'#bidding [data-call="{expected["call"]}"]')).to_have_class(lit)
    expect(a.locator("#coach-line")).to_be_hidden()  # not Ana's turn


def test_the_referees_limits_are_told_in_words(players, site_url, tmp_path):
    """Wrong table codes past the referee's allowance, and one connection too many from one address:
    the lobby says what happened and when to try again, never "another version of the protocol"."""
    process, url = start_referee(tmp_path, "--max-per-address", "1", "--guesses", "2")
    try:
        a = players()
        set_up(a, site_url, "Eve", url)
        enter_lobby(a)
        status = a.locator("#online-status")
        for code in ("ZZZZZZ", "ZZZZZY"):
            blocked_from = time.monotonic()  # the second wrong code starts the 60 s block: not before this
            a.fill("#online-code", code)
            a.press("#online-code", "Enter")
            expect(status).to_contain_text(f"No table waits with the code {code}")
        a.fill("#online-code", "ZZZZZX")
        a.press("#online-code", "Enter")
        told = re.compile(r"Too many wrong table codes from your address\. Try again in (\d+) seconds\.")
        expect(status).to_have_text(told)
        # the referee counts down from the block's start: the seconds told are those left when it refused
        seconds = int(told.fullmatch(status.inner_text().strip())[1])
        assert int(60 - (time.monotonic() - blocked_from)) <= seconds <= 61
        a.click("#btn-online-queue")  # one connection, waiting
        expect(a.locator("#online-countdown")).to_be_visible()
        b = players()
        set_up(b, site_url, "Ida", url)
        enter_lobby(b)
        b.click("#btn-online-queue")  # a second one from the same address
        expect(b.locator("#online-status")).to_contain_text("Too many connections from your address")
    finally:
        process.terminate()
        process.wait(10)


def test_a_player_who_leaves_is_replaced_by_a_bot(players, site_url, tmp_path):
    """And the turn clock first: its bar on the seat to move, on both pages; Ana lets her time run out, the
    bot plays her call and she is told why; then she leaves."""
    process, url = start_referee(tmp_path, "--grace", "1", "--clock", "fast", "--clock-scale", "0.2",
                                 "--clock-strikes", "100")  # Bob, waiting on the banner, is never replaced
    try:
        a, b = queue_two(players, site_url, url)
        # Bob (seat 1) speaks first: the bar on his seat, at the bottom of his table and on Ana's right
        expect(b.locator('.seat[data-pos="0"] .turn-clock')).to_be_visible(timeout=BOOT_MS)
        expect(a.locator('.seat[data-pos="1"] .turn-clock')).to_be_visible()
        expect(b.locator(".turn-clock")).to_have_attribute("aria-label", re.compile(r"^\d s left to play$"))
        play_until([b], random.Random(4), lambda *_: table(a)["state"]["deal"]["current_player"] == 0, seconds=60)
        expect(a.locator('.seat[data-pos="0"] .turn-clock')).to_be_visible()
        banner = a.locator("#online-banner")
        expect(banner).to_have_text("Your time ran out: a bot played for you (1 of 100 in a row).", timeout=15_000)
        assert table(a)["state"]["deal"]["current_player"] != 0  # the table went on from the bot's call
        a.close()  # the tab is gone: away, then after the grace period a bot sits
        banner = b.locator("#online-banner")
        expect(banner).to_contain_text("Ana left: a bot plays their seat", timeout=15_000)
        # the match goes on: Bob's turns keep coming, and the seat is named for its bot
        play_until([b], random.Random(5), lambda _, counts: counts["cards"] >= 2, seconds=120)
        expect(b.locator('.seat[data-pos="3"] .seat-name')).to_have_text("Bot for Ana")
    finally:
        process.terminate()
        process.wait(10)
