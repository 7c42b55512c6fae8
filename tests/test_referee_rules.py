"""House rules at the referee (issue 24): a friends' table or a 1v1 private table is created with its rules (one
field, read by the engine's notation, refused naming an unknown option), and every player is told them before
the first card (the lobby's settings, then every state)."""

from __future__ import annotations

from coinche_referee.referee import Config
from coinche.rules import DE_2000
from test_referee_helpers import Player, serve

FAST = Config(bot_delay=0, level="easy", lobby_timeout=5, grace=5, rate=1000, burst=1000)


def run(scenario):
    return serve(scenario, FAST, timeout=120)


def test_a_friends_table_plays_its_rules_and_tells_everyone():
    async def scenario(url, referee):
        ana = await Player.join(url)
        opened = await ana.ask(type="open", settings={"target": 2000, "rules": "de-2000"}, name="Ana")
        assert opened["settings"]["rules"] == "de-2000"
        bob = await Player.join(url)
        lobby = await bob.ask(type="join", code=opened["code"], name="Bob", lobby=True)
        assert lobby["settings"]["rules"] == "de-2000"  # told before anything is dealt
        started = await ana.ask(type="begin")
        start = started["state"]
        assert start["rules"] == "de-2000" and start["house_rules"] and start["bid_values"][0] == "82"
        assert start["deal"]["phase"] == "auction" and not start["deal"]["tricks"] and not start["deal"]["trick"]
        bob_start = await bob.recv("start")
        assert bob_start["state"]["rules"] == "de-2000"
        [table] = referee.tables
        assert table.session.match.rules == DE_2000
        await ana.close(), await bob.close()
    run(scenario)


def test_a_private_table_s_rules_and_the_game_s_own_by_default():
    async def scenario(url, referee):
        ana = await Player.join(url)
        created = await ana.ask(type="create", rules="open=82,undertrump=yes", target=501)
        bob = await Player.join(url)
        await bob.send(type="join", code=created["code"])
        joined = await bob.recv("start")
        assert joined["state"]["rules"] == "target=501,open=82,undertrump=yes"
        assert (await ana.recv("start"))["state"]["rules"] == joined["state"]["rules"]
        [table] = referee.tables
        assert table.session.match.rules.undertrump and "rules" in table.session.settings
        carl = await Player.join(url)
        plain = await carl.ask(type="create")
        dan = await Player.join(url)
        await dan.send(type="join", code=plain["code"])
        own = await dan.recv("start")
        assert own["state"]["rules"] == "own" and own["state"]["house_rules"] == []
        for p in (ana, bob, carl, dan):
            await p.close()
    run(scenario)


def test_an_unknown_option_is_refused_naming_it_and_no_table_is_made():
    async def scenario(url, referee):
        ana = await Player.join(url)
        refused = await ana.ask(type="open", settings={"rules": "open=82,pisser=yes"})
        assert refused["type"] == "error" and refused["error"]["key"] == "unknown_rule_option"
        assert refused["error"]["params"] == {"name": "pisser"}
        bad = await ana.ask(type="create", rules="round=6up")
        assert bad["error"]["key"] == "bad_rule_value" and bad["error"]["params"]["name"] == "round"
        long = await ana.ask(type="create", rules="x" * 300)
        assert long["type"] == "error"
        assert not referee.tables and not referee.private
        await ana.close()
    run(scenario)


def test_rules_without_a_target_play_to_their_own_and_a_target_given_wins():
    """``de-2000`` sent without ``target`` plays to 2000 (not the referee's default 1000), at a 1v1 private
    table and at a friends' table; a ``target`` given beside the rules wins over theirs."""
    async def scenario(url, referee):
        ana = await Player.join(url)
        created = await ana.ask(type="create", rules="de-2000")
        assert created["target"] == 2000
        bob = await Player.join(url)
        await bob.send(type="join", code=created["code"])
        start = (await bob.recv("start"))["state"]
        assert start["target"] == 2000 and start["rules"] == "de-2000"
        [table] = referee.tables
        assert table.session.match.rules == DE_2000
        carl = await Player.join(url)
        opened = await carl.ask(type="open", settings={"rules": "de-2000"})
        assert opened["settings"]["target"] == 2000 and opened["settings"]["rules"] == "de-2000"
        dan = await Player.join(url)
        given = await dan.ask(type="create", rules="de-2000", target=1000)
        assert given["target"] == 1000
        eve = await Player.join(url)
        await eve.send(type="join", code=given["code"])
        start = (await eve.recv("start"))["state"]
        assert start["target"] == 1000 and start["rules"].startswith("open=82,") and "target" not in start["rules"]
        for p in (ana, bob, carl, dan, eve):
            await p.close()
    run(scenario)
