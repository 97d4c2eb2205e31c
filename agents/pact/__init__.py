"""PACT's code agents and its game definition."""
