"""The dashboard's background review: the solver's costs of every match, made while the dashboard serves.

One thread per dashboard process (shared by every browser session, like the archive in
:mod:`dashboards.data`) reviews matches at the solver's depth, one deal at a time (two at once for
a match someone waits for, :data:`DEALS_AT_ONCE`), the same work as ``manillen analyze --depth
solver``; only that thread writes to the archive:

- a match saved on the Record page or uploaded on the Archive page goes to the front of the queue
  (:func:`request`): the deal just recorded is reviewed within seconds of its save; the heuristic
  findings are there at once, the solver's replace them when ready;
- meanwhile the rest of the archive is filled in, the newest matches first;
- the match is read, solved outside any lock (``analyse_deal`` deal by deal), and the archive is
  opened for writing only to store its results (:func:`~manillen_replay.store.review_queue.save_review`),
  briefly, and not at all when the match changed meanwhile (its new version is reviewed in turn);
- each deal's analysis is kept in memory, so that a match recorded deal by deal is solved one
  new deal at a time, and a review interrupted by a more urgent one loses nothing.

Before its first review the thread loads the compiled solver (:func:`warm_solver`), so the first
review is as fast as the next ones; ``dashboards/serve.py`` starts it while the server starts.
The pages ask :func:`running` for the reviewer and :meth:`Reviewer.status` for a match's state.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgspec

from dashboards import data
from manillen_replay.analysis.costs import can_solve
from manillen_replay.analysis.deal_analysis import DealAnalysis, analyse_deal, merge_deals
from manillen_replay.analysis.effort import expected_seconds
from manillen_replay.engine import DealResult, MatchResult, replay
from manillen_replay.errors import ManillenError
from manillen_replay.record import Record, loads
from manillen_replay.solver.search import SolverError
from manillen_replay.store import ArchiveError, ArchiveLockedError
from manillen_replay.store.review_queue import matches_to_review, record_to_review, save_review, solver_review

LOG = logging.getLogger("manillen.dashboard.review")

SAMPLES = 50
"""Layouts of the hidden cards per play and per call: ``manillen analyze --depth solver``'s default."""
RESCAN_SECONDS = 30.0
"""With nothing left to review, how often the archive is looked at again for new matches (an
import by ``manillen import`` while the dashboard runs)."""
LOCKED_PAUSE = 2.0
"""Seconds before trying the archive again while another program holds it."""
DEALS_AT_ONCE = 2
"""Deals of a match someone waits for that are solved at the same time, each part of a deal on
one thread (the last deal on every core): where one deal's threads wait for their slowest
position, or run Python between rounds, the other's use the cores. A deal's results do not
depend on what runs beside it. Measured on the 16-deal demo match (two cores, the bench under
real-time scheduling beside other work): 6.3 to 6.9 s of solving against 6.5 to 7.3 s deal after
deal, each part on both cores."""
APART_SECONDS = 5.0
"""A backlog deal expected to take longer than this (``analysis.effort``: a two-player deal with
open table cards, 98 s) is solved on a thread of its own, and a match someone asks for meanwhile
is reviewed beside it rather than after it: an organiser's sweep saved a deal while the backlog
solved such a deal, and waited 247 s for a review the docs promise in seconds. The deal goes on
(:attr:`Reviewer._apart`) and its analysis is kept when it ends. Only four-player matches are
reviewed beside it: the variants' search shares one table between all its callers."""
KEPT_DEALS = 2000
"""Deal analyses kept in memory (the latest used), for matches recorded or corrected deal by deal."""
WARM_RECORD = Path(__file__).resolve().parent.parent / "data" / "samples" / "seed-trick.json"
"""The deal solved once at the start to load the compiled solver."""


@dataclass(frozen=True)
class ReviewStatus:
    """Where a match stands in the background review."""

    state: str
    """``reviewing``, ``queued``, ``ready``, ``waiting`` (for the archive, held by another
    program), ``failed`` or ``unknown`` (not seen by the reviewer: the archive says); where no
    reviewer runs, the page says ``none`` (no solver review stored) or ``outdated`` (one made by
    an earlier revision of the analysis)."""
    done: int = 0
    """Deals reviewed so far (``reviewing``)."""
    total: int = 0
    """Deals of the match (``reviewing``)."""
    ahead: int = 0
    """Matches to be reviewed before it (``queued``)."""
    message: str = ""
    """Why it failed (``failed``)."""
    seconds_left: float | None = None
    """The time the review of the match still needs, roughly (``reviewing``): the deals' measured
    cost in their variant until one is done, then the pace so far; ``None`` when there is no
    telling (the one deal under way took longer than expected)."""


