"""GameBench's runner parts: its frozen reference pools."""
