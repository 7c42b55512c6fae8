"""A table with friends through the page, as four friends would: a referee on a free localhost port, four browser
contexts, two on touch screens (tap) and two by keyboard. The host opens the table and copies the invite link
(by touch, a friend by keyboard); three friends open it and each sits where they like (a move by keyboard, one
by touch), one leaves by keyboard and one by touch and both come back by the link; the host starts by touch; the
four play a whole deal on the same table as solo play (the coach's call computed by each page's own engine from
its seat's view, the names at the seats); one leaves (a bot takes the seat, the others are told and the seat is
named for its bot) and comes back by opening the link again (their own seat, from the bot). And the lobby at
every width of the layout test in the four languages, with axe-core. No console error, no request outside
localhost."""
from __future__ import annotations

import json
import random
import re
import sys
from pathlib import Path

import pytest
from playwright.sync_api import expect
from websockets.sync.client import connect

sys.path.insert(0, str(Path(__file__).parent))  # --import-mode=importlib: the helpers beside this file
from layout_helpers import check_axe, check_layout  # noqa: E402
from test_layout import AXE_WIDTHS, open_page, screens  # noqa: E402
from test_table import BOOT_MS  # noqa: E402
from test_online import (english_call_advice, enter_lobby, player_contexts, players, referee,  # noqa: E402,F401
                         set_up, start_referee, table, play_until)

NAMES = ["Ana", "Bob", "Cy", "Di"]


def seat_name(page, pos):
    return page.locator(f'.seat[data-pos="{pos}"] .seat-name')


def lobby_seat(page, seat):
    return page.locator(f'.friends-seat[data-seat="{seat}"]')


def open_table(page, clock=None):
    """The host's "Table with friends" (with the turn clock ``clock`` if given): the lobby, its code and its
    invite link."""
    enter_lobby(page)
    if clock:
        page.select_option("#online-clock", clock)
    page.click("#btn-online-friends")
    expect(page.locator(".online-friends")).to_be_visible()
    code = page.locator("#friends-code")
    expect(code).to_have_text(re.compile(r"^[2-9A-HJKMNP-Z]{6}$"))
    link = page.locator("#friends-link").input_value()
    assert link.endswith(f"#join={code.inner_text()}")
    return link


