"""`manillen generate` as a user runs it: reproducible archives of valid records, slips included."""

from __future__ import annotations

import json
import os
import stat
from collections import Counter

import pytest
from click.testing import CliRunner

from manillen_replay.cli import cli
from manillen_replay.engine import ReplayVisitor, TrickResult, decode_and_replay, replay
from manillen_replay.players.policy import cards_of
from manillen_replay.record import loads
from manillen_replay.rules import VARIANTS, classify_violation


def run(*args: str):
    return CliRunner().invoke(cli, list(args))


def lines_of(output: str) -> list[str]:
    return [line for line in output.splitlines() if line.strip()]


def test_same_seed_same_bytes_other_seed_other_bytes():
    first = run("generate", "--matches", "4", "--seed", "12")
    again = run("generate", "--matches", "4", "--seed", "12")
    other = run("generate", "--matches", "4", "--seed", "13")
    assert first.exit_code == 0, first.output
    assert first.stdout_bytes == again.stdout_bytes
    assert first.stdout_bytes != other.stdout_bytes
    assert len(lines_of(first.stdout)) == 4


def test_every_generated_record_validates(tmp_path):
    out = tmp_path / "club.jsonl"
    result = run(
        "generate",
        "--matches",
        "15",
        "--seed",
        "3",
        "--players",
        "Anna:club,Bert:novice,Carla:novice,Dirk:club",
        "--out",
        str(out),
        "--venue",
        "Zaal Sint-Jan, Kortrijk",
        "--start-date",
        "2026-03-01",
    )
    assert result.exit_code == 0, result.output
    assert "wrote 15 matches" in result.stderr and str(out) in result.stderr
    records = out.read_text(encoding="utf-8").splitlines()
    assert len(records) == 15
    for number, line in enumerate(records, start=1):
        replayed = decode_and_replay(line, source=str(out), line=number)
        assert replayed.finished
        document = json.loads(line)
        assert document["match"]["seats"] == ["Anna", "Bert", "Carla", "Dirk"]
        assert document["match"]["venue"] == "Zaal Sint-Jan, Kortrijk"
        assert document["match"]["id"].startswith("sint-jan-2026-03")
        assert document["match"]["date"] >= "2026-03-01"
        assert all(len(deal["hands"]) == 4 for deal in document["deals"])


def test_house_rules_from_the_command_line_are_played_and_written():
    result = run("generate", "--matches", "3", "--rule", "target=151", "--rule", "cafe.en_face=true")
    assert result.exit_code == 0, result.output
    for line in lines_of(result.stdout):
        document = json.loads(line)
        assert document["match"]["rules"] == {"target": 151, "cafe": {"en_face": True}}
        assert max(decode_and_replay(line).final_score) >= 151


def test_deals_option_stops_after_reaching_the_deal_count():
    result = run("generate", "--deals", "50", "--seed", "4")
    assert result.exit_code == 0, result.output
    counts = [len(json.loads(line)["deals"]) for line in lines_of(result.stdout)]
    assert sum(counts) >= 50 > sum(counts[:-1])


class SlipCounter(ReplayVisitor):
    """Counts, per kind, the plays where an illegal card of that kind was in hand, and the slips."""

    def __init__(self) -> None:
        self.chances: Counter[str] = Counter()
        self.slips: Counter[str] = Counter()
        self.trump: int | None = None

    def begin_deal(self, deal, result) -> None:
        self.trump = None if result.trump is None else int(result.trump)

    def play(self, trick: TrickResult, position: int, hands_before) -> None:
        hand = hands_before[trick.seats[position]]
        illegal = hand & ~trick.legal[position]
        if not illegal:
            return
        before = [int(card) for card in trick.cards[:position]]
        self.chances["any"] += 1
        for kind in {classify_violation(card, before, hand, self.trump).value for card in cards_of(illegal)}:
            self.chances[kind] += 1
        if not trick.legal[position] >> trick.cards[position] & 1:
            self.slips["any"] += 1
            self.slips[classify_violation(trick.cards[position], before, hand, self.trump).value] += 1


