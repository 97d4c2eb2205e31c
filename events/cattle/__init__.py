"""Cattle Trade's events, configuration and fixed facts (animals, money, payouts)."""
