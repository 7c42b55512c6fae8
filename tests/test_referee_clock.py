"""The turn clock (referee/PROTOCOL.md, "The turn clock"): a person who stops playing holds nobody up.

At a 1v1 table with short clocks (``clock_scale``), one player plays and the other idles: the clock runs
out, the table's bot plays the idle seat's decision (``event.timeout``, the ``clock`` notice to that seat),
a late move for it is refused with ``too_late`` and changes nothing, a stale clock timer does nothing, and
after ``clock_strikes`` timeouts in a row a bot takes the seat as when its player leaves.  The clock's
arithmetic (base, reserve a deal, timeouts in a row) against a naive model of it, by hypothesis.
"""

from __future__ import annotations

import asyncio
import random
import time

from hypothesis import given, settings, strategies as st

from coinche_referee.clock import PRESETS, ClockSettings, TurnClock
from coinche_referee.referee import Config
from test_referee_helpers import find_leaks, seat_two, serve

#: ``fast`` at a twentieth: a call 0.75 s, a card 0.5 s, a reserve of 0.5 s a deal.
SHORT = Config(bot_delay=0, level="easy", lobby_timeout=5, grace=5, rate=1000, burst=1000, clock="fast",
               clock_scale=0.05, clock_strikes=2)


def test_an_idle_player_is_played_for_refused_late_and_then_replaced():
    async def scenario(url, referee):
        await workers_take_a_clocks_move_first(referee)  # and the bots' worker process is started
        a, b = await seat_two(url)
        [table] = referee.tables
        assert b.state["deal"]["current_player"] == 1 and b.state["clock"]["seat"] == 1
        started, total = time.monotonic(), b.state["clock"]["total"]
        assert abs(total - (0.75 + 0.5)) <= 0.051 and 0 < b.state["clock"]["left"] <= total
        assert a.state["clock"] == b.state["clock"] | {"left": a.state["clock"]["left"]}  # every seat is told

        played = await b.recv("clock", timeout=10)
        waited = time.monotonic() - started
        assert (played["seat"], played["status"], played["strikes"], played["limit"]) == (1, "played", 1, 2)
        update = next(m for m in reversed(b.log) if m["type"] == "update")
        assert update["event"]["seat"] == 1 and update["event"]["timeout"] is True
        # fired at its deadline (the bot's move then waits for a worker, at a lower priority: no bound here)
        assert total - 0.05 <= waited and 0 <= referee.clock_late[-1] < 0.5, (waited, list(referee.clock_late))
        assert referee.clock_late[-1] <= referee.clock_thought[-1] <= referee.clock_stored[-1] <= waited - total + 0.05
        timed_out = update["state"]["seq"] - 1
        assert table.session.actions[timed_out] == update["event"]["action"]
        assert table.clock.reserves[1] == 0 and table.clock.strikes[1] == 1

        before = referee.describe()
        late = await b.ask(type="act", action="pass", seq=timed_out)
        assert late["error"]["key"] == "too_late" and late["error"]["params"] == {"seq": timed_out}
        table._clock_fired(timed_out, 1)  # a stale timer: its decision was made
        table._clock_fired(len(table.session.actions), 3)  # not a person's decision
        assert referee.describe() == before

        # B plays its next decision in time: its timeouts in a row start again from none.
        await a.play(random.Random(5), until=lambda p: table.session.match.current_player == 1
                     and p.state["seq"] == len(table.session.actions))
        while not b.my_turn or b.state["seq"] != len(table.session.actions):
            await b.recv("update", timeout=10)
        reply = await b.ask(type="act", action=b.choose(random.Random(8)), seq=b.state["seq"])
        assert reply["type"] == "update" and "timeout" not in reply["event"]
        assert table.clock.strikes[1] == 0

        # Then B idles: the second timeout in a row gives the seat to a bot, as when a player leaves.
        async def idle():
            strikes = [(await b.recv("clock", timeout=10))["strikes"] for _ in range(2)]
            assert strikes == [1, 2] and b.log[-1]["status"] == "replaced"

        await asyncio.gather(a.play(random.Random(6), until=lambda p: 1 not in table.session.humans), idle())
        assert (await a.recv("opponent", timeout=5))["status"] == "replaced"
        assert table.session.humans == (0,) and table.clock.strikes[1] == 2
        assert (await b.ask(type="act", action="pass"))["error"]["key"] == "not_seated"
        assert find_leaks({0: a.log, 1: b.log}, table.session.snapshot()) == []
        await a.close(), await b.close()

    serve(scenario, SHORT, timeout=60)


