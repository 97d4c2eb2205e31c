"""Analysis for every two-seat game, whatever its family: GTBench's Normalized Relative
Advantage (NRA) between two agents, and its report section. Games reach it through their
definitions; it imports no game."""
