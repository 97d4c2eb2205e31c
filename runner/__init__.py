"""Running games: the driver, storing sessions, replays, verification and tournaments.

The layer above agents and below the command line; a notebook can import it directly.
"""
