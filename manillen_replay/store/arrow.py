"""Arrow building blocks of an import batch: columns built row by row, the Arrow types, and the
dictionaries that card, suit, rank and clause texts come from.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pyarrow as pa

from ..cards import CARD_POINTS, CARD_TEXT, Rank, Suit
from ..rules import Clause

_CLAUSES: tuple[Clause, ...] = tuple(Clause)
_CLAUSE_CODE_BY_ID: dict[int, int] = {id(clause): code for code, clause in enumerate(_CLAUSES)}
_RANKS_PER_SUIT = 9


@dataclass
class _Columns:
    """Rows of one table being built for a batch; they become Arrow columns at the end."""

    names: tuple[str, ...]
    types: dict[str, Any] = field(default_factory=dict)
    rows: list[tuple[Any, ...]] = field(default_factory=list)

    def __len__(self) -> int:
        return len(self.rows)

    def add(self, *values: Any) -> None:
        # A tuple per row, turned into columns once per batch: far cheaper than a list per column.
        self.rows.append(values)

    def column(self, name: str) -> list[Any]:
        """The values of one column, in row order."""
        index = self.names.index(name)
        return [row[index] for row in self.rows]

    def table(self) -> Any:
        """The columns as an Arrow table; types not given are inferred from the values."""
        columns: list[Any] = list(zip(*self.rows, strict=True)) or [()] * len(self.names)
        if len(columns) != len(self.names):
            raise ValueError(f"rows of {len(columns)} values for the {len(self.names)} columns {self.names}")
        return pa.table(
            {
                name: _arrow_array(values, self.types.get(name))
                for name, values in zip(self.names, columns, strict=True)
            }
        )


def _arrow_array(values: Sequence[Any], kind: Any) -> Any:
    """An Arrow array of the values; small ints go through ``bytes``, which converts them a
    hundred times faster than pyarrow does one by one."""
    if kind == _U8:
        return pa.Array.from_buffers(_U8, len(values), [None, pa.py_buffer(bytes(values))])
    return pa.array(values, type=kind)


_U8, _I32, _I64, _STR = pa.uint8(), pa.int32(), pa.int64(), pa.string()
_STRINGS = pa.list_(_STR)
_TIME = pa.timestamp("us")

# Texts the per-card columns take, as Arrow dictionaries: a card column is then its card
# numbers (indices into these), which costs neither Python nor SQL a look-up per card.
_CARD_TEXTS = tuple(CARD_TEXT)
_SUIT_TEXTS = tuple(suit.name for suit in Suit)
_RANK_TEXTS = tuple(rank.text for rank in Rank)
_CLAUSE_TEXTS = tuple(clause.value for clause in _CLAUSES)
_POINTS_OF_CARD = np.array(CARD_POINTS, np.int32)
_NO_SEAT = 255
"""Stands for "no one" among seats kept as bytes (a trick's winner before it is complete)."""
_NO_SUIT = 255
"""Stands for "no trump" among suits kept as bytes."""


def _small(values: list[int]) -> Any:
    """Small non-negative ints (cards, seats, counts) as a numpy array, by way of ``bytes``."""
    return np.frombuffer(bytes(values), np.uint8)


def _wide(values: list[int]) -> Any:
    """Ints of up to 64 bits (card masks) as a numpy array."""
    return np.fromiter(values, np.int64, len(values))


def _starts(counts: Any) -> Any:
    """Where each group's rows begin among the flat rows: 0, then the running total before it."""
    starts = np.zeros(len(counts), np.int64)
    np.cumsum(counts[:-1], out=starts[1:])
    return starts


@functools.cache
def _dictionary(texts: tuple[str, ...]) -> Any:
    """``texts`` as an Arrow array, made on first use: ``pa.array`` imports pandas, which
    importing the store must not (``manillen report --help``, the dashboard's first page)."""
    return pa.array(texts, _STR)


def _texts(indices: Any, dictionary: Any, missing: Any = None) -> Any:
    """A text column as an Arrow dictionary: ``dictionary[indices]``, null where ``missing``."""
    mask = None if missing is None or not missing.any() else missing
    return pa.DictionaryArray.from_arrays(pa.array(indices.astype(np.int32), mask=mask), dictionary)
