"""Readers and uploads (issue 31): one rule for lines everywhere, size checked before reading,
bounded rejects, uploads and drafts, and the record checks the schema cannot state (a card dealt
twice in a redeal, a recorded score over what the rules allow)."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

import manillen_replay.store.batch as batch
from manillen_replay.cli import cli
from manillen_replay.errors import InvalidRecordError, NotationError
from manillen_replay.record import dumps, dumps_text, iter_entries, loads, loads_text
from manillen_replay.record.io import MAX_RECORD_BYTES, entries_of
from manillen_replay.store import Store

ROOT = Path(__file__).resolve().parent.parent
SEED = json.loads((ROOT / "data" / "samples" / "seed-trick.json").read_text(encoding="utf-8"))
SEED_TEXT = (ROOT / "data" / "notation" / "seed-trick.mnl").read_text(encoding="utf-8")


def _run(*args: str, input: bytes | None = None) -> Result:
    return CliRunner().invoke(cli, list(args), input=input)


def _output(result: Result) -> str:
    return result.output + (result.stderr if result.stderr_bytes is not None else "")


def _seed(**match: Any) -> dict[str, Any]:
    record: dict[str, Any] = copy.deepcopy(SEED)
    record["match"].update(match)
    return record


def _scoresheet(points: int, rules: dict[str, Any] | None = None) -> dict[str, Any]:
    match: dict[str, Any] = {"id": "sheet", "seats": ["Anna", "Bert", "Carla", "Dirk"]}
    if rules is not None:
        match["rules"] = rules
    deal = {"dealer": 3, "recorded_score": {"team": 0, "points": points}}
    return {"format": "manillen/1", "match": match, "deals": [deal]}


def _problems(document: dict[str, Any]) -> list[tuple[str, str]]:
    try:
        loads(json.dumps(document))
    except InvalidRecordError as error:
        return [(p.pointer, p.message) for p in error.problems]
    return []


# --------------------------------------------------------------------------- 10: a .mnl over the limit


def _big_text(tmp_path: Path) -> Path:
    """A .mnl over the limit that is no match at all (its start is not UTF-8)."""
    path = tmp_path / "a-big.mnl"
    path.write_bytes(b"\xff\xfe not text " + b"x" * MAX_RECORD_BYTES)
    return path


def test_mnl_over_the_limit_is_one_refused_file_and_the_others_import(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A .mnl over 8 MiB is refused by its size, asked before reading (never read whole), with a
    reject row naming the limit; the files after it are imported."""
    big = _big_text(tmp_path)
    good = tmp_path / "b-good.json"
    good.write_text(json.dumps(_seed(id="after-the-big-one")), encoding="utf-8")
    real = Path.read_bytes

    def read_bytes(self: Path) -> bytes:
        assert self.name != big.name, "the oversized file was read whole"
        return real(self)

    monkeypatch.setattr(Path, "read_bytes", read_bytes)
    db = tmp_path / "club.duckdb"
    result = _run("import", str(big), str(good), "--db", str(db))
    output = _output(result)
    assert "Traceback" not in output and result.exit_code == 1, output
    assert "a-big.mnl: the text (.mnl) file is" in output and "over the limit of 8,388,608" in output
    with Store(db, read_only=True) as store:
        assert store.query("SELECT match_id FROM matches")["match_id"].to_list() == ["after-the-big-one"]
        rejects = store.query("SELECT source, line, message, raw FROM rejects")
    assert rejects.height == 1 and rejects["source"][0].endswith("a-big.mnl")
    assert "over the limit of 8,388,608" in rejects["message"][0]
    assert "sha256" in rejects["raw"][0]


def test_mnl_upload_over_the_limit_is_refused_with_the_limit_not_a_lock_error(tmp_path: Path) -> None:
    """The dashboard's upload reads the same way: one refused record saying the size and limit."""
    from dashboards.data import entries_from_upload

    data = _big_text(tmp_path).read_bytes()
    entries = entries_from_upload("big.mnl", data)
    assert len(entries) == 1 and entries[0].refusal is not None
    with Store(":memory:") as store:
        summary = store.import_entries(entries)
    assert summary.refused == 1
    assert "over the limit of 8,388,608" in summary.rejects[0].describe()


