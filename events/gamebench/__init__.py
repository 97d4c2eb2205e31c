"""The events and configurations of GameBench's games, one module per game."""
