"""The rules of GameBench's games as deciders, one module per game."""