# full tier: four browsers, a whole deal, a spectator and the chat, 110 s of CPU (make test: the referee's tests)
@pytest.mark.full_only
def test_four_friends_play_a_whole_deal_at_one_table(players, site_url, referee):  # noqa: F811 (test_online's fixtures)
    clipboard = ("clipboard-read", "clipboard-write")
    # Ana and Di on touch screens (tap), Bob and Cy by keyboard
    pages = [players(clipboard, touch=True), players(clipboard), players(), players(touch=True)]
    ana, bob, cy, di = pages
    set_up(ana, site_url, "Ana", referee)
    invite = open_table(ana, clock="relaxed")
    ana.tap("#btn-friends-copy")
    expect(ana.locator("#friends-copied")).to_contain_text("copied")
    assert ana.evaluate("() => navigator.clipboard.readText()") == invite
    expect(ana.locator("#btn-friends-start")).to_be_disabled()  # alone: nobody to play with yet
    expect(ana.locator("#friends-status")).to_contain_text("At least two people")

    set_up(bob, site_url, "Bob")
    bob.goto(invite)  # the first free seat: 1, on Ana's right
    expect(bob.locator(".online-friends")).to_be_visible(timeout=BOOT_MS)  # once the page's engine is up
    expect(lobby_seat(bob, 1)).to_have_attribute("data-pos", "0")
    sit = lobby_seat(bob, 3).locator(".friends-sit")  # Bob moves to seat 3 by keyboard
    sit.focus()
    bob.keyboard.press("Enter")
    expect(lobby_seat(bob, 3)).to_have_attribute("data-pos", "0")
    expect(lobby_seat(ana, 3).locator(".friends-name")).to_have_text("Bob")
    expect(lobby_seat(ana, 1)).to_have_attribute("data-player", "empty")
    expect(bob.locator("#btn-friends-start")).to_be_hidden()  # only the host starts
    expect(bob.locator("#friends-status")).to_contain_text("Waiting for Ana")
    bob.locator("#btn-friends-copy").focus()  # any friend copies the link too: by keyboard
    bob.keyboard.press("Enter")
    expect(bob.locator("#friends-copied")).to_contain_text("copied")
    assert bob.evaluate("() => navigator.clipboard.readText()") == invite
    set_up(cy, site_url, "Cy")
    cy.goto(invite)
    expect(cy.locator(".online-friends")).to_be_visible(timeout=BOOT_MS)
    expect(lobby_seat(ana, 1).locator(".friends-name")).to_have_text("Cy")
    cy.locator("#btn-friends-leave").focus()  # Cy leaves by keyboard: seat 1 frees
    cy.keyboard.press("Enter")
    expect(cy.locator("#btn-online-friends")).to_be_visible()
    expect(lobby_seat(ana, 1)).to_have_attribute("data-player", "empty")
    set_up(di, site_url, "Di")
    di.goto(invite)
    expect(di.locator(".online-friends")).to_be_visible(timeout=BOOT_MS)
    expect(lobby_seat(di, 1)).to_have_attribute("data-pos", "0")  # the first free seat
    lobby_seat(di, 2).locator(".friends-sit").tap()  # Di moves to seat 2 by touch
    expect(lobby_seat(di, 2)).to_have_attribute("data-pos", "0")
    expect(lobby_seat(ana, 2).locator(".friends-name")).to_have_text("Di")  # opposite Ana: her partner
    expect(lobby_seat(ana, 2).locator(".friends-place")).to_contain_text("your partner")
    di.tap("#btn-friends-leave")  # and leaves by touch: seat 2 frees, she comes back by the link
    expect(di.locator("#btn-online-friends")).to_be_visible()
    expect(lobby_seat(ana, 2)).to_have_attribute("data-player", "empty")
    for page in (cy, di):  # back by the link: Cy in seat 1, Di in seat 2 (the first free ones)
        page.goto(invite)
        expect(page.locator(".online-friends")).to_be_visible(timeout=BOOT_MS)
        page.locator(".friends-seat[data-pos='0'] .friends-name").wait_for()
    expect(lobby_seat(ana, 1).locator(".friends-name")).to_have_text("Cy")
    expect(lobby_seat(ana, 2).locator(".friends-name")).to_have_text("Di")
    expect(ana.locator("#friends-status")).to_contain_text("4 people seated: no bot")
    ana.tap("#btn-friends-start")  # the host starts by touch

    for page in pages:
        expect(page.locator("#table")).to_be_visible(timeout=15_000)
    # the turn clock the host chose (relaxed: 60 s a call and 60 s of reserve), on the seat to move at each table
    clock = table(ana)["state"]["clock"]
    assert clock["total"] == 120 and clock["seat"] == table(ana)["state"]["deal"]["current_player"]
    for page in pages:
        pos = (clock["seat"] - table(page)["seat"]) % 4
        expect(page.locator(f'.seat[data-pos="{pos}"] .player .turn-clock')).to_be_visible()
        expect(page.locator(".turn-clock")).to_have_count(1)
    problems = check_axe(ana, "friends-table-clock")
    assert not problems, problems

    seats = {name: table(page)["seat"] for name, page in zip(NAMES, pages)}
    assert seats == {"Ana": 0, "Cy": 1, "Di": 2, "Bob": 3}
    assert table(ana)["state"]["humans"] == [0, 1, 2, 3]
    expect(seat_name(ana, 1)).to_have_text("Cy")  # the names at the seats, as each one sits
    expect(seat_name(ana, 2)).to_have_text("Di")
    expect(seat_name(ana, 3)).to_have_text("Bob")
    expect(seat_name(bob, 1)).to_have_text("Ana")
    expect(seat_name(cy, 3)).to_have_text("Ana")

    # seat 1 (Cy) speaks first: the coach's line is the Normal bot's call on Cy's view, computed in Cy's page
    from coinche.webcommands import coach_view

    line = cy.locator("#coach-line")
    expect(line).to_have_attribute("data-kind", "auction", timeout=60_000)
    deal = table(cy)["state"]["deal"]
    assert deal["current_player"] == 1
    expected = coach_view(deal)
    assert line.get_attribute("data-call") == expected["call"]
    assert english_call_advice(expected["call"]) in line.inner_text().replace("\n", " ")

    # a fifth person watches by the code: what every seat sees and no hand, the seat to move with its clock
    sam = players()
    set_up(sam, site_url, "Sam")
    sam.goto(invite.replace("#join=", "#watch="))
    expect(sam.locator(".online-watch")).to_be_visible(timeout=BOOT_MS)
    expect(sam.locator('.watch-seat[data-seat="1"] .watch-name')).to_have_text("Cy")
    expect(sam.locator('.watch-seat[data-seat="3"] .watch-name')).to_have_text("Bob")
    expect(sam.locator(".online-watch .turn-clock")).to_be_visible()  # on the seat to move (Cy's, unless it ran out)
    expect(sam.locator(".watch-cards")).to_have_text([re.compile(r"^\d cards?$")] * 4)
    expect(sam.locator("#hand .card, .online-watch .card")).to_have_count(0)
    problems = check_layout(sam, "friends-watching", "#online") + check_axe(sam, "friends-watching")
    assert not problems, problems

    # quick chat: Ana says "Well played!", a bubble at her seat at every table; Cy mutes her, Bob does not
    ana.tap("#btn-chat")
    ana.locator('.chat-phrase[data-phrase="well_played"]').tap()
    expect(bob.locator('.seat[data-pos="1"] .chat-bubble')).to_have_text("Well played!")  # Ana, on Bob's right
    expect(cy.locator('.seat[data-pos="3"] .chat-bubble')).to_have_text("Well played!")  # and on Cy's left
    expect(sam.locator('.watch-seat[data-seat="0"] .watch-said')).to_have_text("Well played!")  # the spectator too
    cy.click("#btn-chat")
    cy.locator('.chat-mute[data-seat="0"]').click()
    expect(cy.locator('.chat-mute[data-seat="0"]')).to_have_attribute("aria-pressed", "true")
    problems = check_layout(cy, "friends-chat", "#table") + check_axe(cy, "friends-chat")
    assert not problems, problems
    cy.click("#btn-chat")
    ana.tap("#btn-chat")
    ana.locator('.chat-phrase[data-phrase="thanks"]').tap()
    expect(bob.locator('.seat[data-pos="1"] .chat-bubble')).to_have_text("Thanks!")
    expect(cy.locator(".chat-strip [role=log]")).to_have_text("Ana: Well played!")  # muted: not heard

    # the spectator's connection drops (as when the table's referee process goes): the page watches again
    sam.evaluate("async () => (await import('/js/main.js')).online.drop()")
    expect(sam.locator("#watch-status")).to_have_text("Connection lost. Reconnecting…")
    expect(sam.locator("#watch-status")).to_be_hidden(timeout=15_000)
    expect(sam.locator(".online-watch")).to_be_visible()

    counts = play_until(pages, random.Random(11), lambda _, c: c["cards"] >= 32 and c["deals"] >= 4, seconds=300)
    assert counts["cards"] >= 32  # four people, no bot: a whole played deal
    totals = [table(page)["state"]["totals"] for page in pages]
    assert totals[0] == totals[2] and totals[1] == totals[3] == totals[0]  # one match, seen alike by all
    expect(sam.locator("#watch-score")).to_have_text(f"Ana & Di: {totals[0][0]} · Cy & Bob: {totals[0][1]}")
    sam.click("#btn-watch-leave")
    expect(sam.locator("#btn-online-queue")).to_be_visible()
    # each one's history keeps the deal as the referee showed it, from their own seat: never the deck
    for name, page in zip(NAMES, pages):
        kept = page.evaluate("async () => (await (await import('/js/history.js')).readHistory()).entries")
        assert kept and all(e["online"] and e["seat"] == seats[name] and "deck" not in e["record"] for e in kept), name
        assert len({e["deal"] for e in kept}) == len(kept)  # each deal once

    # Di leaves: a bot takes seat 2 at once; she comes back by opening the link again
    di.click("#btn-home")
    expect(di.locator("#home")).to_be_visible()
    expect(ana.locator("#online-banner")).to_contain_text("Di left: a bot plays their seat", timeout=15_000)
    expect(seat_name(ana, 2)).to_have_text("Bot for Di")
    di.goto(invite)
    expect(di.locator("#table")).to_be_visible(timeout=BOOT_MS)
    expect(ana.locator("#online-banner")).to_contain_text("Di is back and takes their seat again", timeout=15_000)
    expect(seat_name(ana, 2)).to_have_text("Di")
    back = table(di)
    assert back["seat"] == 2 and 2 in back["state"]["humans"]
    play_until(pages, random.Random(12), lambda _, c: c["cards"] >= 2, seconds=120)


