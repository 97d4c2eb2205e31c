"""Behaviour metrics: definitions, derived tables rebuilt from events, aggregation, report."""
