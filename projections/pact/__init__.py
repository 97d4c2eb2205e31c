"""PACT's projections: seat views and prompts, metrics and its report section."""