def _archive_page(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    """The Archive page over an archive of its own, its upload box open."""
    from dashboards import data

    from .test_dashboard import APP, build_archive, open_expander, open_page

    path = tmp_path / "own.duckdb"
    build_archive(path)
    monkeypatch.setenv(data.DB_ENVIRONMENT, str(path))
    from streamlit.testing.v1 import AppTest

    return open_expander(
        open_page(AppTest.from_file(APP, default_timeout=30), "archive"), "archive_upload_open"
    )


def test_archive_page_says_why_an_oversized_mnl_upload_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The upload of a .mnl over the limit is reported as one refused file naming the limit, not
    as the archive being in use by another program."""
    at = _archive_page(tmp_path, monkeypatch)
    data = _big_text(tmp_path).read_bytes()
    at.file_uploader(key="archive_upload").set_value(("big.mnl", data, "text/plain")).run()
    at.button(key="archive_import").click().run()
    assert not at.exception
    assert [w.value for w in at.warning] == [
        "big.mnl: 0 imported, 0 replaced, 0 already present, 1 refused (0 deals)."
    ]
    (refused,) = [e.value for e in at.error]
    assert refused.startswith("Refused: big.mnl: the text (.mnl) file is") and "8,388,608" in refused
    assert "another program" not in refused


def test_archive_page_refuses_an_upload_over_its_limits_in_words(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    at = _archive_page(tmp_path, monkeypatch)
    monkeypatch.setenv("MANILLEN_UPLOAD_MAX_RECORDS", "2")
    at.file_uploader(key="archive_upload").set_value(
        ("club.jsonl", b"{}\n{}\n{}\n", "application/jsonl")
    ).run()
    at.button(key="archive_import").click().run()
    assert not at.exception
    (refused,) = [e.value for e in at.error]
    assert refused.startswith("Not imported: club.jsonl has 3 lines, over the upload limit of 2 records")
    assert "another program" not in refused


# --------------------------------------------------------------------------- 11: one rule for lines


def test_a_carriage_return_inside_a_json_lines_record_reads_the_same_everywhere(tmp_path: Path) -> None:
    """Lines split at \\n only (a \\r before it dropped): a \\r elsewhere is JSON's whitespace, for
    `import FILE`, the dashboard's upload and `convert -` alike."""
    from dashboards.data import entries_from_upload

    line = json.dumps(SEED).replace(', "match"', ',\r"match"', 1).encode()
    assert b"\r" in line
    data = line + b"\r\n" + json.dumps(_seed(id="second")).encode() + b"\n"
    path = tmp_path / "club.jsonl"
    path.write_bytes(data)
    for entries in (
        list(iter_entries([path])),
        entries_from_upload("club.jsonl", data),
        entries_of(data, "<stdin>", "jsonl"),
    ):
        assert [e.line for e in entries] == [1, 2]
        assert [e.decode().match.id for e in entries] == [SEED["match"]["id"], "second"]
    result = _run("convert", "-", "-", "--from", "jsonl", "--to", "jsonl", input=data)
    assert result.exit_code == 0, _output(result)
    assert len(result.output.splitlines()) == 2


@pytest.mark.parametrize("char", ["\u2028", "\u2029", "\u0085", "\r", "\x0c", "\x1e"])
def test_text_with_line_breaking_characters_converts_both_ways(char: str, tmp_path: Path) -> None:
    """Text holding U+2028, U+2029, U+0085 (or another character Python breaks lines at) is
    written escaped by `convert` and read back the same."""
    record = _seed(notes=f"one{char}two", venue=f"De Zwaan{char}")
    record["deals"][0]["annotations"] = [{"author": "coach", "text": f"a{char}b", "tags": [f"t{char}"]}]
    source = tmp_path / "in.json"
    source.write_text(json.dumps(record, ensure_ascii=False), encoding="utf-8")
    result = _run("convert", str(source), str(tmp_path / "out.mnl"))
    assert result.exit_code == 0, _output(result)
    text = (tmp_path / "out.mnl").read_text(encoding="utf-8")
    assert char not in text
    result = _run("convert", str(tmp_path / "out.mnl"), str(tmp_path / "back.json"))
    assert result.exit_code == 0, _output(result)
    assert loads((tmp_path / "back.json").read_bytes()) == loads(json.dumps(record))
    back = loads_text(text)
    assert back == [loads(json.dumps(record))]


def test_raw_line_separators_in_a_text_file_stay_in_their_line() -> None:
    """A .mnl typed with a raw U+2028 in a note reads it as part of the note."""
    kept = [line for line in SEED_TEXT.splitlines(keepends=True) if not line.startswith("notes ")]
    text = "".join(kept).replace("seats ", "notes one\u2028two\nseats ", 1)  # one notes line a match
    (record,) = loads_text(text)
    assert record.match.notes == "one\u2028two"


@pytest.mark.parametrize("field", ["tricks", "declarations", "penalties", "annotations", "table_moves"])
def test_empty_lists_round_trip_as_absent(field: str) -> None:
    """An empty list of a deal reads as the list absent (they say the same), so JSON -> text ->
    JSON gives the same record; `"tricks": []` among them."""
    record = copy.deepcopy(SEED)
    record["deals"][0][field] = []
    if field == "tricks":
        record["deals"][0]["recorded_score"] = {"team": 0, "points": 6}
    read = loads(json.dumps(record))
    assert f'"{field}"' not in dumps(read)
    assert loads_text(dumps_text(read)) == [read]


@pytest.mark.parametrize("rules", [{}, {"cafe": {}}, {"extension": []}, {"extension": [121]}])
def test_rules_that_were_refused_on_reading_back_round_trip(rules: dict[str, Any]) -> None:
    read = loads(json.dumps(_seed(rules=rules)))
    assert loads_text(dumps_text(read)) == [read]


# --------------------------------------------------------------------------- 12: bounded uploads


def test_rejects_kept_per_file_are_capped_with_one_row_for_the_rest(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Past the first MAX_REJECTS_KEPT refused records of a file only a count is kept: one row
    says how many more there were; every one is still counted as refused."""
    monkeypatch.setattr(batch, "MAX_REJECTS_KEPT", 5)
    path = tmp_path / "many.jsonl"
    path.write_text("{}\n" * 12 + json.dumps(SEED) + "\n", encoding="utf-8")
    with Store(":memory:") as store:
        summary = store.import_paths([path])
        rows = store.query("SELECT line, message FROM rejects ORDER BY line NULLS LAST")
    assert summary.refused == 12 and summary.imported == 1 and summary.not_kept == 7
    assert rows.height == 6
    assert rows["line"].to_list()[:5] == [1, 2, 3, 4, 5] and rows["line"][5] is None
    assert rows["message"][5].startswith("and 7 more refused records, not kept")
    assert summary.rejects[-1].message == rows["message"][5]


def test_upload_over_the_limits_is_refused_before_reading(monkeypatch: pytest.MonkeyPatch) -> None:
    """The dashboard refuses an upload of more lines (or matches) or bytes than its settings
    allow, with a message naming the limit and the setting."""
    from dashboards import data, limits

    assert data.upload_limits() == (limits.DEFAULT_UPLOAD_MAX_MB * 2**20, limits.DEFAULT_UPLOAD_MAX_RECORDS)
    with pytest.raises(data.UploadRefusedError, match="1,000,000 lines, over the upload limit of 10,000"):
        data.entries_from_upload("million.jsonl", b"{}\n" * 1_000_000)
    monkeypatch.setenv(limits.UPLOAD_MAX_RECORDS, "2")
    assert len(data.entries_from_upload("two.jsonl", b"{}\n{}\n")) == 2
    with pytest.raises(data.UploadRefusedError, match="MANILLEN_UPLOAD_MAX_RECORDS"):
        data.entries_from_upload("three.jsonl", b"{}\n{}\n{}\n")
    with pytest.raises(data.UploadRefusedError, match="3 matches"):
        data.entries_from_upload("three.mnl", ((SEED_TEXT + "\n") * 3).encode())
    monkeypatch.setenv(limits.UPLOAD_MAX_MB, "1")
    with pytest.raises(data.UploadRefusedError, match="over the upload limit of 1,048,576"):
        data.entries_from_upload("big.json", b" " * (2**20 + 1))


def test_drafts_are_capped_in_count_and_size(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A new draft past MAX_DRAFTS, or a draft over MAX_DRAFT_BYTES, is refused with a message;
    the open ones are still saved, and an oversized file is not read."""
    from dashboards import drafts
    from dashboards import recording as rec

    monkeypatch.setattr(drafts, "MAX_DRAFTS", 2)
    setup = rec.Setup(match_id="t-1", seats=["Anna", "Bert", "Carla", "Dirk"], date="2026-12-01")
    first = drafts.save(rec.new_draft("aaa", setup), tmp_path)
    drafts.save(rec.new_draft("bbb", setup), tmp_path)
    with pytest.raises(rec.RecordingError, match="2 open drafts already"):
        drafts.save(rec.new_draft("ccc", setup), tmp_path)
    drafts.save(first, tmp_path)  # an open draft is saved again
    assert sorted(d.draft_id for d in drafts.open_drafts(tmp_path)) == ["aaa", "bbb"]
    monkeypatch.setattr(drafts, "MAX_DRAFT_BYTES", 100)
    with pytest.raises(rec.RecordingError, match="over the limit of 100 for a draft"):
        drafts.save(first, tmp_path)
    assert drafts.load("aaa", tmp_path) is None  # its file is over the limit now: not read


# --------------------------------------------------------------------------- 14: record checks


def test_recorded_score_is_bounded_by_the_rules() -> None:
    """A scoresheet line scores at most the card points over the half (30) times the highest
    factor the rules allow: 120 under the default cap of 4."""
    assert _problems(_scoresheet(120)) == []
    (problem,) = _problems(_scoresheet(30_720))
    assert problem[0] == "/deals/0/recorded_score/points"
    assert "30,720 points is more than one deal can score" in problem[1] and "at most 120" in problem[1]
    assert _problems(_scoresheet(240, {"max_multiplier": 8})) == []
    assert _problems(_scoresheet(241, {"max_multiplier": 8}))
    # without a cap: muil x2 knocked x4 (klop_on_muil) with en face x2 and a carry x2 = 32
    uncapped = {"max_multiplier": None, "klop_on_muil": True, "cafe": {"en_face": True}}
    assert _problems(_scoresheet(960, uncapped)) == []
    assert _problems(_scoresheet(961, uncapped))
    # eternal knocking without a cap: only the format's own bound
    assert _problems(_scoresheet(30_720, {"max_multiplier": None, "cafe": {"eternal_klop": True}})) == []


def test_recorded_score_over_the_bound_is_placed_in_every_reader(tmp_path: Path) -> None:
    path = tmp_path / "club.jsonl"
    path.write_text(json.dumps(SEED) + "\n" + json.dumps(_scoresheet(30_720)) + "\n", encoding="utf-8")
    result = _run("validate", str(path))
    assert result.exit_code == 1
    assert "club.jsonl:2: /deals/0/recorded_score/points: a recorded score of 30,720 points" in _output(
        result
    )
    text = "seats Anna Bert Carla Dirk\n\ndeal 1  dealer Dirk  score Anna&Carla 30720\n"
    with pytest.raises(InvalidRecordError) as raised:
        loads_text(text, source="game.mnl")
    (problem,) = raised.value.problems
    assert isinstance(problem, NotationError) and problem.line == 3
    assert "30,720 points" in problem.describe()


def test_a_card_dealt_twice_in_a_redeal_is_refused() -> None:
    """Each card is dealt at most once across the hands of a deal, a redeal's too."""
    hands = [
        ["7H", "8H", "9H", "7S", "8S", "JH", "AS", "KS"],
        ["7H", "8D", "9D", "7C", "8C", "9C", "JD", "QD"],
        ["10H", "AH", "KH", "QH", "10S", "QS", "JS", "9S"],
        ["10D", "AD", "KD", "10C", "AC", "KC", "QC", "JC"],
    ]
    redeal = {"dealer": 0, "hands": hands, "declarations": [{"seat": 0, "call": "redeal"}]}
    record = _seed(rules={"cafe": {"redeal_small": True}})
    record["deals"] = [redeal]
    problems = _problems(record)
    assert problems == [("/deals/0/hands/1/0", "'7H' was dealt twice (also at /deals/0/hands/0/0)")]
    hands[1][0] = "7D"
    assert _problems(record) == []


# --------------------------------------------------------------------------- the docs


def test_the_notation_guides_legal_example_runs_as_written() -> None:
    """docs/notation.md's `manillen legal` with suit symbols, inline in its text, runs."""
    guide = (ROOT / "docs" / "notation.md").read_text(encoding="utf-8")
    start = guide.index("(`manillen legal ") + 2
    command = guide[start : guide.index("`", start)]
    import shlex

    result = _run(*shlex.split(command)[1:])
    assert result.exit_code == 0, _output(result)
    assert "Seat 4 to play" in result.output


def test_a_record_link_that_leads_nowhere_in_a_folder_is_refused_not_skipped(tmp_path: Path) -> None:
    """A folder's dangling or looping link named like a record was left out without a word."""
    (tmp_path / "ok.json").write_text(json.dumps(SEED), encoding="utf-8")
    (tmp_path / "dangling.json").symlink_to("nowhere.json")
    (tmp_path / "loop.json").symlink_to("loop.json")
    entries = list(iter_entries([tmp_path]))
    refused = {Path(e.source).name: e.refusal for e in entries if e.refusal is not None}
    assert refused == {
        "dangling.json": "cannot read this record file: it is a link to no file",
        "loop.json": "cannot read this record file: it is a link that leads round in a loop",
    }
    assert [Path(e.source).name for e in entries if e.refusal is None] == ["ok.json"]
