"""Mutation testing of one core module with the tests that cover it: ``make mutate MODULE=...``.

mutmut reads its settings from the ``pyproject.toml`` of the folder it runs in and keeps its
mutants and results in a ``mutants/`` folder there. So that each module keeps its own results (and
two modules can be looked at side by side), each one gets a folder ``.mutation/<module>/`` outside
git: links to the project's folders and a ``pyproject.toml`` naming the one file to mutate and the
test files below. A second run of the same module only runs the mutants whose function changed.

    .venv/bin/python -m tests.mutate manillen_replay/rules.py            # run, then list survivors
    .venv/bin/python -m tests.mutate manillen_replay/analysis/detectors.py --only '*klop*'  # some functions
    cd .mutation/manillen_replay.rules && ../../.venv/bin/mutmut show <name>   # one survivor's diff
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WORK = ROOT / ".mutation"

_DATA_LOSS_IMPORTS = (
    "test_a_replaced_match_is_kept_and_can_be_restored",
    "test_an_import_told_not_to_replace_keeps_the_archives_match",
    "test_cli_import_names_what_it_replaced_and_restore_puts_it_back",
)

# The house rules' tests that replay records (the others run the solver or the call reviews, minutes)
_HOUSE_RULES_REPLAYS = (
    "test_underbuy_allowed_lets_a_trump_go_below_one_on_the_table",
    "test_underbuy_forbidden_with_other_suit_only_while_holding_another_suit",
    "test_underbuy_forced_when_one_cannot_follow",
    "test_underbuy_forced_a_plain_card_instead_is_a_failed_to_buy",
    "test_capot_plain_scores_as_any_deal",
    "test_capot_double_is_a_bonus_on_the_multiplier",
    "test_capot_fixed_score",
    "test_multipliers_added_rather_than_multiplied",
    "test_muil_without_doubling",
    "test_trump_choice_held_suit_only_among_suits_the_chooser_holds",
    "test_trump_choice_turned_card_the_dealers_last_card_makes_trump",
    "test_trump_choice_turned_card_needs_no_trump_call",
    "test_klop_by_left_of_dealer_only_that_player_or_the_partner_knocks",
    "test_a_game_to_61_instead_of_101",
    "test_conflicting_options_are_refused_with_a_clear_message",
    "test_a_recorded_score_over_the_capot_bound_is_refused_naming_the_capot",
)

# The engine's tests of the variations a comment carries (the rest of the file is the replay's)
_ENGINE_VARIATIONS = (
    "test_a_variation_without_its_trick_and_play_is_refused_at_its_line",
    "test_a_variation_that_plays_out_is_accepted_and_a_wrong_one_is_refused_at_its_card",
    "test_each_variation_of_a_deal_is_checked_at_its_own_place_with_the_players_names",
)

# The readers' tests that read or write the notation (the others are the size limits of uploads,
# drafts and JSON Lines, which reach the notation only to ask whether a file's name is a .mnl)
_READERS_OF_TEXT = (
    "test_mnl_over_the_limit_is_one_refused_file_and_the_others_import",
    "test_text_with_line_breaking_characters_converts_both_ways",
    "test_raw_line_separators_in_a_text_file_stay_in_their_line",
    "test_empty_lists_round_trip_as_absent",
    "test_rules_that_were_refused_on_reading_back_round_trip",
    "test_upload_over_the_limits_is_refused_before_reading",
    "test_recorded_score_over_the_bound_is_placed_in_every_reader",
)

_CARDS_UNREAD = (
    "test_validate_reads_the_cards_of_compact_records_at_once",
    "test_validate_agrees_with_the_engine_on_every_variant",
    "test_every_shape_of_deal_reads_quickly_as_the_engine_reads_it",
    "test_validate_agrees_with_the_engine_under_house_rules",
    "test_a_trump_not_held_is_refused_by_the_quick_reading_as_by_the_engine",
)
"""validate's records read with their cards left as JSON text (record/io.py's reader, the
engine's replay of them), compared with the engine's own reading."""

# A record naming too few or too many players, refused by the text writer and by the replay
_SEATS_REFUSED = ("test_the_writer_refuses_a_record_naming_too_few_or_too_many_players",)
_SEATS_REPLAYED = ("test_a_match_whose_seats_blocks_or_dealer_do_not_fit_its_game_is_refused_at_them",)

# The test files (or single tests, ``file::name``) that exercise each core module's behaviour: a run
# takes minutes, not the hours that the whole suite (browsers, the solver's compiled kernels) would
# take for every mutant.
TESTS_FOR_MODULE: dict[str, tuple[str, ...]] = {
    "manillen_replay/cards.py": ("tests/test_rules.py", "tests/test_mutants_cards.py"),
    "manillen_replay/rules.py": (
        "tests/test_rules.py",
        "tests/test_machine.py",
        "tests/test_variants.py",
        "tests/test_cli_records.py",
        "tests/test_mutants_rules.py",
        "tests/test_mutants_rules2.py",
    ),
    "manillen_replay/state.py": (
        "tests/test_rules.py",
        "tests/test_perft.py",
        "tests/test_variants.py",
        "tests/test_mutants_rules.py",
        "tests/test_mutants_core.py",
    ),
    # the replay's result objects: the deals' tricks kept in a batch's arrays until asked for
    # (the bulk path's), compared and pickled; and the replay's own tests, which read every result
    "manillen_replay/engine/results.py": (
        "tests/test_engine.py",
        "tests/test_bulk_replay.py",
        "tests/test_mutants_engine.py",
        "tests/test_mutants_engine_results.py",
    ),
    # a comment's variation played from its place, and the names of the trump calls: the replay's
    # checks of variations, the what-if tests that need no solver
    "manillen_replay/engine/variation.py": (
        "tests/test_what_if.py",
        *(f"tests/test_mutants_engine.py::{test}" for test in _ENGINE_VARIATIONS),
        "tests/test_mutants_variation.py",
    ),
    "manillen_replay/engine": (
        "tests/test_engine.py",
        "tests/test_variants.py",
        "tests/test_cli_records.py",
        "tests/test_mutants_core.py",
        "tests/test_mutants_engine.py",
        *(f"tests/test_house_rules.py::{test}" for test in _HOUSE_RULES_REPLAYS),
        # the dealer's lone contract call read at once, against the loop over the calls
        "tests/test_bulk_replay.py::test_a_lone_call_reads_as_the_loop_over_the_calls_reads_it",
        "tests/test_bulk_replay.py::test_the_lone_call_reading_takes_the_common_calls",
        "tests/test_mutants_changed.py",
        *(f"tests/test_bulk_replay.py::{test}" for test in _CARDS_UNREAD),
        # the replay of a record with its cards unread handed plays it must not take
        "tests/test_mutants_quick.py",
        # who sits in each seat and who chose its cards: the dummy's are the dealer's
        "tests/test_mutants_engine2.py",
    ),
    # the files of record/ with the tests of their own behaviour besides the package's: the text
    # notation's parser and writer, the reading of files and the messages for a bad document.
    # The notation's: what a typed line means, what a bad one is told, and the round trips; not the
    # JSON schema's tests nor the pages' upload tests, which reach it only to ask a file's name
    "manillen_replay/record/text.py": (
        "tests/test_notation.py",
        "tests/test_mutants_text.py",
        "tests/test_mutants_text_reader.py",
        "tests/test_mutants_text_writer.py",
        "tests/test_mutants_text_small.py",
        *(f"tests/test_readers.py::{test}" for test in _READERS_OF_TEXT),
        "tests/test_what_if.py::test_a_variation_round_trips_through_json_and_the_text_notation",
        "tests/test_what_if.py::test_a_comment_by_an_author_called_line_still_reads_without_a_variation",
        "tests/test_what_if.py::test_a_bad_variation_in_the_text_notation_names_its_line_and_column",
        "tests/test_fuzz.py::test_round_trip_of_line_breaks_and_empty_tricks",
    ),
    "manillen_replay/record/io.py": (
        "tests/test_record.py",
        "tests/test_readers.py",
        "tests/test_bad_input.py",
        "tests/test_notation.py",
        "tests/test_mutants_record.py",
        "tests/test_mutants_io.py",
        *(f"tests/test_bulk_replay.py::{test}" for test in _CARDS_UNREAD),
        # a key given twice in one object: refused by every reader, at its pointer, with both places
        "tests/test_repeated_keys.py",
    ),
    # the record's checks, and the number of names in match.seats as the writer and engine tell it
    "manillen_replay/record/validation.py": (
        "tests/test_record.py",
        "tests/test_readers.py",
        "tests/test_mutants_record.py",
        "tests/test_mutants_changed.py",
        *(f"tests/test_notation.py::{test}" for test in _SEATS_REFUSED),
        *(f"tests/test_mutants_engine.py::{test}" for test in _SEATS_REPLAYED),
    ),
    "manillen_replay/record": (
        "tests/test_record.py",
        "tests/test_readers.py",
        "tests/test_mutants_record.py",
        "tests/test_mutants_changed.py",
    ),
    # the import tests of the data-loss cases only: its pages' tests take seconds each, for every mutant
    "manillen_replay/store/importer.py": (
        "tests/test_store.py",
        "tests/test_mutants_store.py",
        "tests/test_mutants_importer.py",
        "tests/test_mutants_store2.py",
        *(f"tests/test_data_loss.py::{test}" for test in _DATA_LOSS_IMPORTS),
    ),
    # the loader thread: batches held back and loaded together (the import's tests, which load
    # every archive through it, and the loader's own)
    "manillen_replay/store/loader.py": (
        "tests/test_store.py",
        "tests/test_mutants_store.py",
        "tests/test_mutants_importer.py",
        "tests/test_mutants_store2.py",
        *(f"tests/test_data_loss.py::{test}" for test in _DATA_LOSS_IMPORTS),
    ),
    "manillen_replay/store/batch.py": (
        "tests/test_store.py",
        "tests/test_mutants_store.py",
        "tests/test_readers.py",
        "tests/test_mutants_changed.py",
    ),
    "dashboards/drafts.py": (
        "tests/test_data_loss.py",
        "tests/test_mutation_survivors.py",
        "tests/test_readers.py",
        "tests/test_mutants_drafts.py",
    ),
    "manillen_replay/analysis/detectors.py": (
        "tests/test_detectors.py",
        "tests/test_analysis.py",
        "tests/test_slips.py",
        "tests/test_mutation_survivors.py",
        "tests/test_mutants_analysis.py",
        "tests/test_mutants_detectors.py",
        "tests/test_mutants_changed.py",
        "tests/test_mutants_analysis2.py",
    ),
    # what each play's player knew: every detector reads it
    "manillen_replay/analysis/knowledge.py": (
        "tests/test_detectors.py",
        "tests/test_analysis.py",
        "tests/test_slips.py",
        "tests/test_mutation_survivors.py",
        "tests/test_mutants_analysis.py",
        "tests/test_mutants_detectors.py",
        "tests/test_mutants_analysis2.py",
    ),
    "manillen_replay/analysis/findings.py": (
        "tests/test_analysis.py",
        "tests/test_mutation_survivors.py",
        "tests/test_mutants_analysis.py",
        "tests/test_mutants_analysis2.py",
    ),
    "manillen_replay/report/svg.py": (
        "tests/test_svg.py",
        "tests/test_mutation_survivors.py",
        "tests/test_mutants_report.py",
        "tests/test_mutants_svg2.py",
        "tests/test_mutants_svg3.py",
    ),
    # the report's HTML on an archive costed without the solver (test_report.py's archive is
    # costed by it: a minute for every mutant)
    "manillen_replay/report/render.py": ("tests/test_mutants_render.py", "tests/test_mutants_render2.py"),
}

# Mapped tests left out of one module's runs, where each surviving mutant would pay for them and
# quicker tests state the same behaviour of that module: ``(node ids, -k expression)``.
LEFT_OUT_FOR_MODULE: dict[str, tuple[tuple[str, ...], str | None]] = {
    # record/io.py: the whole demo archive against the schema and through the notation (300 matches,
    # 18 s: the samples' tests read the same code), random deals through the notation (text.py's
    # property), the Archive page's upload wording (AppTest, 6 s) and the import of each bad
    # document (4 s, the archive's part: `validate`, `replay`, `findings` and `costs` still read it)
    "manillen_replay/record/io.py": (
        (
            "tests/test_notation.py::test_the_demo_archive_round_trips",
            "tests/test_notation.py::test_random_legal_deals_round_trip",
            "tests/test_record.py::test_every_data_file_validates_against_the_schema[data/demo.jsonl]",
            "tests/test_record.py::test_every_data_file_round_trips_byte_for_byte[data/demo.jsonl]",
            "tests/test_readers.py::test_archive_page_says_why_an_oversized_mnl_upload_is_refused",
            "tests/test_readers.py::test_archive_page_refuses_an_upload_over_its_limits_in_words",
        ),
        "not (in_every_command and import)",
    ),
    # record/text.py: the demo archive's round trip (300 generated matches through the notation and
    # back, 7 to 17 s) would run whole for every surviving mutant of the parser and writer; the
    # generated matches of every variant, the samples and the random deals go the same way in a second
    "manillen_replay/record/text.py": (("tests/test_notation.py::test_the_demo_archive_round_trips",), None),
    # store/importer.py: every import test reaches import_entries, _import_file, _flush and _load,
    # so each of their surviving mutants runs the whole mapping. Left out are the slowest tests
    # whose assertions are about other modules' work on an import that the rest also makes: the
    # rows of every deal, match and declaration and of every variant's sample (batch.py's), the
    # lock held by a second process (connection.py's) and the upgrades of old archives (the
    # migrations'): 13 s of the mapping's 40
    "manillen_replay/store/importer.py": (
        (
            "tests/test_mutants_store.py::test_each_deals_row_is_what_the_engine_says_of_the_deal",
            "tests/test_mutants_store.py::test_declarations_are_stored_in_the_order_spoken_with_who_spoke",
            "tests/test_mutants_store.py::test_each_deal_names_who_sat_where_the_dummy_played_by_the_dealer",
            "tests/test_mutants_store.py::test_each_matchs_row_is_what_the_record_and_the_engine_say",
            "tests/test_store.py::test_every_variant_sample_imports",
            "tests/test_store.py::test_archive_held_by_another_process_gives_a_clear_message",
            "tests/test_store.py::test_old_archive_is_upgraded_when_opened",
            "tests/test_store.py::test_matches_analysed_before_migration_5_count_as_heuristic",
        ),
        None,
    ),
    # store/loader.py: the same slow tests as the importer's, for the same reason
    "manillen_replay/store/loader.py": (
        (
            "tests/test_mutants_store.py::test_each_deals_row_is_what_the_engine_says_of_the_deal",
            "tests/test_mutants_store.py::test_declarations_are_stored_in_the_order_spoken_with_who_spoke",
            "tests/test_mutants_store.py::test_each_deal_names_who_sat_where_the_dummy_played_by_the_dealer",
            "tests/test_mutants_store.py::test_each_matchs_row_is_what_the_record_and_the_engine_say",
            "tests/test_store.py::test_every_variant_sample_imports",
            "tests/test_store.py::test_archive_held_by_another_process_gives_a_clear_message",
            "tests/test_store.py::test_old_archive_is_upgraded_when_opened",
            "tests/test_store.py::test_matches_analysed_before_migration_5_count_as_heuristic",
        ),
        None,
    ),
    # store/batch.py: the Archive page's upload wording (AppTest, 2 s of the mapping's 19): the
    # refused upload's reject row and problem are stated by the readers' import tests kept here
    "manillen_replay/store/batch.py": (
        (
            "tests/test_readers.py::test_archive_page_says_why_an_oversized_mnl_upload_is_refused",
            "tests/test_readers.py::test_archive_page_refuses_an_upload_over_its_limits_in_words",
        ),
        None,
    ),
}

# Tests that run the project's own .venv through the Makefile: they cannot run in the mutants' copy.
NEEDS_THE_PROJECT_FOLDER = (
    "tests/test_data_loss.py::test_make_demo_keeps_the_matches_recorded_into_the_demo_archive",
)

# The archive's tests that run the solver: each mutant runs in a fresh process, which loads the
# solver's compiled kernels again (25 s to well over a minute on a busy machine) for every mutant of
# the importer that reaches them. What they check (the docs' queries on solved deals, the costs'
# rows, the solver's accuracy) is not the import's behaviour.
NEEDS_THE_SOLVER = tuple(
    f"tests/test_store.py::{test}"
    for test in (
        "test_docs_examples_run_on_the_sample",
        "test_save_costs_stores_every_play_and_every_legal_card",
        "test_save_costs_replaces_only_the_given_matches",
        "test_save_costs_refuses_bad_frames_and_keeps_the_old_rows",
        "test_costs_go_when_a_changed_match_is_imported_again",
        "test_player_accuracy_is_the_solvers_accuracy",
    )
)

# What the tests read besides the code: the docs they check examples of, the shipped data.
ALSO_COPY = ("README.md", "Makefile", "docs", "data", "schemas", "bench")


def _covering_tests(module: str) -> tuple[str, ...]:
    """The mapped tests of ``module``, or of the package it belongs to."""
    # a file's own mapping first, else its package's
    ordered = sorted(TESTS_FOR_MODULE.items(), key=lambda item: item[0] != module)
    for mapped, tests in ordered:
        if module == mapped or module.startswith(mapped.rstrip("/") + "/"):
            return tuple(test for test in tests if (ROOT / test.partition("::")[0]).exists())
    known = "\n  ".join(TESTS_FOR_MODULE)
    raise SystemExit(f"no tests are mapped for {module}; map it in tests/mutate.py. Mapped:\n  {known}")


def _prepare(module: str, tests: tuple[str, ...]) -> Path:
    """The module's own folder: links to the project and the settings mutmut reads."""
    folder = WORK / module.removesuffix(".py").replace("/", ".")
    folder.mkdir(parents=True, exist_ok=True)
    for name in ("manillen_replay", "dashboards", "tests", *ALSO_COPY):
        link = folder / name
        if not link.is_symlink():
            link.symlink_to(ROOT / name)
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    pytest_options = project["tool"]["pytest"]["ini_options"]
    pattern = module if module.endswith(".py") else module.rstrip("/") + "/*"
    left_out, keywords = LEFT_OUT_FOR_MODULE.get(module, ((), None))
    settings = {
        "source_paths": ["manillen_replay", "dashboards"],
        "only_mutate": [pattern],
        # the module's own doctests are examples a reader relies on: they run with its tests
        "pytest_add_cli_args_test_selection": [
            *tests,
            module,
            *(
                arg
                for test in NEEDS_THE_PROJECT_FOLDER + NEEDS_THE_SOLVER + left_out
                for arg in ("--deselect", test)
            ),
            *(("-k", keywords) if keywords else ()),
        ],
        # the solver compiles and runs for seconds a test: a mutation run stays without it
        "pytest_add_cli_args": ["-p", "no:cacheprovider", "-m", "not solver and not browser"],
        "use_git_change_detection": False,
        # a mutant's process is forked from one that has only collected the tests: forked from one
        # that ran them, it inherits the locks of polars' and DuckDB's threads and can hang
        "process_isolation": "forkserver",
        "also_copy": list(ALSO_COPY),
    }
    lines = ["[tool.pytest.ini_options]"]
    lines += [f"{key} = {json.dumps(value)}" for key, value in pytest_options.items()]
    lines += ["", "[tool.mutmut]"]
    lines += [f"{key} = {json.dumps(value)}" for key, value in settings.items()]
    (folder / "pyproject.toml").write_text("\n".join(lines) + "\n")
    return folder


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="make mutate", description=__doc__.splitlines()[0])
    parser.add_argument("module", help="a file or package of manillen_replay/ or dashboards/")
    parser.add_argument("--workers", type=int, default=2, help="mutants run at once (default 2)")
    parser.add_argument(
        "--only",
        action="append",
        default=[],
        metavar="PATTERN",
        help="run only the mutants named so, '*' for any text (repeatable): a long module function "
        "by function, e.g. '*klop*', or again only the mutants a run left alive",
    )
    args = parser.parse_args(argv)
    module = args.module.rstrip("/")
    if not (ROOT / module).exists():
        raise SystemExit(f"{module} does not exist (give a path from the project's folder)")
    folder = _prepare(module, _covering_tests(module))
    mutmut = str(Path(sys.executable).with_name("mutmut"))
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    names = [pattern if "." in pattern else f"*.{pattern}" for pattern in args.only]
    ran = subprocess.run([mutmut, "run", "--max-children", str(args.workers), *names], cwd=folder, env=env)
    if ran.returncode:
        return ran.returncode
    subprocess.run([mutmut, "results"], cwd=folder, env=env)
    return 0


if __name__ == "__main__":
    sys.exit(main())
