"""OpenSpiel's runner parts: its frozen reference pools (GTBench games)."""
