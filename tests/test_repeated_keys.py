"""A key given twice in one object of a JSON record (``{"deals": [...], "deals": [...]}``): JSON
readers keep the last one, so half a match typed by hand would go unseen. Every reader refuses
it, placed at the key's JSON pointer with the lines and columns of both, and a record that gives
each key once (in any order, spacing or escaping) is read as before."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from manillen_replay.bulk import replay_entries
from manillen_replay.cli import cli
from manillen_replay.errors import InvalidRecordError
from manillen_replay.record import Entry, dumps, loads
from manillen_replay.record.io import may_repeat_keys, read_cards_unread

from .test_bulk_replay import generated

SAMPLES = sorted((Path(__file__).resolve().parent.parent / "data" / "samples").glob("*.json"))


def written(
    value: Any, repeat: tuple[str, ...] | None = None, at: tuple[str, ...] = (), depth: int = 0
) -> str:
    """``value`` as JSON typed by hand (an item a line, two spaces an indent), with the first key
    of the object at pointer ``repeat`` given twice (its value both times)."""
    pad, inner = "  " * depth, "  " * (depth + 1)
    if isinstance(value, dict):
        items = list(value.items())
        if at == repeat and items:
            items.insert(1, items[0])
        parts = [f"{inner}{json.dumps(k)}: {written(v, repeat, (*at, k), depth + 1)}" for k, v in items]
        return "{\n" + ",\n".join(parts) + f"\n{pad}}}" if parts else "{}"
    if isinstance(value, list):
        parts = [f"{inner}{written(v, repeat, (*at, str(i)), depth + 1)}" for i, v in enumerate(value)]
        return "[\n" + ",\n".join(parts) + f"\n{pad}]" if parts else "[]"
    return json.dumps(value)


def objects(value: Any, at: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    """The pointer of every object with a key in ``value``."""
    if isinstance(value, dict):
        here = [at] if value else []
        return here + [p for k, v in value.items() for p in objects(v, (*at, k))]
    if isinstance(value, list):
        return [p for i, v in enumerate(value) for p in objects(v, (*at, str(i)))]
    return []


def test_a_key_given_twice_is_refused_at_its_pointer_with_both_places() -> None:
    sample = json.loads(Path(SAMPLES[0]).read_text())
    text = written(sample, repeat=())
    assert len(loads(written(sample)).deals) == len(sample["deals"])  # the same, once each
    with pytest.raises(InvalidRecordError) as refused:
        loads(text, source="typed.json")
    (problem,) = refused.value.problems
    first_key = next(iter(sample))
    assert problem.pointer == f"/{first_key}"
    assert str(problem) == (
        f"typed.json: /{first_key}: {first_key!r} is given twice in one object "
        "(line 2 column 3, then line 3 column 3): a reader keeps the last one only; give it once"
    )


@pytest.mark.parametrize("sample", SAMPLES, ids=lambda p: p.stem)
def test_every_object_of_every_sample_refuses_its_first_key_given_twice(sample: Path) -> None:
    """Each object of a shipped sample (the match, its rules, each deal, call, score, comment)
    with its first key given again: refused at that key, whatever the object and its depth."""
    document = json.loads(sample.read_text())
    for at in objects(document):
        with pytest.raises(InvalidRecordError) as refused:
            loads(written(document, repeat=at))
        first_key = next(iter(_walk(document, at)))
        pointer = "".join(f"/{part}" for part in (*at, first_key))
        assert [p.pointer for p in refused.value.problems] == [pointer], at


def _walk(value: Any, at: tuple[str, ...]) -> Any:
    for part in at:
        value = value[int(part)] if isinstance(value, list) else value[part]
    return value


def test_a_record_giving_each_key_once_reads_however_it_is_written() -> None:
    """Keys in another order, spaces around the colons, texts holding colons, a colon written as
    an escape: each key once, so nothing is refused and the record is the same."""
    document = json.loads(SAMPLES[0].read_text())
    document["match"]["notes"] = 'at 19:30 sharp: "a": 1, {"deals": []}'
    reordered = {key: document[key] for key in reversed(document)}
    text = json.dumps(reordered, separators=(" , ", " : ")).replace("19:30", "19\\u003a30")
    record = loads(text)
    assert record.match.notes == document["match"]["notes"]
    assert dumps(record) == dumps(loads(json.dumps(document)))


def test_what_this_program_writes_is_proved_free_of_repeats_without_a_scan() -> None:
    """The screen's quick answer: the record written back is the document itself."""
    line = generated("four", 3)[0]
    assert not may_repeat_keys(line, loads(line))
    repeated = line[:-1] + b',"deals":[]}'
    record = read_cards_unread(Entry("a.jsonl", 1, repeated))
    assert record is None  # the quick reading leaves it to the full one, which names the problem