@dataclass(frozen=True)
class Overview:
    """The review as a whole, for the Archive page."""

    current: str | None
    """The match being reviewed."""
    done: int
    total: int
    queued: int
    """Matches waiting to be reviewed (known to the reviewer so far)."""
    reviewed: int
    """Matches this dashboard has reviewed since it started."""
    warming: bool
    """Still loading the compiled solver."""
    looking: bool = False
    """Not yet through the archive for the matches to review."""

    @property
    def busy(self) -> bool:
        """Whether anything is under way or waiting."""
        return self.warming or self.looking or self.current is not None or self.queued > 0


def deal_key(record: Record, number: int) -> bytes:
    """What a deal's analysis depends on: the match's header (rules, players) and the deal itself."""
    return msgspec.json.encode(record.match) + b"\n" + msgspec.json.encode(record.deals[number - 1])


def warm_solver(path: Path = WARM_RECORD) -> float:
    """Solve one deal with few layouts, so that the compiled solver is loaded (from numba's cache)
    before the first real review; its seconds."""
    start = time.perf_counter()
    record = loads(path.read_bytes(), source=str(path))
    result = replay(record, source=str(path))
    for deal in result.deals:
        if can_solve(deal, result.rules):
            analyse_deal(result, record, deal, samples=4)
            break
    return time.perf_counter() - start


def _solved_here(solve: Callable[..., DealAnalysis], *args: Any, **options: Any) -> Future[DealAnalysis]:
    """``solve`` run on the calling thread, its result (or error) in a finished future: what
    ``ThreadPoolExecutor.submit`` gives once the work is done."""
    done: Future[DealAnalysis] = Future()
    try:
        done.set_result(solve(*args, **options))
    except Exception as error:
        done.set_exception(error)
    return done


def _solved_apart(solve: Callable[..., DealAnalysis], *args: Any, **options: Any) -> Future[DealAnalysis]:
    """``solve`` on a daemon thread of its own, its result (or error) in the future: the server
    stops without waiting for a long deal, as it does for the review thread's own."""
    done: Future[DealAnalysis] = Future()

    def run() -> None:
        try:
            done.set_result(solve(*args, **options))
        except Exception as error:
            done.set_exception(error)

    threading.Thread(target=run, name="manillen-review-apart", daemon=True).start()
    return done


class _Preempted(Exception):
    """A more urgent match came in while this one was being solved."""


class _ArchiveUnavailable(Exception):
    """The archive itself could not be opened (not one match): a newer schema written by a newer
    ``manillen``, a file that is no archive. Every match would fail the same way: each logged its
    traceback, thousands of lines."""


@contextmanager
def _opened(archive_side: Any) -> Iterator[Any]:
    """The store of ``archive_side`` (an archive's ``reading()`` or ``writing()``), an archive that
    cannot be opened raised as :class:`_ArchiveUnavailable`; a lock is left to the caller, and what
    the block itself raises (a save that failed) stays that match's failure."""
    with ExitStack() as stack:
        try:
            store = stack.enter_context(archive_side)
        except ArchiveLockedError:
            raise
        except ArchiveError as error:
            raise _ArchiveUnavailable(str(error)) from error
        yield store