def test_slips_of_each_kind_at_roughly_the_set_rate():
    """At each play where an illegal card is in hand, a slip comes with the set chance; the kind
    is drawn among those the hand allows (never more than two at once), so each kind's own rate
    lies between half the set rate and the set rate."""
    rate = 0.08
    result = run(
        "generate",
        "--matches",
        "40",
        "--seed",
        "21",
        "--players",
        "club,novice,club,novice",
        "--slip-rate",
        str(rate),
        "--score-error-rate",
        "0.1",
    )
    assert result.exit_code == 0, result.output
    counter = SlipCounter()
    deals = mismatches = 0
    for line in lines_of(result.stdout):
        replayed = decode_and_replay(line, visitors=[counter])
        deals += len(replayed.deals)
        mismatches += sum(d.score_mismatch for d in replayed.deals)
    assert counter.chances["any"] > 3000
    assert 0.7 * rate < counter.slips["any"] / counter.chances["any"] < 1.3 * rate
    for kind in ("revoke", "failed_to_overtake", "failed_to_buy", "illegal_underbuy"):
        assert counter.slips[kind] > 0, kind
        if counter.chances[kind] >= 400:
            assert 0.3 * rate < counter.slips[kind] / counter.chances[kind] < 1.3 * rate, kind
    assert 0.05 < mismatches / deals < 0.15


def test_no_slips_at_rate_zero():
    result = run(
        "generate",
        "--matches",
        "10",
        "--players",
        "novice,novice,novice,novice",
        "--slip-rate",
        "0",
        "--score-error-rate",
        "0",
    )
    assert result.exit_code == 0, result.output
    for line in lines_of(result.stdout):
        replayed = decode_and_replay(line)
        assert not replayed.violations and not replayed.irregularities


def test_summary_reports_wins_and_margins_per_player():
    result = run(
        "generate",
        "--matches",
        "30",
        "--players",
        "Anna:club,Bert:novice,Carla:club,Dirk:novice",
        "--summary",
        "--out",
        "/dev/null",
    )
    assert result.exit_code == 0, result.output
    rows = {line.split()[0]: line.split() for line in result.stderr.splitlines() if line[:1].isupper()}
    assert int(rows["Anna"][1]) == 30
    assert rows["Anna"][2] == rows["Carla"][2]
    assert int(rows["Anna"][2]) + int(rows["Bert"][2]) <= 30
    assert float(rows["Anna"][4]) == -float(rows["Bert"][4])
    # written as it is: a file renamed over it made /dev/null a regular file for every program after
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--matches", "2", "--deals", "5"), "give either --matches N or --deals N, not both"),
        (("--matches", "2", "--players", "club,club,wizard,club"), "unknown skill 'wizard'"),
        (("--matches", "2", "--players", "club,club"), "a table of 'four' needs 4"),
        (("--matches", "2", "--players", "club,club,club,club", "--variant", "six"), "'six' needs 6"),
        (("--matches", "2", "--rule", "target=lots"), "target"),
        (("--matches", "2", "--slip-rate", "3"), "--slip-rate"),
        (("--matches", "0"), "--matches"),
        (("--matches", "2", "--start-date", "9 May"), "--start-date"),
    ],
)
def test_user_mistakes_are_messages_not_tracebacks(args, message):
    result = run("generate", *args)
    assert result.exit_code == 2
    assert message in result.output
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


def test_unwritable_out_is_a_message(tmp_path):
    result = run("generate", "--matches", "1", "--out", str(tmp_path / "missing" / "x.jsonl"))
    assert result.exit_code == 2
    assert f"there is no folder {str(tmp_path / 'missing')!r} to write it in" in result.output


def test_an_interrupted_run_leaves_the_out_file_as_it_was(tmp_path, monkeypatch):
    from manillen_replay.cli import generate

    out = tmp_path / "club.jsonl"
    out.write_text("kept\n")
    written = []

    def interrupted(record, pretty=True):
        if len(written) == 3:
            raise KeyboardInterrupt  # Ctrl-C in the middle of the archive
        written.append(record)
        return "{}"

    monkeypatch.setattr(generate, "dumps", interrupted)
    result = run("generate", "--matches", "10", "--out", str(out), "--overwrite")
    assert (
        result.exit_code == 130 and written and "interrupted" in result.output
    )  # as every command ends a Ctrl-C
    assert out.read_text() == "kept\n"  # not cut short, not emptied
    assert sorted(p.name for p in tmp_path.iterdir()) == ["club.jsonl"]  # nothing half-written left
    monkeypatch.undo()
    assert run("generate", "--matches", "2", "--out", str(out), "--overwrite").exit_code == 0
    assert len(lines_of(out.read_text())) == 2
    assert sorted(p.name for p in tmp_path.iterdir()) == ["club.jsonl"]


