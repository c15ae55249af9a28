"""Issue 31's newcomer's list: seats and teams named one way everywhere (players' names, teams A and
B, seats 1 to 4), a club evening's teams block by block, the pages' words in Dutch, symbols on the
Record page, the Record page's replay link after a reload, a Match page with no match chosen, and
the Archive's columns on a phone."""

from __future__ import annotations

import json
import re
from pathlib import Path

from click.testing import CliRunner

from manillen_replay.cli import cli
from manillen_replay.engine import replay
from manillen_replay.record import loads

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "data" / "samples"


def run(*args: str) -> str:
    result = CliRunner().invoke(cli, list(args))
    assert result.exit_code == 0, result.output
    return result.output


# --------------------------------------------------------------------------- the command line


def test_replay_names_teams_by_their_players_not_team_numbers() -> None:
    """`manillen replay` writes who scored as players say it (Anna & Carla), never "team 0"."""
    text = run("replay", str(SAMPLES / "illegal-plays.json"))
    assert "score: Bert & Dirk +7" in text
    assert "the scoresheet says Anna & Carla scored 17, the cards say Anna & Carla scored 15" in text
    assert not re.search(r"\bteam [01]\b", text), text
    finished = run("replay", str(SAMPLES / "match-101.json"))
    assert re.search(r"Final score \d+-\d+: (Anna & Carla|Bert & Dirk) win\n", finished), finished


def test_replay_names_a_dealer_out_of_rotation_without_seat_numbers(tmp_path: Path) -> None:
    record = json.loads((SAMPLES / "scoresheet.json").read_text())
    record["deals"][1]["dealer"] = 3  # Dirk deals where Bert's turn was
    path = tmp_path / "rotation.json"
    path.write_text(json.dumps(record))
    text = run("replay", str(path))
    assert "! deal 2 was dealt by Dirk; by rotation it was Bert's turn\n" in text
    assert "(seat " not in text


def test_replay_json_keeps_its_numbers_from_zero() -> None:
    """The JSON for programs keeps seats and teams counted from 0 (docs/cli.md)."""
    data = json.loads(run("replay", str(SAMPLES / "illegal-plays.json"), "--json"))
    deal = data["matches"][0]["deals"][0]
    assert deal["score"]["team"] in (0, 1) and deal["dealer"] in range(4)


def test_replay_of_a_club_evening_prints_each_blocks_teams() -> None:
    """Partners rotate between blocks: every block's teams, and each deal's dealer and scorers from
    that block's seating."""
    result = replay(loads((SAMPLES / "club-evening.json").read_text()))
    text = run("replay", str(SAMPLES / "club-evening.json"))
    assert "Teams: Anna & Carla  vs  Bert & Dirk" not in text
    for number, block in enumerate(result.blocks, start=1):
        first, second = " & ".join(block.seats[0::2]), " & ".join(block.seats[1::2])
        assert f"Block {number}: {first}  vs  {second}\n" in text
    assert text.index("Block 2: Anna & Bert  vs  Carla & Dirk") < text.index("Deal 13:")
    assert text.index("Deal 12:") < text.index("Block 2:")
    # deal 14 is the second of block 2, dealt by its seat 1: Carla (Bert in block 1)
    deal = result.deals[13]
    assert f"Deal 14: dealer {deal.names[deal.dealer]}," in text
    assert "Deal 14: dealer Carla," in text
    assert deal.score is not None
    scored = " & ".join(deal.names[deal.score.team :: 2])
    assert f"score: {scored} +" in text.split("Deal 14:")[1].split("Deal 15:")[0]
    only = run("replay", str(SAMPLES / "club-evening.json"), "--deal", "14")
    assert "Block 2: Anna & Bert  vs  Carla & Dirk" in only and "Block 1: " not in only
