"""Benchmarks of manillen-replay: run ``python -m bench`` (or ``make bench``); see bench/README.md."""
