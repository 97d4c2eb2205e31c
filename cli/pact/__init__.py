"""PACT's parts of the command line: its drawing in the viewer."""