class Reviewer:
    """The background review of one archive: one thread, one match at a time.

    :param path: the archive file.
    :param samples: layouts per play and per call (as ``manillen analyze --samples``).
    :param warm: load the compiled solver before the first review.
    :param backlog: also review the matches nobody asked for, newest first (off in tests that
        want only the matches they ask for).
    """

    def __init__(
        self, path: Path, *, samples: int = SAMPLES, warm: bool = True, backlog: bool = True
    ) -> None:
        self.path = Path(path).resolve()
        self.samples = samples
        self.warm = warm
        self.backlog = backlog
        self._lock = threading.Condition()
        self._urgent: deque[str] = deque()
        self._queued: list[str] = []
        self._scanned = False
        self._current: str | None = None
        self._done = 0
        self._total = 0
        self._began = 0.0
        self._deal_seconds = 0.0
        self._preempt = False
        self._waiting = False
        self._warming = warm
        self._ready: set[str] = set()
        self._failed: dict[str, str] = {}
        self._unavailable: str | None = None
        """Why the archive could not be opened for the last match tried (said once in the log)."""
        self._kept: OrderedDict[bytes, DealAnalysis] = OrderedDict()
        self._apart: dict[bytes, Future[DealAnalysis]] = {}
        """Long backlog deals solved on threads of their own (:data:`APART_SECONDS`), by deal key,
        until their analysis is kept (this thread only)."""
        self._stopping = False
        self.seconds: dict[str, float] = {}
        """Each reviewed match's seconds from its request (or its start) to its results stored."""
        self._asked: dict[str, float] = {}
        self._thread = threading.Thread(target=self._run, name="manillen-review", daemon=True)

    # ----------------------------------------------------------------- the pages' side

    def start(self) -> Reviewer:
        """Start the thread (once)."""
        if not self._thread.is_alive() and not self._stopping:
            self._thread.start()
        return self

    def stop(self, timeout: float = 30.0) -> None:
        """Stop after the deal under way (for tests), waiting up to ``timeout`` seconds."""
        with self._lock:
            self._stopping = True
            self._lock.notify_all()
        if self._thread.is_alive():
            self._thread.join(timeout)

    def request(self, match_ids: Iterable[str]) -> None:
        """Review these matches next, before everything else, the first given first (a save on
        the Record page, an upload); a match under review is started again on its new record."""
        ids = list(dict.fromkeys(match_ids))
        if not ids:
            return
        now = time.monotonic()
        with self._lock:
            for match_id in reversed(ids):
                if match_id in self._urgent:
                    self._urgent.remove(match_id)
                if match_id in self._queued:
                    self._queued.remove(match_id)
                self._urgent.appendleft(match_id)
                self._ready.discard(match_id)
                self._failed.pop(match_id, None)
                self._asked[match_id] = now
            if self._current is not None:
                self._preempt = True
            self._lock.notify_all()

    def status(self, match_id: str) -> ReviewStatus:
        """Where ``match_id`` stands; ``unknown`` when the reviewer has not seen it (the archive's
        ``analysis_depth`` and ``analysis_revision`` then say whether the solver reviewed it)."""
        with self._lock:
            if match_id == self._current:
                if self._waiting:
                    return ReviewStatus("waiting", self._done, self._total)
                return ReviewStatus("reviewing", self._done, self._total, seconds_left=self._seconds_left())
            busy = 1 if self._current is not None else 0
            if match_id in self._urgent:
                return ReviewStatus("queued", ahead=busy + list(self._urgent).index(match_id))
            if match_id in self._failed:
                return ReviewStatus("failed", message=self._failed[match_id])
            if match_id in self._ready:
                return ReviewStatus("ready")
            if match_id in self._queued:
                return ReviewStatus("queued", ahead=busy + len(self._urgent) + self._queued.index(match_id))
            return ReviewStatus("unknown")

    def _seconds_left(self) -> float | None:
        """What the match under review still needs (under the lock): see :attr:`ReviewStatus.seconds_left`."""
        spent = time.monotonic() - self._began
        if self._done:
            each = spent / self._done
        elif self._deal_seconds:
            each = max(self._deal_seconds, spent)
        else:
            return None
        left = each * self._total - spent
        return left if left >= 1 else None

    def overview(self) -> Overview:
        """The review as a whole: the match under way, how many wait, how many are done."""
        with self._lock:
            return Overview(
                self._current,
                self._done,
                self._total,
                len(self._urgent) + len(self._queued),
                len(self._ready),
                self._warming,
                self.backlog and not self._scanned,
            )

    def idle(self) -> bool:
        """Whether nothing is being reviewed or waiting (after the archive was looked at once)."""
        with self._lock:
            return self._current is None and not self._urgent and not self._queued and not self._warming

    # ----------------------------------------------------------------- the thread

    def _run(self) -> None:
        if self.warm:
            try:
                LOG.info("compiled solver loaded in %.1f s", warm_solver())
            except Exception:  # the first review then loads it itself
                LOG.warning("loading the compiled solver failed", exc_info=True)
        with self._lock:
            self._warming = False
        while True:
            match_id = self._next()
            if match_id is None:
                return
            try:
                self._review(match_id)
            except _Preempted:
                with self._lock:
                    if match_id not in self._urgent:
                        self._urgent.append(match_id)  # right after what interrupted it
            except _ArchiveUnavailable as error:
                # said once, not once a match; the scans wait quietly until it opens again
                if str(error) != self._unavailable:
                    LOG.warning("the archive cannot be reviewed now: %s", error)
                with self._lock:
                    self._unavailable = str(error)
                    if match_id in self._asked and match_id not in self._urgent:
                        self._urgent.appendleft(match_id)
                    self._queued, self._scanned = [], False
                self._pause(LOCKED_PAUSE)
            except Exception as error:  # one match the review cannot take must not stop the others
                if self._stopping:
                    return  # the server is stopping: its solver's threads are gone, no failure
                LOG.warning("reviewing %s failed", match_id, exc_info=True)
                with self._lock:
                    self._failed[match_id] = f"{type(error).__name__}: {error}"
            finally:
                with self._lock:
                    self._current = None
                    self._waiting = False
                    self._done = self._total = 0

    def _next(self) -> str | None:
        """The next match to review (``None`` once stopping), waiting while there is none."""
        while True:
            with self._lock:
                if self._stopping:
                    return None
                if self._urgent:
                    match_id = self._urgent.popleft()
                elif self._queued:
                    match_id = self._queued.pop(0)
                elif self.backlog and not self._scanned:
                    match_id = None
                else:
                    self._lock.wait(RESCAN_SECONDS)
                    self._scanned = False
                    continue
                if match_id is not None:
                    self._current = match_id
                    self._preempt = False
                    self._done = self._total = 0
                    return match_id
            self._scan()

    def _scan(self) -> None:
        """Queue the archive's matches the solver has not reviewed, the newest first."""
        try:
            current = data.archive_at(self.path)
            if not current.exists():
                found: list[str] = []
            else:
                with current.reading() as store:
                    found = matches_to_review(store)
        except ManillenError:  # held by another program, or not an archive (yet)
            self._pause(LOCKED_PAUSE)
            return
        except Exception:  # the thread must outlive whatever the archive answers
            LOG.warning("looking for matches to review failed", exc_info=True)
            self._pause(RESCAN_SECONDS)
            return
        with self._lock:
            self._unavailable = None  # it opened: a later failure is said again
            skipped = set(self._urgent) | set(self._failed)
            self._queued = [match_id for match_id in found if match_id not in skipped]
            # reviewed here once, wanting a review again now (an earlier version put back by
            # `manillen import --restore`): no longer said to be ready
            self._ready.difference_update(self._queued)
            self._scanned = True

    def _pause(self, seconds: float) -> None:
        with self._lock:
            if not self._stopping:
                self._lock.wait(seconds)

    def _check(self) -> None:
        with self._lock:
            if self._stopping or self._preempt:
                self._preempt = False
                raise _Preempted

    def _review(self, match_id: str) -> None:
        """Solve one match deal by deal and store what the solver found."""
        current = data.archive_at(self.path)
        urgent = match_id in self._asked
        started = self._asked.get(match_id, time.monotonic())
        while True:
            try:
                with _opened(current.reading()) as store:
                    text = record_to_review(store, match_id)
                    reviewed = solver_review(store, match_id) == "current"
                break
            except ArchiveLockedError:
                self._set_waiting(True)
                self._pause(LOCKED_PAUSE)
                self._check()
        self._set_waiting(False)
        if text is None:
            return  # no longer in the archive
        if reviewed:
            with self._lock:
                self._ready.add(match_id)
            return  # reviewed meanwhile (manillen analyze --depth solver)
        record = loads(text, source=f"archive match {match_id}")
        result = replay(record, source=f"archive match {match_id}")
        with self._lock:
            self._total = len(result.deals)
            self._began = time.monotonic()
            # measured at the default layouts only: at others the pace of the first deal tells
            self._deal_seconds = expected_seconds(result.rules.variant) if self.samples == SAMPLES else 0.0
        deals, problems = self._solve_deals(match_id, record, result, urgent=urgent)
        solved = merge_deals(result, record, deals, problems)
        while True:
            self._check()
            try:
                with _opened(current.writing()) as store:
                    stored = save_review(store, text, result, solved)
                break
            except ArchiveLockedError:
                self._set_waiting(True)
                self._pause(LOCKED_PAUSE)
        if stored:  # before the match is said to be ready: the page it redraws then finds its data cached
            try:
                data.refresh_after_review(self.path, match_id=match_id)
            except Exception:  # the pages then read what they need themselves
                LOG.debug("refreshing the caches failed", exc_info=True)
        with self._lock:
            if stored:
                self._ready.add(match_id)
                self.seconds[match_id] = time.monotonic() - started
                if self._asked.get(match_id) == started:
                    del self._asked[match_id]
                # ready from now: the caches filled below are the other pages', and the match
                # under review would otherwise say "reviewing" until they are
                self._current = None
                self._done = self._total = 0
            elif match_id not in self._urgent:
                self._urgent.append(match_id)  # changed meanwhile: its new version in turn
            someone_waits = bool(self._urgent)
        if stored and not someone_waits:  # the other pages' first views, once nobody waits for a review
            try:
                data.warm_after_review(self.path)
            except Exception:
                LOG.debug("filling the caches failed", exc_info=True)
        for problem in problems:
            LOG.warning("%s", problem)

    def _solve_deals(
        self, match_id: str, record: Record, result: MatchResult, *, urgent: bool
    ) -> tuple[list[DealAnalysis], list[str]]:
        """Each deal the solver takes analysed (or found in memory), in deal order, and what
        went wrong on the way.

        A match someone waits for has :data:`DEALS_AT_ONCE` deals solved at the same time, the
        backlog one. The analyses are kept (:attr:`_kept`) on this thread only; when a more
        urgent match comes in, the deals under way are finished and kept before the review
        stops (:class:`_Preempted`).
        """
        found: dict[int, DealAnalysis] = {}
        problems: dict[int, str] = {}
        to_solve: deque[tuple[DealResult, bytes]] = deque()
        four = result.rules.variant == "four"
        # a variant's search cannot run beside another match's deal solved apart: that one ends first
        mine = {deal_key(record, deal.number) for deal in result.deals}
        self._keep_apart(wait_for=set() if four else set(self._apart) - mine)
        for deal in result.deals:
            if not can_solve(deal, result.rules):
                self._count_done()
                continue
            key = deal_key(record, deal.number)
            analysed = self._kept.get(key)
            if analysed is None:
                to_solve.append((deal, key))
            else:
                found[deal.number] = self._keep(key, analysed)
                self._count_done()
        # a deal of this match still solved apart comes first, taken up again: nothing else of the
        # match starts beside it (the variants' search shares one table between all its callers)
        to_solve = deque(sorted(to_solve, key=lambda item: item[1] not in self._apart))
        # the variants' search shares one table between all its callers: their deals go one by one
        at_once = DEALS_AT_ONCE if urgent and four and len(to_solve) > 1 else 1
        under_way: dict[Future[DealAnalysis], tuple[DealResult, bytes]] = {}
        preempted = False
        # a long backlog deal on a thread of its own: this thread stays free to see a request
        apart = not urgent and expected_seconds(result.rules.variant) > APART_SECONDS
        with ExitStack() as stack:
            # one deal at a time (a deal just saved, the backlog) is solved on this thread
            submit: Callable[..., Future[DealAnalysis]] = _solved_apart if apart else _solved_here
            if at_once > 1:
                pool = stack.enter_context(ThreadPoolExecutor(at_once, thread_name_prefix="review-deal"))
                submit = pool.submit
            while to_solve or under_way:
                while to_solve and len(under_way) < at_once and not preempted:
                    try:
                        self._check()
                    except _Preempted:
                        preempted = True
                        break
                    deal, key = to_solve.popleft()
                    # the backlog leaves a core to the pages; a match someone waits for gets both,
                    # a deal's parts one thread each while another deal keeps the other core busy
                    workers = None if urgent and (at_once == 1 or not to_solve) else 1
                    solving = self._apart.get(key) or submit(
                        analyse_deal, result, record, deal, samples=self.samples, workers=workers
                    )
                    if apart:
                        self._apart[key] = solving
                    under_way[solving] = (deal, key)
                if not under_way:
                    break
                finished, _ = wait(under_way, timeout=0.5 if apart else None, return_when=FIRST_COMPLETED)
                if apart and not finished:
                    self._check()  # preempted: the deal goes on apart, kept when it ends
                    continue
                for solved in finished:
                    deal, key = under_way.pop(solved)
                    self._apart.pop(key, None)
                    try:
                        found[deal.number] = self._keep(key, solved.result())
                    except SolverError as error:
                        failed = f"match {match_id!r} deal {deal.number}: the solver failed: {error}"
                        problems[deal.number] = failed
                    self._count_done()
        if preempted:
            raise _Preempted
        return [found[number] for number in sorted(found)], [problems[number] for number in sorted(problems)]

    def _keep_apart(self, *, wait_for: set[bytes]) -> None:
        """Keep the analyses of the long deals solved apart that have ended, and of those in
        ``wait_for`` once they end (their errors are the deal's own, met again when its match is
        reviewed)."""
        for key, solving in list(self._apart.items()):
            if not solving.done() and key not in wait_for:
                continue
            del self._apart[key]
            try:
                self._keep(key, solving.result())
            except Exception:  # solved again when its match comes round, and said then
                LOG.debug("a deal solved apart failed", exc_info=True)

    def _keep(self, key: bytes, analysed: DealAnalysis) -> DealAnalysis:
        """Keep a deal's analysis in memory (the latest used last), for a match saved again."""
        self._kept[key] = analysed
        self._kept.move_to_end(key)
        while len(self._kept) > KEPT_DEALS:
            self._kept.popitem(last=False)
        return analysed

    def _count_done(self) -> None:
        with self._lock:
            self._done += 1

    def _set_waiting(self, waiting: bool) -> None:
        with self._lock:
            self._waiting = waiting


