"""The ``coinche`` command line, run as a subprocess or through ``main``: judge (text, --json, --batch),
simulate, replay, review, and the lab's arena and bidding (with ``--rules``)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from coinche import Position
from coinche.cli import judge_text, ruling_json
from coinche.record import check, deal_to_record, replay
from helpers import child_pids, gone

ARGUED = "trump=h&trick=8h,Ah,7c&hand=Jh,Kd,7s"


def coinche(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "coinche.cli", *args], input=stdin, capture_output=True,
                          text=True, timeout=120)


# ---------------------------------------------------------------- judge
def test_judge_text():
    done = coinche("judge", ARGUED)
    assert done.returncode == 0 and done.stderr == ""
    assert done.stdout.rstrip("\n") == judge_text(Position.parse(ARGUED))
    lines = done.stdout.splitlines()
    assert lines[0] == "Trump hearts; you play fourth."
    assert "Your partner played the ace of hearts." in lines
    assert "Rule 2 decides: on a trump lead, go over." in lines
    assert any(line.startswith("Note: trump was led, so you must go over even your partner") for line in lines)
    assert "  Jh  legal" in lines
    assert "  Kd  forbidden (rule 1): you hold hearts, so you must follow hearts" in lines
    assert "  7s  forbidden (rule 1): you hold hearts, so you must follow hearts" in lines


def test_judge_text_names_every_reason():
    done = coinche("judge", "trump=h&trick=As,7s,9h&hand=Jh,8h,Kd")
    assert done.returncode == 0
    assert "  8h  forbidden (rule 4): an opponent is winning with the nine of hearts: you must trump higher" \
        in done.stdout.splitlines()
    done = coinche("judge", "trump=s&trick=9s&hand=Js,As,Kd")
    assert "  As  forbidden (rule 2): trump was led: you must play a trump higher than the nine of spades" \
        in done.stdout.splitlines()
    done = coinche("judge", "trump=s&trick=Ah&hand=7s,Kd")
    assert "  Kd  forbidden (rule 3): you cannot follow and an opponent is winning: you must trump (spades)" \
        in done.stdout.splitlines()


def test_judge_text_names_the_deciding_rule_as_rules_md_numbers_it():
    def decides(position):
        done = coinche("judge", position)
        assert done.returncode == 0
        return next(line for line in done.stdout.splitlines() if line.startswith("Rule "))
    assert decides("trump=h&trick=As,9s,9h&hand=7h,8h,Kd,Ac") == \
        "Rule 5 decides: otherwise play what you like (nobody must undertrump)."
    assert decides("trump=s&trick=Ah&hand=7s,Kd") == "Rule 3 decides: void: you must trump, unless your partner is master."
    assert decides("trump=h&trick=7s,As,8s&hand=Kd,7h") == "Rule 3 decides: void, but your partner is master: play what you like."
    assert decides("trump=h&trick=As,7s,9h&hand=Jh,8h,Kd") == "Rule 4 decides: an opponent has trumped: go over if you can."


# A link's fragment as a browser shows it, and as a player pastes it: one reading (coinche.position.link_text,
# the judge page's fragmentText alike), one answer. e2e/test_judge.py opens the same links on the page.
ONE_POSITION_LINKS = ["trump=h&hand=Jh", "#trump=h&hand=Jh", "%23trump=h&hand=Jh", "#%23trump=h&hand=Jh",
                      " ?trump=h&hand=Jh ", "trump=h&hand=%4Ah", "%74rump=%68&hand=Jh"]


def test_judge_reads_a_link_as_the_page_reads_its_fragment(capsys):
    from coinche import cli
    answers = []
    for link in ONE_POSITION_LINKS:
        assert cli.main(["judge", "--json", link]) == 0, link
        answers.append(json.loads(capsys.readouterr().out))
    assert all(answer == answers[0] for answer in answers) and answers[0]["legal"] == ["Jh"]
    done = coinche("judge", "%23trump=h&hand=Jh")  # as a shell runs it
    assert done.returncode == 0 and done.stdout == judge_text(Position.parse("trump=h&hand=Jh")) + "\n"
    # decoded once: %2523 is "%23", %254A "%4A"
    for link, told in (("%2523trump=h&hand=Jh", "unknown field '%23trump'"), ("trump=h&hand=%254Ah", "unknown card '%4Ah'")):
        assert cli.main(["judge", link]) == 2
        assert capsys.readouterr().err == f"coinche judge: invalid position: {told}\n"


def test_judge_json():
    text = "trump=h&trick=As,9s,9h&hand=7h,8h,Kd,Ac"
    done = coinche("judge", "--json", text)
    assert done.returncode == 0 and done.stderr == ""
    out = json.loads(done.stdout)
    assert out == json.loads(json.dumps(ruling_json(Position.parse(text))))
    assert out["rule"] == 5 and out["note"] == "no_undertrump"
    assert out["legal"] == ["7h", "8h", "Kd", "Ac"] and out["forbidden"] == {}
    out = json.loads(coinche("judge", "--json", ARGUED).stdout)
    assert out["position"] == ARGUED and out["legal"] == ["Jh"]
    assert out["forbidden"]["Kd"] == {"rule": 1, "key": "must_follow", "params": {"suit": "h"},
                                      "text": "you hold hearts, so you must follow hearts"}


INVALID = [
    ("trump=h&trick=8h&hand=Jh,Xd", "unknown card 'Xd'"),
    ("trump=h&trick=8h,Ah&hand=Jh,8h", "card 8h appears twice"),
    ("trump=h&trick=7s,8s,9s,Ts&hand=Jh", "too many cards: 4 (at most 3)"),
    ("trump=h&hand=7s,8s,9s,Ts,Js,Qs,Ks,As,7h", "too many cards: 9 (at most 8)"),
    ("trump=z&hand=Jh", "unknown trump 'z' (use s, h, d, c, sa or ta)"),
    ("what is this", "malformed position"),
    ("trump=h&trick=8h", "missing field 'hand'"),
]


@pytest.mark.parametrize("position, message", INVALID)
def test_judge_invalid_position_one_line_error(position, message):
    done = coinche("judge", position)
    assert done.returncode != 0 and done.stdout == ""
    assert len(done.stderr.splitlines()) == 1
    assert done.stderr.startswith("coinche judge: invalid position: ") and message in done.stderr


@pytest.mark.parametrize("position, message", INVALID[:2])
def test_judge_invalid_position_json(position, message):
    done = coinche("judge", "--json", position)
    assert done.returncode != 0 and len(done.stderr.splitlines()) == 1
    out = json.loads(done.stdout)
    assert out["input"] == position and message in out["error"]["message"] and out["error"]["key"]


def test_judge_without_position():
    done = coinche("judge")
    assert done.returncode != 0 and done.stderr.strip()


def test_judge_batch_bad_line_in_the_middle():
    lines = [ARGUED, "trump=h&trick=8h,8h&hand=Jh", "trump=h&trick=As,9s,9h&hand=7h,8h,Kd,Ac", "nonsense", ARGUED]
    done = coinche("judge", "--batch", stdin="\n".join(lines) + "\n")
    assert done.returncode == 0
    out = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(out) == len(lines)
    assert out[0]["legal"] == ["Jh"] and out[2]["note"] == "no_undertrump" and out[4] == out[0]
    assert out[1]["input"] == lines[1] and out[1]["error"]["key"] == "duplicate_card"
    assert out[1]["error"]["params"] == {"card": "8h"}
    assert out[3]["input"] == "nonsense" and out[3]["error"]["key"] == "malformed_position"


def test_judge_batch_empty_input():
    done = coinche("judge", "--batch", stdin="")
    assert done.returncode == 0 and done.stdout == ""


# ---------------------------------------------------------------- simulate and replay
@pytest.mark.parametrize("variant", ["coinche", "classic"])
def test_simulate_then_replay(variant, tmp_path):
    path = tmp_path / "deals.jsonl"
    done = coinche("simulate", "--variant", variant, "--deals", "60", "--seed", "9", "--out", str(path))
    assert done.returncode == 0, done.stderr
    assert f"60 {variant} deals" in done.stderr
    records = [json.loads(line) for line in path.read_text().splitlines()]
    assert len(records) == 60 and all(r["variant"] == variant for r in records)
    assert [r["dealer"] for r in records[:5]] == [0, 1, 2, 3, 0]
    assert any(r["result"]["void"] for r in records) and not all(r["result"]["void"] for r in records)
    for r in records:
        assert deal_to_record(check(r)) == {k: v for k, v in r.items() if k != "seed"}
    done = coinche("replay", str(path))
    assert done.returncode == 0 and done.stderr == ""
    assert done.stdout.strip() == "60 records replayed and checked, 0 wrong"
    # The same seed writes the same file; the standard output is the default.
    again = coinche("simulate", "--variant", variant, "--deals", "60", "--seed", "9")
    assert again.returncode == 0 and again.stdout == path.read_text()


def corrupt(path, number, change):
    lines = path.read_text().splitlines()
    lines[number - 1] = change(lines[number - 1])
    path.write_text("\n".join(lines) + "\n")


def bump_score(line):
    record = json.loads(line)
    record["result"]["scores"][0] += 10
    return json.dumps(record)


def swap_cards(line):
    record = json.loads(line)
    record["plays"][0], record["plays"][1] = record["plays"][1], record["plays"][0]
    return json.dumps(record)


@pytest.mark.parametrize("change, message", [
    (bump_score, "result is"),
    (swap_cards, "card 1 "),
    (lambda line: line[:-9], "not JSON"),
    (lambda line: json.dumps(dict(json.loads(line), format="other/1")), "format is not"),
])
def test_replay_detects_a_corrupted_record(tmp_path, change, message):
    path = tmp_path / "deals.jsonl"
    assert coinche("simulate", "--deals", "12", "--seed", "4", "--out", str(path)).returncode == 0
    played = [i + 1 for i, line in enumerate(path.read_text().splitlines()) if json.loads(line)["plays"]]
    number = played[len(played) // 2]
    corrupt(path, number, change)
    done = coinche("replay", str(path))
    assert done.returncode != 0
    errors = done.stderr.splitlines()
    assert len(errors) == 1 and errors[0].startswith(f"{path}:{number}: ") and message in errors[0]
    assert done.stdout.strip() == "11 records replayed and checked, 1 wrong"


def test_replay_missing_file(tmp_path):
    done = coinche("replay", str(tmp_path / "nowhere.jsonl"))
    assert done.returncode != 0 and "nowhere.jsonl" in done.stderr


# ---------------------------------------------------------------- the lab's commands
def test_the_lab_adds_arena_and_bidding_to_the_command_line():
    done = coinche("arena", "baseline", "baseline", "--deals", "2", "--seed", "1", "--jobs", "1", "--quiet")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("2 duplicate coinche deals (x2 tables), seed 1: baseline (A) vs baseline (B)\n")
    assert "mean score difference A - B per deal: +0.0" in done.stdout
    done = coinche("bidding", "auction-v1", "auction-v1", "--deals", "1", "--player", "easy", "--jobs", "1", "--quiet")
    assert done.returncode == 0, done.stderr
    assert "auction-v1 (A) vs auction-v1 (B)" in done.stdout



def test_the_labs_commands_play_the_rules_they_are_given(monkeypatch, capsys):
    """``coinche arena --rules`` and ``coinche bidding --rules``: every table is dealt by those rules, the
    result names them, and an unknown option or value is refused, named."""
    import coinche_lab.arena as arena
    import coinche_lab.bidding_arena as bidding

    from coinche import cli

    dealt = []
    for module in (arena, bidding):  # --jobs 1 plays in this process
        monkeypatch.setattr(module, "play_table", lambda rules, *rest, real=module.play_table:
                            dealt.append(str(rules)) or real(rules, *rest))
    quick = ["--deals", "1", "--seed", "1", "--jobs", "1", "--quiet"]
    assert cli.main(["arena", "baseline", "easy", *quick, "--rules", "de-2000"]) == 0
    assert capsys.readouterr().out.startswith("1 duplicate coinche deals (x2 tables, rules de-2000), seed 1: ")
    assert cli.main(["bidding", "auction-v2", "auction-v1", "--player", "easy", *quick, "--rules", "open=82"]) == 0
    assert capsys.readouterr().out.startswith("1 duplicate coinche deals (x2 tables, rules open=82), seed 1, ")
    assert dealt == ["de-2000"] * 2 + ["open=82"] * 2  # each duplicate deal at its two tables
    assert cli.main(["arena", "easy", "easy", *quick, "--rules", "pisser=yes"]) == 2
    assert "unknown rule option 'pisser'" in capsys.readouterr().err
    assert cli.main(["bidding", "auction-v2", "auction-v1", *quick, "--rules", "open=85"]) == 2
    assert "unknown value 85 for the rule option open" in capsys.readouterr().err


def test_review_scores_by_the_records_rules(tmp_path, capsys):
    """``coinche review`` reads each record's rules: seat 0's last card is scored as the deal ended, by those
    rules (a failed contract gives the defence the contract alone with ``down=bid``, 162 more by the game's
    own), and a record with an unknown value is refused, named."""
    from coinche.cli import main

    house = tmp_path / "house.jsonl"
    for seed in range(40):  # the first seed whose deal the bots play to a failed contract
        assert main(["simulate", "--deals", "1", "--seed", str(seed), "--bots", "easy", "--rules", "down=bid",
                     "--out", str(house)]) == 0
        record = json.loads(house.read_text())
        if record["result"].get("contract") and not record["result"]["made"]:
            break
    assert record["rules"] == "down=bid" and not record["result"]["made"], "the test needs a failed contract"
    own = tmp_path / "own.jsonl"
    own.write_text(json.dumps(deal_to_record(replay({**record, "rules": "own"}))) + "\n")
    capsys.readouterr()
    last = {}
    for path in (house, own):
        assert main(["review", str(path), "--seat", "0", "--json"]) == 0
        scores = json.loads(path.read_text())["result"]["scores"]
        last[path.stem] = json.loads(capsys.readouterr().out)["decisions"][-1]["played_score"], scores[0] - scores[1]
    assert last["house"][0] == last["house"][1] and last["own"][0] == last["own"][1]
    assert abs(last["own"][1] - last["house"][1]) == 162  # the defence's 162 that down=bid takes away
    broken = tmp_path / "broken.jsonl"
    broken.write_text(json.dumps({**record, "rules": "down=nothing"}) + "\n")
    assert main(["review", str(broken), "--seat", "0"]) == 1
    assert "unknown value nothing for the rule option down" in capsys.readouterr().err


def test_the_arena_takes_the_frozen_expert_and_prints_each_steps_partial_ci(capsys):
    import argparse

    from coinche_lab.cli import register

    parser = argparse.ArgumentParser(prog="coinche")
    register(parser.add_subparsers(dest="command"))
    assert parser.parse_args(["arena", "expert", "expert-v1"]).level_b == "expert-v1"
    args = parser.parse_args(["arena", "baseline", "easy", "--deals", "2", "--seed", "3", "--jobs", "1"])
    assert args.func(args) == 0
    out, err = capsys.readouterr()
    steps = [line for line in err.splitlines() if " deals  mean " in line]
    assert [line.split()[0] for line in steps] == ["1/2", "2/2"]
    numbers = [re.findall(r"[+-]\d+\.\d", text) for text in (steps[-1], out.splitlines()[1])]
    assert len(numbers[0]) == 3 and numbers[0] == numbers[1]  # the last step's figure is the result's

def test_without_the_lab_its_commands_say_what_is_missing(monkeypatch, capsys):
    from coinche import cli

    monkeypatch.setattr(cli, "entry_points", lambda group: ())
    assert cli.main(["arena", "easy", "easy"]) == 2
    said = capsys.readouterr().err
    assert "a command of the lab (lab/coinche_lab), which is not installed here: run `make venv`" in said
    with pytest.raises(SystemExit):  # the engine's own commands are all there
        cli.main(["judge", "--help"])
    assert "--batch" in capsys.readouterr().out


def test_a_terminated_arena_stops_its_worker_processes():
    process = subprocess.Popen([sys.executable, "-m", "coinche.cli", "arena", "easy", "easy", "--deals", "400",
                                "--jobs", "2"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        assert "deals" in process.stderr.readline()  # the first step done: the workers run
        workers = child_pids(process.pid)
        assert len(workers) >= 2
        process.terminate()
        process.wait(30)
        assert gone(workers, within=3)  # terminated at once (left alone, they ran on for 10 s and more)
    finally:
        process.kill()
        process.wait()


def test_replay_and_review_read_the_sites_history_file(tmp_path, capsys):
    """The history file the progress page exports (written here by the page's own exportText under Node, from
    the lines it imported) replays line by line, and ``coinche review --player`` reviews each line's player's
    seat; a bad line is named by its number, the others still read."""
    import shutil

    from coinche_lab.history import history_lines

    from coinche.cli import main

    node = shutil.which("node")
    if node is None:
        pytest.skip("Node is not installed")
    web = (Path(__file__).resolve().parent.parent / "web" / "js" / "history-format.js").as_uri()
    lines = history_lines(6, seed="cli-history")
    script = (f"import {{ parseExport, exportText }} from {json.dumps(web)};\n"
              "let input = ''; process.stdin.on('data', (d) => { input += d; });\n"
              "process.stdin.on('end', () => process.stdout.write(exportText(parseExport(input).entries)));\n")
    exported = subprocess.run([node, "--input-type=module", "-e", script], capture_output=True, text=True, check=True,
                              input="".join(json.dumps(line) + "\n" for line in lines)).stdout
    path = tmp_path / "history.jsonl"
    path.write_text(exported + "{not json\n")
    assert [json.loads(line)["history"]["seat"] for line in exported.splitlines()] == [h["history"]["seat"] for h in lines]
    capsys.readouterr()
    assert main(["replay", str(path)]) == 1
    out = capsys.readouterr()
    assert "6 records replayed and checked, 1 wrong" in out.out and f"{path}:7: not JSON" in out.err
    player = next(line for line in lines if line["history"]["seat"] != 0)
    one = tmp_path / "one.jsonl"
    one.write_text(json.dumps(player) + "\n")
    assert main(["review", str(one), "--player", "--json"]) == 0
    review = json.loads(capsys.readouterr().out)
    assert review["seats"] == [player["history"]["seat"]]
    assert {d["seat"] for d in review["decisions"]} == {player["history"]["seat"]}


# ---------------------------------------------------------------- simulate --bots, par, daily
def test_simulate_bots_per_seat_write_the_seats(tmp_path, capsys):
    from coinche import cli

    path = tmp_path / "deals.jsonl"
    assert cli.main(["simulate", "--bots", "easy,normal,easy,easy", "--deals", "1", "--seed", "3", "--out", str(path)]) == 0
    record = json.loads(path.read_text())
    assert record["seats"] == ["easy", "normal", "easy", "easy"]
    check(record)
    with pytest.raises(SystemExit):
        cli.main(["simulate", "--bots", "easy,hard", "--deals", "1"])
    assert "each one of easy, normal, expert" in capsys.readouterr().err


def test_par_names_bad_lines_and_goes_on(tmp_path, capsys):
    """`coinche par` at K = 1: the text and JSON lines, a bad line named by its number, --player on a line of the
    site's history file (no seats: its history.level says who sat around the player), --jobs 2 the same pars."""
    from coinche import cli
    from coinche.par import par

    path = tmp_path / "deals.jsonl"
    assert cli.main(["simulate", "--bots", "easy", "--deals", "2", "--seed", "5", "--out", str(path)]) == 0
    good = [json.loads(line) for line in path.read_text().splitlines()]
    cards = good[0]["deck"].split(",")
    twice = {**good[0], "deck": ",".join(cards[:7] + [cards[0]] + cards[8:])}
    history = {k: v for k, v in good[1].items() if k != "seats"}
    history["history"] = {"v": 1, "seat": 1, "level": "easy", "online": False}
    lines = [json.dumps(good[0]), "{not json", json.dumps(twice), "", json.dumps(history)]
    path.write_text("\n".join(lines) + "\n")
    capsys.readouterr()

    assert cli.main(["par", str(path), "--seat", "0", "--k", "1", "--json"]) == 1
    out, err = capsys.readouterr()
    rows = [json.loads(line) for line in out.splitlines()]
    assert [r["line"] for r in rows] == [1, 5]
    assert rows[0] == {"line": 1, **par(good[0], 0, k=1).to_json()}
    assert {"par", "result", "difference", "k", "stderr"} <= set(rows[1])
    assert rows[1]["bots"] == ["expert", "expert", "easy", "easy"]  # seat 1 held by the player: the Expert
    assert f"{path}:2: not JSON" in err and f"{path}:3: malformed record: the deck must hold each of the 32 cards once" in err

    assert cli.main(["par", str(path), "--player", "--k", "1"]) == 1
    out, err = capsys.readouterr()
    text = out.splitlines()
    assert len(text) == 2 and text[1].startswith(f"{path}:5: seat 1: par ")
    assert "result " in text[1] and "difference " in text[1]

    assert cli.main(["par", str(path), "--seat", "0", "--k", "1", "--json", "--jobs", "2"]) == 1
    assert [json.loads(line) for line in capsys.readouterr().out.splitlines()] == rows

    no_seats = tmp_path / "bare.jsonl"
    no_seats.write_text(json.dumps({k: v for k, v in good[0].items() if k != "seats"}) + "\n")
    assert cli.main(["par", str(no_seats), "--seat", "0", "--k", "1"]) == 1
    assert "does not say who sat in each seat" in capsys.readouterr().err


def test_daily_prints_the_days_deals(capsys):
    from coinche import cli
    from coinche.daily import daily_set

    assert cli.main(["daily", "--date", "2026-12-05"]) == 0
    printed = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert printed == [d.start_record() for d in daily_set("2026-12-05")]
    assert printed[0]["daily"] == "2026-12-05/1" and printed[0]["hands"][0] == "7s,Ts,Js,Ks,9h,Td,Jd,Ad"
    assert cli.main(["daily", "--date", "2026-02-30"]) == 2
    assert "is not a date" in capsys.readouterr().err
