"""GameBench's games, natively on the core (one module per game in each layer)."""
