"""GameBench's parts of the command line: its boards in the viewer."""
