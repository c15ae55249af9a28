"""What a replay finds: matches, deals and tricks as played, illegal plays and irregularities."""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from enum import Enum
from typing import Any, Protocol

from ..cards import Card, CardSet, Suit
from ..rules import Clause, Contract, DealScore, Rules, ViolationKind, mask_points


class DealKind(Enum):
    """How much of a deal the record holds."""

    PLAYED = "played"
    """Every trick is recorded: replayed and scored from the cards."""
    ABANDONED = "abandoned"
    """Stopped before the last trick (hands given): replayed, not scored."""
    SCORESHEET = "scoresheet"
    """Only the written score: counted, nothing to replay."""
    REDEAL = "redeal"
    """Thrown in with a redeal call: the same dealer deals again."""


class IrregularityKind(Enum):
    """Things a valid record may contain that players want to hear about."""

    SCORE_MISMATCH = "score_mismatch"
    """The scoresheet says something else than the cards."""
    DEALER_OUT_OF_ROTATION = "dealer_out_of_rotation"
    """The deal was dealt by someone other than the previous dealer's left."""
    PLAYED_ON_AFTER_MATCH_WON = "played_on_after_match_won"
    """Deals were played after the match was decided."""


@dataclass(frozen=True, slots=True)
class Violation:
    """A play that broke the rules of play, named by the rule it broke."""

    trick: int
    """The trick, counted from 1."""
    play: int
    """The position in the trick, counted from 1."""
    seat: int
    """Who played it."""
    card: Card
    """The card played."""
    kind: ViolationKind
    """The rule broken."""
    legal: CardSet
    """What the seat could legally have played."""


@dataclass(frozen=True, slots=True)
class Irregularity:
    """A scoring or procedure problem in a valid record."""

    kind: IrregularityKind
    """What kind of problem."""
    deal: int
    """The deal, counted from 1."""
    message: str
    """The problem in words."""


@dataclass(slots=True)
class TrickResult:
    """One trick as played."""

    number: int
    """Counted from 1."""
    leader: int
    """The seat that led."""
    seats: list[int]
    """Who played each card, in order."""
    cards: list[Card]
    """The cards in the order played."""
    legal: list[int]
    """For each play, the mask of cards the seat could legally play."""
    clauses: list[Clause]
    """For each play, the rule clause that decided the legal cards."""
    winning: list[int]
    """For each play, the seat winning the trick once that card is down."""
    winner: int | None = None
    """Who took the trick (``None`` while incomplete)."""
    points: int = 0
    """The card points in it."""


class BatchPlays(Protocol):
    """The plays of many deals worked out together, kept as flat arrays (the bulk path's compiled
    pass, :mod:`manillen_replay.bulk`): a deal's tricks are built from them only when asked for.

    The plays of deal ``row`` are ``first_play[row]`` on, four a trick, ``trick_counts[row]``
    tricks; ``seats`` to ``held`` have one value a play (``clauses`` as indices into
    :data:`~manillen_replay.rules.CLAUSES`, ``held`` the seat's hand before the play),
    ``trick_winners`` one a trick, ``trumps`` one a deal (the trump suit, or
    :data:`~manillen_replay.rules.NO_TRUMP`).
    """

    first_play: Any
    trick_counts: Any
    seats: Any
    cards: Any
    legal: Any
    clauses: Any
    winning: Any
    held: Any
    trick_winners: Any
    trumps: Any

    def tricks_of(self, row: int) -> list[TrickResult]:
        """Deal ``row``'s tricks, as the engine's :class:`TrickResult`."""
        ...


def dummy_name(dealer_name: str, lang: str = "en") -> str:
    """The name of the dummy's seat in ``three_dummy``: the dealer's, who plays it, in English
    or Dutch (``nl``).

    >>> dummy_name("Anna"), dummy_name("Anna", "nl")
    ("Anna's dummy", 'blinde van Anna')
    """
    return f"blinde van {dealer_name}" if lang == "nl" else f"{dealer_name}'s dummy"


