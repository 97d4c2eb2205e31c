"""PACT bargaining's rules."""