# --------------------------------------------------------------------------- one per process

_REVIEWERS: dict[Path, Reviewer] = {}
_REVIEWERS_LOCK = threading.Lock()


def start(path: Path | str | None = None, **options: object) -> Reviewer:
    """The archive's reviewer, started if it is not running yet (``dashboards/serve.py`` calls
    this while the server starts; tests call it with their own archive).

    :param path: the archive (default: the dashboard's, :func:`dashboards.data.archive_path`).
    :param options: for :class:`Reviewer` (``samples``, ``warm``, ``backlog``).
    """
    key = Path(path if path is not None else data.archive_path()).resolve()
    with _REVIEWERS_LOCK:
        reviewer = _REVIEWERS.get(key)
        if reviewer is None or reviewer._stopping:
            reviewer = Reviewer(key, **options)  # type: ignore[arg-type]
            _REVIEWERS[key] = reviewer
    return reviewer.start()


def running(path: Path | str | None = None) -> Reviewer | None:
    """The archive's reviewer if one was started in this process (``None`` in a bare
    ``streamlit run`` or a page test that started none: the pages then show no review state)."""
    key = Path(path if path is not None else data.archive_path()).resolve()
    with _REVIEWERS_LOCK:
        reviewer = _REVIEWERS.get(key)
    return reviewer if reviewer is not None and not reviewer._stopping else None


