"""manillen-replay: replay, check and analyse recorded games of Manillen."""

__version__ = "0.1.0"
