"""The rules of any OpenSpiel game (OpenSpiel decides, the harness records), and
GTBench's ten games as presets."""
