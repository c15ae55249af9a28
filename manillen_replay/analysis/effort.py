"""How much work the solver review of some deals is, counted in four-player deals.

A deal of another variant costs the full analysis (``analyse_deal``: the costs of every card,
the trump and knock reviews) many times a four-player deal's: each layout of a variant is a
search of its own, and two players with open table cards play sixteen tricks whose every hidden
card is a layout's choice (docs/solver.md, What each variant gets). Commands that choose the
solver review for a person, or say how long it will take, count the work in four-player deals
so that two deals of ``two_open`` are not taken for two minutes' work.
"""

from __future__ import annotations

from collections.abc import Mapping

SECONDS_PER_DEAL = 0.7
"""The solver review's seconds a four-player deal on the clock (median, 50 layouts, 2 cores:
docs/solver.md, measured by ``make bench``), for estimates."""

FOUR_PLAYER_DEALS: Mapping[str, float] = {
    "four": 1.0,
    "six_short": 0.5,
    "three_dummy": 2.8,
    "six": 3.8,
    "three": 6.4,
    "two_open_fours": 8.0,
    "two_open": 140.0,
}
"""A deal's full analysis in each variant, in four-player deals: the processor time of two
generated deals against two four-player deals' in the same run (``python -m
bench.variants_bench --full-only``, the ``variants_full`` rows' ``cpu_ratio``, 2026-12-06;
docs/solver.md, What each variant gets). Processor time, since other work on a shared machine
moves the clock far more; turned into seconds by the four-player deal's measured clock time
(:data:`SECONDS_PER_DEAL`), the one-deal ``two_open`` sample comes to about 98 s, which
``manillen analyze --depth solver`` took 85 s to review on two free cores."""


def review_effort(deals_by_variant: Mapping[str, int]) -> float:
    """The solver review of these deals, in four-player deals.

    :param deals_by_variant: how many deals of each variant (a variant not in
        :data:`FOUR_PLAYER_DEALS` counts as the dearest).

    >>> review_effort({"four": 20})
    20.0
    >>> review_effort({"four": 10, "six_short": 4})
    12.0
    """
    dearest = max(FOUR_PLAYER_DEALS.values())
    return float(
        sum(count * FOUR_PLAYER_DEALS.get(variant, dearest) for variant, count in deals_by_variant.items())
    )


def expected_seconds(variant: str, deals: int = 1) -> float:
    """The solver review's expected seconds on the clock for ``deals`` deals of ``variant``.

    >>> round(expected_seconds("two_open"))
    98
    """
    return review_effort({variant: deals}) * SECONDS_PER_DEAL


def wait_in_units(seconds: float) -> tuple[float, str]:
    """A wait as people round it: whole seconds (at least one) under 90 s, whole minutes
    (half a minute up) under 90 minutes, else hours to a tenth; the unit ``s``, ``minutes``
    or ``hours``.

    >>> wait_in_units(0.3), wait_in_units(40), wait_in_units(150), wait_in_units(3 * 3600 + 600)
    ((1, 's'), (40, 's'), (3, 'minutes'), (3.2, 'hours'))
    """
    if seconds < 90:
        return max(1, round(seconds)), "s"
    if seconds < 5400:
        return int(seconds / 60 + 0.5), "minutes"
    return round(seconds / 3600, 1), "hours"
