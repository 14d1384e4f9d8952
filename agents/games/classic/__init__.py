"""Classic canasta's bots and search (presets ``pl``, ``sk``)."""