# ---------------------------------------------------------------- the lobby on every screen

LONG_NAME = "Maximilian-Alexander"


@pytest.fixture(scope="module")
def lobby_referee(tmp_path_factory):
    """The lobby screens' own referee, with the default limit of connections from one address (16). Each
    screen's friends' table must be gone when the screen is done: a table waiting for its players counts
    against its creator's address like a connection, and a friend whose connection merely drops keeps their
    seat for the grace period (60 s). So the friend leaves, as the lobby's Leave does; before, the friend's
    socket was only closed, and the default limit was met after 14 screens."""
    process, url = start_referee(tmp_path_factory.mktemp("lobby-referee"))
    yield url
    process.terminate()
    process.wait(10)


@pytest.mark.parametrize("lang, width", screens(2))  # every screen with --full
def test_the_friends_lobby_fits_every_screen(returning_page, site_url, lobby_referee, lang, width):
    page, referee = returning_page, lobby_referee  # noqa: F811 (the imported fixture is the other tests')
    open_page(page, site_url, f"?referee={referee}", lang, width)
    page.evaluate("() => localStorage.setItem('coinche.online', JSON.stringify({name: 'Maximilian-Alexander'}))")
    page.reload()
    page.click("#btn-online")
    page.click("#btn-online-friends")
    expect(page.locator("#friends-code")).to_have_text(re.compile(r"^[2-9A-HJKMNP-Z]{6}$"))
    code = page.locator("#friends-code").inner_text()
    with connect(referee) as friend:  # a friend in seat 1, with a long name too; seats 2 and 3 stay free
        assert json.loads(friend.recv())["type"] == "welcome"
        friend.send(json.dumps({"type": "join", "code": code, "lobby": True, "name": LONG_NAME}))
        joined = json.loads(friend.recv())
        assert joined["type"] == "lobby", joined
        expect(lobby_seat(page, 1).locator(".friends-name")).to_have_text(LONG_NAME)
        expect(page.locator("#btn-friends-start")).to_be_enabled()
        problems = check_layout(page, f"{lang}-friends-lobby", "#online")
        if width in AXE_WIDTHS:
            problems += check_axe(page, f"{lang}-friends-lobby")
        page.click("#btn-friends-leave")
        expect(page.locator("#btn-online-friends")).to_be_visible()
        friend.send(json.dumps({"type": "leave"}))
        while json.loads(friend.recv(timeout=10))["type"] != "left":  # (the host's leaving is told first)
            pass
    assert not problems, f"{len(problems)} problems:\n" + "\n".join(problems)
