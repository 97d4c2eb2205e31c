"""What a seat of a GameBench game sees, its timeline and its model prompts, per game."""