def stop_all(timeout: float) -> bool:
    """Stop every reviewer of this process after the step under way, waiting up to ``timeout``
    seconds in all: a server stopping (SIGTERM, Ctrl-C) then ends no review thread in the middle
    of DuckDB's code, which aborted the process (exit code -6) instead of ending it.

    :returns: whether every review thread ended in time.
    """
    with _REVIEWERS_LOCK:
        stopping = list(_REVIEWERS.values())
        _REVIEWERS.clear()
    for reviewer in stopping:
        with reviewer._lock:
            reviewer._stopping = True
            reviewer._lock.notify_all()
    deadline = time.monotonic() + timeout
    for reviewer in stopping:
        reviewer._thread.join(max(0.0, deadline - time.monotonic()))
    return not any(reviewer._thread.is_alive() for reviewer in stopping)


def stop(path: Path | str | None = None) -> None:
    """Stop the archive's reviewer, if one runs (for tests)."""
    key = Path(path if path is not None else data.archive_path()).resolve()
    with _REVIEWERS_LOCK:
        reviewer = _REVIEWERS.pop(key, None)
    if reviewer is not None:
        reviewer.stop()


def request(match_ids: Iterable[str], path: Path | str | None = None) -> None:
    """Put these matches at the front of the running review (nothing when none runs)."""
    reviewer = running(path)
    if reviewer is not None:
        reviewer.request(match_ids)
