"""PACT bargaining's events and configuration."""
