"""A club's rules saved in the archive by name (the ``club_rules`` table).

A rule set is kept as a record's match writes its rules: the ``variant``, and the ``rules``
object in JSON (:meth:`~manillen_replay.rules.Rules.to_options`), so nothing here knows the
options one by one and a new option needs no new column.
"""

from __future__ import annotations

import json

from ..club_rules import ClubRules, check_name, rules_from_saved
from ..errors import InvalidOptionError, ManillenError
from ..rules import Rules, unused_options
from .connection import StoreBase, _first


class ClubRulesMixin(StoreBase):
    """Saving, listing, reading and deleting a club's rules."""

    def save_club_rules(self, name: str, rules: Rules, *, replace: bool = False) -> ClubRules:
        """Keep ``rules`` under ``name``.

        :param replace: save over a rule set of that name (else it is refused).
        :returns: what was saved, with the name trimmed and the time it was saved.
        :raises InvalidOptionError: for a name :func:`~manillen_replay.club_rules.check_name` refuses,
            or a café rule the variant has no room for (:func:`~manillen_replay.rules.unused_options`).
        :raises ManillenError: when a rule set has that name already (in any case) and
            ``replace`` is not given.
        """
        self._check_writable()
        name = check_name(name)
        unused = unused_options(rules)
        if unused:  # saved, it was dropped without a word when the Record page started a match
            raise InvalidOptionError(unused[0])
        taken = _first(
            self._con.execute("SELECT name FROM club_rules WHERE lower(name) = lower(?)", [name]).fetchall()
        )
        if taken is not None and not replace:
            raise ManillenError(
                f"the archive has club rules {taken[0]!r} already: save under another name, "
                "or replace them (--replace)"
            )
        with self._transaction(f"save the club rules {name!r}"):
            if taken is not None:
                self._con.execute("DELETE FROM club_rules WHERE name = ?", [taken[0]])
            self._con.execute(
                "INSERT INTO club_rules VALUES (?, ?, ?, current_localtimestamp())",
                [name, rules.variant, json.dumps(rules.to_options(), ensure_ascii=False)],
            )
        saved = self.club_rules(name)
        assert saved is not None
        return saved

    def club_rules(self, name: str) -> ClubRules | None:
        """The rule set saved under ``name`` (any case), ``None`` when there is none.

        :raises InvalidOptionError: for saved options this program does not know (a newer
            program saved them).
        """
        row = _first(
            self._con.execute(
                "SELECT name, variant, rules, saved_at FROM club_rules WHERE lower(name) = lower(?)",
                [name.strip()],
            ).fetchall()
        )
        if row is None:
            return None
        return ClubRules(str(row[0]), rules_from_saved(str(row[1]), str(row[2])), row[3])

    def club_rule_sets(self) -> list[ClubRules]:
        """Every saved rule set, by name.

        :raises InvalidOptionError: for saved options this program does not know.
        """
        rows = self._con.execute(
            "SELECT name, variant, rules, saved_at FROM club_rules ORDER BY lower(name)"
        ).fetchall()
        return [ClubRules(str(n), rules_from_saved(str(v), str(r)), at) for n, v, r, at in rows]

    def delete_club_rules(self, name: str) -> ClubRules | None:
        """Forget the rule set saved under ``name`` (any case): the one forgotten, with its name
        as saved, or ``None`` when there was none.

        The matches played under it keep their rules: each record holds its own.
        """
        self._check_writable()
        saved = self.club_rules(name)
        if saved is None:
            return None
        self._con.execute("DELETE FROM club_rules WHERE name = ?", [saved.name])
        return saved
