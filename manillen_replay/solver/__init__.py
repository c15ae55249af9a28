"""The perfect-information search: positions in, values, best cards and lines out.

As DDS is for bridge, the solver judges nothing: it says what every legal card of a position
is worth with every hand known (card points for the side to play, best play by all), and what
the whole deal's plays were worth. Costs, findings, words, call reviews and accuracy are the
analysis's (:mod:`manillen_replay.analysis`: ``costs``, ``solver_findings``, ``call_review``,
``call_model``, ``accuracy``, ``deal_analysis``).

- :class:`Position` and :func:`solve_position`: the value of every legal card in a position.
- :func:`solve_batch`: many positions of one deal, on several threads.
- :mod:`.variants`: the same for the variants other than the four-player game.

docs/solver.md explains the search and what the analysis makes of it.
"""

from .search import Position, SolverError, solve_batch, solve_position

__all__ = ["Position", "SolverError", "solve_batch", "solve_position"]
