"""Games played through TextArena (MindGames ' four among them)."""
