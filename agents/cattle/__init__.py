"""Cattle Trade's code agents (random, tracker, setrace, economy and their earlier versions),
the answer parser of its model seats, and its game definition."""
