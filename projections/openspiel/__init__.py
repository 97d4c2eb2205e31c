"""What a seat of an OpenSpiel game sees, how its events read, and its prompts."""