def test_an_existing_out_file_is_replaced_only_with_overwrite(tmp_path):
    """A mistyped --out could name the club's own records: generating over them is asked for."""
    out = tmp_path / "club.jsonl"
    out.write_text("recorded at the table\n")
    refused = run("generate", "--matches", "2", "--out", str(out))
    assert refused.exit_code == 2  # a usage error, as every option naming a file it cannot take
    assert f"{str(out)!r} exists: choose another file or add --overwrite" in refused.output
    assert out.read_text() == "recorded at the table\n"
    assert run("generate", "--matches", "2", "--out", str(out), "--overwrite").exit_code == 0
    assert len(lines_of(out.read_text())) == 2
    assert run("generate", "--matches", "1", "--out", os.devnull).exit_code == 0  # not a file: written as is


def test_help_teaches_the_spec_and_has_examples():
    result = run("generate", "--help")
    assert result.exit_code == 0
    for text in ("[NAME:]SKILL[@PLAY[/SCORE]]", "novice", "club", "vetten", "--slip-rate", "Examples:"):
        assert text in result.output


@pytest.mark.parametrize(
    "variant", ["two_open", "two_open_fours", "three", "three_dummy", "six", "six_short"]
)
def test_every_variant_can_be_generated(variant, tmp_path):
    """manillen generate --variant: records of every variant that validate, reproducibly."""
    players = "Anna:club,Bert:novice,Carla:club,Dirk:novice,Els:club,Frans:novice"
    out = tmp_path / "games.jsonl"
    args = ("--matches", "3", "--seed", "5", "--variant", variant, "--players", players, "--out", str(out))
    assert run("generate", *args).exit_code == 0
    first = out.read_bytes()
    assert run("generate", *args, "--overwrite").exit_code == 0
    assert out.read_bytes() == first
    results = [decode_and_replay(line) for line in first.splitlines()]
    assert len(results) == 3
    assert all(r.rules.variant == variant for r in results)
    assert all(d.points is None or sum(d.points) == 60 for r in results for d in r.deals)


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_one_match_of_any_variant_without_options(variant):
    """`manillen generate --variant X` alone (issue 14): one match, on standard output, that validates."""
    result = run("generate", "--variant", variant)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert len(lines) == 1
    assert replay(loads(lines[0])).rules.variant == variant


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_every_variant_generates_with_the_default_players(variant):
    """Without --players, a club player sits in every seat of the variant (Anna, Bert, ...)."""
    result = run("generate", "--matches", "1", "--variant", variant)
    assert result.exit_code == 0, result.output
    record = loads(result.stdout.splitlines()[0])
    assert len(record.match.seats) == VARIANTS[variant].people
    assert record.match.seats[:2] == ["Anna", "Bert"]


def test_id_prefix_and_variant_keep_generated_ids_apart():
    """Another seed reuses venue-date-number ids unless --id-prefix is given; variants never share."""
    four = [loads(line).match.id for line in lines_of(run("generate", "--matches", "3").stdout)]
    other_seed = [
        loads(line).match.id
        for line in lines_of(run("generate", "--matches", "3", "--seed", "1", "--id-prefix", "s8-").stdout)
    ]
    three_output = run("generate", "--matches", "3", "--variant", "three").stdout
    three = [loads(line).match.id for line in lines_of(three_output)]
    assert other_seed == [f"s8-{match_id}" for match_id in four]
    assert all(match_id.endswith("-three") for match_id in three)
    assert not set(three) & set(four)


def test_generate_refuses_rules_every_record_would_carry_unused_or_a_second_variant(tmp_path) -> None:
    """`--variant three --rule cafe.en_face=true` wrote the rule into every record (validate then
    named it as never applied) and `--rule variant=three --variant six` played six silently."""
    out = tmp_path / "g.jsonl"
    for args, said in (
        (["--variant", "three", "--rule", "cafe.en_face=true"], "rule option 'cafe.en_face' does not apply"),
        (["--rule", "extension=151,121"], "rule option 'extension' 121 never applies"),
        (
            ["--rule", "variant=three", "--variant", "six"],
            "--variant six and --rule variant=three name two games",
        ),
    ):
        result = CliRunner().invoke(cli, ["generate", *args, "--out", str(out)])
        assert result.exit_code == 2 and said in result.output and not out.exists(), result.output
    agreed = CliRunner().invoke(
        cli, ["generate", "--rule", "variant=three", "--variant", "three", "--out", str(out)]
    )
    assert agreed.exit_code == 0 and '"variant":"three"' in out.read_text().replace(" ", "")
