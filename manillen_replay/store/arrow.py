"""Arrow building blocks of an import batch: columns built row by row, the Arrow types, and the
dictionaries that card, suit, rank and clause texts come from.

No Arrow array here is made by ``pa.array``: pyarrow imports pandas (a fifth of a second of every
import, even of one match) for any array it builds from Python values or numpy. Rows become
Arrow through polars, numpy arrays by their buffers.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import polars as pl
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
        if not self.rows:  # most batches have no annotations, blocks or rejects
            return pa.table({name: pa.nulls(0, self.types.get(name, pa.null())) for name in self.names})
        width = len(self.rows[0])
        if width != len(self.names):
            raise ValueError(f"rows of {width} values for the {len(self.names)} columns {self.names}")
        frame = pl.DataFrame(
            self.rows,
            schema=list(self.names),
            schema_overrides={name: _POLARS_TYPES[kind] for name, kind in self.types.items()},
            orient="row",
            infer_schema_length=None,
        )
        return frame.to_arrow()


_U8, _I32, _I64, _STR = pa.uint8(), pa.int32(), pa.int64(), pa.string()
_STRINGS = pa.list_(_STR)
_TIME = pa.timestamp("us")
_DATE = pa.date32()
_POLARS_TYPES: dict[Any, Any] = {
    _U8: pl.UInt8,
    _I32: pl.Int32,
    _I64: pl.Int64,
    _STR: pl.String,
    _STRINGS: pl.List(pl.String),
    _TIME: pl.Datetime("us"),
    _DATE: pl.Date,
}
"""The polars type of each Arrow type a batch's row-built columns are given."""

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


def _strings(texts: Sequence[str | None]) -> Any:
    """Texts (``None`` for null) as an Arrow array."""
    return pl.Series(texts, dtype=pl.String).to_arrow()


@functools.cache
def _dictionary(texts: tuple[str, ...]) -> Any:
    """``texts`` as an Arrow array, made once."""
    return _strings(texts)


def _arrow(values: Any, missing: Any = None) -> Any:
    """A numpy array of numbers or flags as an Arrow array over the same values, null where
    ``missing``."""
    values = np.ascontiguousarray(values)
    if values.dtype == np.bool_:
        kind, data = pa.bool_(), np.packbits(values, bitorder="little")
    else:
        kind, data = pa.from_numpy_dtype(values.dtype), values
    nulls = 0 if missing is None else int(np.count_nonzero(missing))
    validity = pa.py_buffer(np.packbits(~missing, bitorder="little")) if nulls else None
    return pa.Array.from_buffers(kind, len(values), [validity, pa.py_buffer(data)], null_count=nulls)


def _table(columns: dict[str, Any]) -> Any:
    """An Arrow table of numpy and Arrow columns."""
    return pa.table({name: _arrow(c) if isinstance(c, np.ndarray) else c for name, c in columns.items()})


def _texts(indices: Any, dictionary: Any, missing: Any = None) -> Any:
    """A text column as an Arrow dictionary: ``dictionary[indices]``, null where ``missing``."""
    return pa.DictionaryArray.from_arrays(_arrow(indices.astype(np.int32), missing), dictionary)