@dataclass(slots=True, eq=False)
class DealResult:
    """One deal as replayed and scored.

    Its :attr:`tricks` may still be in a batch's arrays (:class:`BatchPlays`): they are built on
    first use, so a command that reads only the scores and the problems never builds them.
    """

    number: int
    """Counted from 1."""
    dealer: int
    """The dealer's seat."""
    kind: DealKind
    """Played, abandoned, scoresheet-only or redealt."""
    contract: Contract | None = None
    """Trump, muil or blind muil; ``None`` when the record does not say."""
    trump: Suit | None = None
    """The trump suit, ``None`` for muil or when not recorded."""
    chooser: int | None = None
    """Who chose trump: the dealer, or the partner after en face."""
    en_face: bool = False
    """Whether the dealer passed the choice (cafe rule)."""
    knocks: int = 0
    """Number of knocks: 1 for klop, 2 for klop and tegenklop, more with eternal knocking."""
    carried: bool = False
    """Whether a 30-30 before it made this deal count double."""
    multiplier: int | None = None
    """The deal's factor after the cap; ``None`` when no contract is recorded."""
    hands: tuple[int, ...] | None = None
    """The hands as dealt (masks), when known."""
    hands_inferred: bool = False
    """The record gives no hands: ``hands`` are the cards each seat played, inferred from the
    tricks (the first card of a line is its leader's), so a line typed out of order moves cards
    between hands (:mod:`manillen_replay.engine.inferred`)."""
    table: tuple[tuple[tuple[int, ...], ...], ...] = ()
    """Each seat's table piles (bottom to top) in the variants with open table cards."""
    discards: int = 0
    """The laid-aside cards (a mask), which count for the trump maker's opponents."""
    table_moves: list[tuple[int, int, int]] = field(default_factory=list)
    """``(trick, play, seat)``: before that play the seat moved its third pile's top card to its
    emptied fourth place (both counted from 1)."""
    names: list[str] = field(default_factory=list)
    """Who sat in each seat this deal (a club evening rotates partners; the dummy included)."""
    points: tuple[int, int] | None = None
    """Card points per team for a complete deal."""
    score: DealScore | None = None
    """What the deal scored from the cards (or the scoresheet for a scoresheet line)."""
    tie: bool = False
    """A 30-30: nobody scores, the next deal counts double."""
    recorded: DealScore | None = None
    """The score on the scoresheet."""
    has_recorded: bool = False
    """Whether the record gives a scoresheet score (``recorded`` None then means a 30-30)."""
    score_mismatch: bool = False
    """Whether the scoresheet differs from the cards."""
    penalties: list[tuple[int, int, str]] = field(default_factory=list)
    """``(team, points, reason)`` of each fault."""
    match_score: tuple[int, ...] = (0, 0)
    """The match score after this deal."""
    counted: bool = True
    """Whether the deal counted for the match result (not after the match was decided)."""
    violations: list[Violation] = field(default_factory=list)
    """Illegal plays."""
    irregularities: list[Irregularity] = field(default_factory=list)
    """Scoring and procedure problems."""
    _tricks: list[TrickResult] = field(default_factory=list, repr=False)
    _in_batch: tuple[BatchPlays, int] | None = field(default=None, repr=False)

    @property
    def tricks(self) -> list[TrickResult]:
        """The tricks as played."""
        if self._in_batch is not None:
            plays, row = self._in_batch
            self._tricks = plays.tricks_of(row)
            self._in_batch = None
        return self._tricks

    @tricks.setter
    def tricks(self, tricks: list[TrickResult]) -> None:
        self._tricks, self._in_batch = tricks, None

    @property
    def trick_count(self) -> int:
        """How many tricks were played (complete or not), without building them."""
        if self._in_batch is not None:
            plays, row = self._in_batch
            return int(plays.trick_counts[row])
        return len(self._tricks)

    @property
    def batch_plays(self) -> tuple[BatchPlays, int] | None:
        """The batch and the row its plays are in, while its tricks are not built yet."""
        return self._in_batch

    def taken_before_play(self, rules: Rules) -> tuple[int, int]:
        """The card points each side holds before the first trick: the laid-aside cards' (the
        three-player games), which count for the trump maker's opponents."""
        taken = [0, 0]
        if self.discards:
            chooser = self.dealer if self.chooser is None else self.chooser
            taken[1 - rules.shape.team_of(chooser, self.dealer)] = mask_points(self.discards)
        return (taken[0], taken[1])

    def take_batch_plays(self, plays: BatchPlays, row: int) -> None:
        """The deal's tricks are row ``row`` of ``plays``: built when first asked for."""
        self._tricks, self._in_batch = [], (plays, row)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, DealResult):
            return NotImplemented
        return self.tricks == other.tricks and all(
            getattr(self, name) == getattr(other, name) for name in _COMPARED
        )

    def __getstate__(self) -> dict[str, Any]:
        self.tricks  # noqa: B018 - built before pickling: a batch is no part of a saved result
        return {name: getattr(self, name) for name in _FIELDS}

    def __setstate__(self, state: dict[str, Any]) -> None:
        for name in _FIELDS:
            object.__setattr__(self, name, state[name])


_FIELDS = tuple(f.name for f in fields(DealResult))
_COMPARED = tuple(name for name in _FIELDS if name not in ("_tricks", "_in_batch"))


@dataclass(frozen=True, slots=True)
class BlockResult:
    """One block of a club evening: twelve deals with the same partners."""

    number: int
    """The block, counted from 1."""
    seats: list[str]
    """The seating of the block (partners opposite each other)."""
    score: tuple[int, ...]
    """Each team's score in the block."""
    winner: int | None
    """The team that won the block, ``None`` for a tie."""
    winners: list[str]
    """The two players who won it."""


@dataclass(slots=True)
class MatchResult:
    """A whole match as replayed."""

    id: str
    """The match id, given or derived from the content."""
    source: str | None
    """``file:line`` or ``file`` it came from."""
    seats: list[str]
    """Player names by seat."""
    rules: Rules
    """The house rules in force."""
    deals: list[DealResult] = field(default_factory=list)
    """Every deal."""
    score: tuple[int, ...] = (0, 0)
    """The match score after the last deal: per team, or per person in the three-player games."""
    final_score: tuple[int, ...] = (0, 0)
    """The score when the match was decided (or after the last deal if it never was)."""
    winner: int | None = None
    """The winning team, ``None`` for an unfinished or drawn match and for a club evening."""
    finished: bool = False
    """Whether the match reached its end."""
    blocks: list[BlockResult] = field(default_factory=list)
    """A club evening's blocks, in order."""
    blocks_won: dict[str, int] = field(default_factory=dict)
    """A club evening's result: blocks won by each player (3-1-1-1 or 2-2-2-0)."""

    planned_blocks: int = 0
    """A club evening's number of blocks (``match.blocks``); 0 for any other match."""

    @property
    def evening(self) -> bool:
        """Whether this is a club evening (blocks, partners rotating): no team wins it, so it has
        no ``winner``, and ``score`` is its last block's; ``blocks_won`` is its result."""
        return self.planned_blocks > 0

    @property
    def violations(self) -> list[Violation]:
        """Every illegal play of the match."""
        return [v for d in self.deals for v in d.violations]

    @property
    def irregularities(self) -> list[Irregularity]:
        """Every scoring and procedure problem of the match."""
        return [i for d in self.deals for i in d.irregularities]
