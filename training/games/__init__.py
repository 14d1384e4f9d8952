"""Each game's own training pieces (its shaping potential)."""
