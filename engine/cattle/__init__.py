"""Cattle Trade's rules: the decider, its state, money and presets."""
