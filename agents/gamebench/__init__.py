"""The definitions and code agents of GameBench's games, one module per game."""
