"""Coaches' comments on a deal, a trick or one play."""

from __future__ import annotations

from collections.abc import Sequence

from ..errors import ManillenError
from .connection import StoreBase, _first
from .errors import AnnotationChangedError, NoSuchAnnotationError


class AnnotationsMixin(StoreBase):
    """Adding, changing and removing annotations."""

    def add_annotation(
        self,
        match_id: str,
        deal: int,
        trick: int | None,
        play: int | None,
        author: str,
        text: str,
        tags: Sequence[str] | None = None,
        line: Sequence[str] | None = None,
    ) -> int:
        """Comment on a deal, a trick or one play; returns the new ``annotation_id``.

        :param deal: the deal, counted from 1.
        :param trick: the trick (from 1), or ``None`` for the whole deal.
        :param play: the position in the trick (from 1), or ``None``; needs ``trick``.
        :param line: a variation from that play on (cards as the record writes them, the first
            in place of the card played); needs ``play``. The caller checks it against the rules
            (the record's reader does so again on export and import).
        :raises ManillenError: when the match, deal, trick or play does not exist.
        """
        self._check_writable()
        self._check_place(match_id, deal, trick, play)
        if not author.strip() or not text.strip():
            raise ManillenError("an annotation needs an author and a text")
        if line is not None and (play is None or not line):
            raise ManillenError("a variation starts at a play, with at least one card")
        row = _first(
            self._con.execute(
                """INSERT INTO annotations
               SELECT coalesce(max(annotation_id), 0) + 1, ?, ?, ?, ?, ?, ?, ?,
                      current_localtimestamp(), current_localtimestamp(), ?
               FROM annotations RETURNING annotation_id""",
                [match_id, deal, trick, play, author, text, _list(tags), _list(line)],
            ).fetchall()
        )
        assert row is not None
        return int(row[0])

    def update_annotation(
        self,
        annotation_id: int,
        text: str,
        tags: Sequence[str] | None = None,
        *,
        was: tuple[str, Sequence[str] | None] | None = None,
    ) -> None:
        """Change an annotation's text and tags.

        :param was: the text and tags the edit began from; when given, the change is made only
            if the annotation still says that, so that an edit never overwrites, unseen, what
            another tab or coach saved meanwhile.
        :raises NoSuchAnnotationError: when there is no such annotation (deleted meanwhile).
        :raises AnnotationChangedError: when it no longer says ``was`` (nothing is changed).
        """
        self._check_writable()
        condition, values = "", [text, _list(tags), annotation_id]
        if was is not None:
            condition = " AND text = ? AND tags IS NOT DISTINCT FROM ?::VARCHAR[]"
            values += [was[0], _list(was[1])]
        row = _first(
            self._con.execute(
                "UPDATE annotations SET text = ?, tags = ?, updated_at = current_localtimestamp() "
                f"WHERE annotation_id = ?{condition} RETURNING annotation_id",
                values,
            ).fetchall()
        )
        if row is not None:
            return
        now = _first(
            self._con.execute(
                "SELECT text, tags FROM annotations WHERE annotation_id = ?", [annotation_id]
            ).fetchall()
        )
        if now is None:
            raise NoSuchAnnotationError(f"no annotation {annotation_id}")
        text_now, tags_now = now
        raise AnnotationChangedError(
            f"annotation {annotation_id} was changed meanwhile",
            str(text_now),
            None if tags_now is None else list(tags_now),
        )

    def delete_annotation(self, annotation_id: int) -> None:
        """Remove an annotation.

        :raises NoSuchAnnotationError: when there is no such annotation (deleted meanwhile).
        """
        self._check_writable()
        row = _first(
            self._con.execute(
                "DELETE FROM annotations WHERE annotation_id = ? RETURNING annotation_id", [annotation_id]
            ).fetchall()
        )
        if row is None:
            raise NoSuchAnnotationError(f"no annotation {annotation_id}")

    def _check_place(self, mid: str, deal: int, trick: int | None, play: int | None) -> None:
        row = _first(
            self._con.execute(
                """SELECT (SELECT count(*) FROM matches WHERE match_id = $1),
                      (SELECT tricks FROM deals WHERE match_id = $1 AND deal = $2),
                      (SELECT cards FROM tricks WHERE match_id = $1 AND deal = $2 AND trick = $3)""",
                [mid, deal, trick],
            ).fetchall()
        )
        assert row is not None
        matches, tricks, cards = row
        if not matches:
            raise ManillenError(f"no match {mid!r} in the archive")
        if tricks is None:
            raise ManillenError(f"match {mid!r} has no deal {deal}")
        if play is not None and trick is None:
            raise ManillenError("an annotation on a play needs its trick")
        if trick is not None and cards is None:
            raise ManillenError(f"deal {deal} of {mid!r} has no trick {trick}")
        if play is not None and not 1 <= play <= cards:
            raise ManillenError(f"trick {trick} of deal {deal} has no play {play}")


def _list(values: Sequence[str] | None) -> list[str] | None:
    return None if values is None else list(values)
