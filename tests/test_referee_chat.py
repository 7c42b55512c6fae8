"""Quick chat (referee/PROTOCOL.md, "Quick chat"): a phrase id is said to everyone at the table and its
spectators, the sender's copy answering the request; an id that is not a phrase, a flood past the seat's
allowance, a spectator's or a seatless client's phrase are refused with their keys and nothing is said."""

from __future__ import annotations

from coinche_referee.chat import BURST, PHRASES
from coinche_referee.referee import Config
from test_referee_helpers import Player, serve

FAST = Config(bot_delay=0, level="easy", lobby_timeout=5, grace=5, rate=1000, burst=1000)


def test_phrases_are_said_to_the_table_and_its_spectators_and_floods_and_unknown_ids_refused():
    async def scenario(url, referee):
        ana = await Player.join(url)
        code = (await ana.ask(type="open", settings={"target": 501}, name="Ana"))["code"]
        bob = await Player.join(url)
        await bob.ask(type="join", code=code, lobby=True, name="Bob")
        assert (await ana.ask(type="say", phrase="hello"))["type"] == "said"  # in the lobby too
        assert (await bob.recv("said")) == {"type": "said", "seat": 0, "phrase": "hello"}
        assert (await ana.ask(type="begin"))["type"] == "start"
        await bob.recv("start")
        sam = await Player.join(url)
        await sam.ask(type="watch", code=code)

        said = await bob.ask(type="say", phrase="good_luck")
        assert said == {"type": "said", "id": bob.rid, "seat": 1, "phrase": "good_luck"}
        assert (await ana.recv("said"))["phrase"] == "good_luck"
        assert (await sam.recv("said")) == {"type": "said", "seat": 1, "phrase": "good_luck"}

        stranger = await Player.join(url)
        before = referee.describe()
        for phrase, key in (("Jh", "unknown_phrase"), ("hello world", "unknown_phrase"), ("", "unknown_phrase")):
            refused = await bob.ask(type="say", phrase=phrase)
            assert refused["error"]["key"] == key and refused["error"]["params"] == {"text": phrase}
        assert (await bob.ask(type="say", phrase=7))["error"]["key"] == "bad_message"
        assert (await sam.ask(type="say", phrase="wow"))["error"]["key"] == "spectator"
        assert (await stranger.ask(type="say", phrase="wow"))["error"]["key"] == "not_seated"
        assert referee.describe() == before

        for _ in range(BURST - 1):  # one of the burst went on good_luck
            assert (await bob.ask(type="say", phrase="well_played"))["type"] == "said"
        flood = await bob.ask(type="say", phrase="well_played")
        assert flood["error"]["key"] == "chat_limited" and 1 <= flood["error"]["params"]["retry_after"] <= 3
        assert (await ana.ask(type="say", phrase="thanks"))["type"] == "said"  # each seat its own allowance
        heard = [m["phrase"] for m in ana.log if m["type"] == "said" and m["seat"] == 1]
        assert heard == ["good_luck"] + ["well_played"] * (BURST - 1)  # the refused one never reached her
        assert len(set(PHRASES)) == len(PHRASES) and all(p.isidentifier() for p in PHRASES)

    serve(scenario, FAST, timeout=60)