def test_validate_names_the_file_line_and_pointer_of_a_key_given_twice(tmp_path: Path) -> None:
    """``manillen validate`` on an archive big enough for its quick bulk reading (the compiled
    pass plays batches of 500 deals and more): the one line with a key given twice is refused,
    every other line is read as before."""
    lines = [line for seed in range(1, 14) for line in generated("four", seed)]
    assert sum(len(json.loads(line)["deals"]) for line in lines) >= 500
    lines[5] = lines[5].replace(b'"dealer":', b'"dealer":0,"dealer":', 1)
    archive = tmp_path / "club.jsonl"
    archive.write_bytes(b"\n".join(lines) + b"\n")
    read = list(replay_entries([Entry("club.jsonl", n, line) for n, line in enumerate(lines, start=1)]))
    refused = [(entry.line, result) for entry, _, result in read if isinstance(result, InvalidRecordError)]
    assert [line for line, _ in refused] == [6]
    (problem,) = refused[0][1].problems
    assert problem.pointer == "/deals/0/dealer" and problem.line == 6
    result = CliRunner().invoke(cli, ["validate", "--quiet", str(archive)])
    assert result.exit_code == 1
    assert f"{archive}:6: /deals/0/dealer: 'dealer' is given twice in one object (column " in result.output
    assert f"{len(lines) - 1} valid, 1 invalid" in result.output


def test_a_file_typed_by_hand_ending_in_a_new_line_is_refused_at_its_repeated_key(tmp_path: Path) -> None:
    """An editor ends a file with a line break (or a few): the key given twice is still found and
    told, and ``manillen validate`` names the file, the pointer and both lines."""
    sample = json.loads(Path(SAMPLES[0]).read_text())
    first_key = next(iter(sample))
    typed = tmp_path / "typed.json"
    typed.write_text(written(sample, repeat=()) + "\n\n")
    with pytest.raises(InvalidRecordError) as refused:
        loads(typed.read_text())
    assert [p.pointer for p in refused.value.problems] == [f"/{first_key}"]
    result = CliRunner().invoke(cli, ["validate", str(typed)])
    assert result.exit_code == 1
    assert (
        f"{typed}: /{first_key}: {first_key!r} is given twice in one object "
        "(line 2 column 3, then line 3 column 3)" in result.output
    )


def test_a_key_given_twice_is_found_beside_a_colon_written_as_an_escape() -> None:
    """A text holding a colon written ``\\u003a`` (one colon fewer than the record written back)
    and a key given twice (one more): the two do not cancel out, the key is refused."""
    document = json.loads(SAMPLES[0].read_text())
    document["match"]["notes"] = "at 19:30 sharp"
    text = json.dumps(document, separators=(",", ":")).replace("19:30", "19\\u003a30")
    repeated = text.replace('"dealer":', '"dealer":1,"dealer":', 1)
    assert repeated.count(":") == json.dumps(document, separators=(",", ":")).count(":")
    with pytest.raises(InvalidRecordError) as refused:
        loads(repeated)
    assert [p.pointer for p in refused.value.problems] == ["/deals/0/dealer"]


def test_a_key_given_twice_on_one_line_is_placed_by_its_columns() -> None:
    """A JSON Lines archive's line (the file's line number is told before): both places are the
    columns of the key's opening quote, counted from 1."""
    line = generated("four", 3)[0].decode()
    repeated = line.replace('"dealer":', '"dealer":1,"dealer":', 1)
    first = line.index('"dealer":') + 1
    then = first + len('"dealer":1,')
    with pytest.raises(InvalidRecordError) as refused:
        loads(repeated, source="club.jsonl", line=7)
    assert [str(problem) for problem in refused.value.problems] == [
        f"club.jsonl:7: /deals/0/dealer: 'dealer' is given twice in one object (column {first}, then "
        f"column {then}): a reader keeps the last one only; give it once"
    ]