async def workers_take_a_clocks_move_first(referee):
    """The clock's worker busy with a clock's move, the bots' worker with a bot's, two bot moves waiting,
    then another clock's move (``urgent``): it is the next one done, before the bot moves waiting (and the
    clock's worker never held up the bots'); a move dropped while it waits never runs."""
    await asyncio.gather(referee.think(int, 0), referee.think(int, 0, urgent=True))  # both workers started
    done = []
    jobs = {"clock": referee.think(time.sleep, 1.5, urgent=True), "bot": referee.think(time.sleep, 0.3),
            1: referee.think(int, 1), 2: referee.think(int, 2)}
    dropped = referee.think(time.sleep, 30)
    jobs[3] = referee.think(int, 3, urgent=True)
    dropped.cancel()
    for name, future in jobs.items():
        future.add_done_callback(lambda f, name=name: done.append(name))
    started = time.monotonic()
    assert await asyncio.wait_for(asyncio.gather(*jobs.values()), 20) == [None, None, 1, 2, 3]
    assert done == ["bot", 3, 1, 2, "clock"] and time.monotonic() - started < 10, done
    assert referee._working == 0 and not referee._clock_working and not any(referee._waiting_jobs.values())


# ---------------------------------------------------------------- the arithmetic, against a naive model

STEPS = st.lists(st.tuples(st.sampled_from(["act", "timeout", "deal"]), st.integers(0, 3), st.booleans(),
                           st.floats(0, 120)), max_size=40)


@settings(max_examples=200, deadline=None)
@given(preset=st.sampled_from(sorted(PRESETS)), steps=STEPS)
def test_the_clock_keeps_the_reserve_and_the_timeouts_in_a_row_as_a_naive_model_does(preset, steps):
    card, call, reserve = PRESETS[preset]
    clock = TurnClock(ClockSettings.preset(preset))
    left, strikes, deal, now, seq = [reserve] * 4, [0] * 4, 0, 1000.0, 0
    for kind, seat, is_call, took in steps:
        if kind == "deal":
            deal += 1
            left = [reserve] * 4
            continue
        clock.begin(seq, seat, deal, is_call, now)
        base = call if is_call else card
        assert abs(clock.due - (now + base + left[seat])) < 1e-6 and abs(clock.total - (base + left[seat])) < 1e-6
        view = clock.view(now + took)
        assert view["seat"] == seat and abs(view["total"] - (base + left[seat])) <= 0.05 + 1e-6
        assert abs(view["left"] - max(0, base + left[seat] - took)) <= 0.05 + 1e-9
        if kind == "act" and took <= base + left[seat]:
            clock.acted(seat, now + took)
            left[seat] = round(max(0.0, min(left[seat], base + left[seat] - took)), 3)
            strikes[seat] = 0
        else:
            assert clock.timed_out(seat, seq) == strikes[seat] + 1
            left[seat], strikes[seat] = 0.0, strikes[seat] + 1
            assert clock.played == [seq, seat]
        assert clock.due is None and clock.strikes == strikes
        assert all(abs(mine - naive) <= 0.0011 for mine, naive in zip(clock.reserves, left))  # both to the ms
        assert all(0 <= r <= reserve for r in clock.reserves)
        left = list(clock.reserves)  # the model goes on from the clock's own rounding
        assert TurnClock.parse(clock.settings, clock.format()) == clock
        now, seq = now + took, seq + 1


def test_an_unreadable_stored_clock_is_a_fresh_one():
    fresh = TurnClock(ClockSettings.preset("normal"))
    for text in (None, "", "{", "[]", '{"reserves": [1]}', '{"deal": 0, "reserves": [1, 2, 3, 4], "strikes": "x"}'):
        assert TurnClock.parse(fresh.settings, text) == fresh
