"""Cattle Trade's runs: the paper's code-agent setting and sample stores."""
