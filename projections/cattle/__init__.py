"""Cattle Trade's projections: seat views, prompts, turn history, timeline lines, metrics."""
