"""OpenSpiel's bots as code agents (random, MCTS, ...) and the definition of OpenSpiel games."""
