"""Cattle Trade's behaviour metrics: definitions, derived tables rebuilt from events, figures
and the HTML report."""
