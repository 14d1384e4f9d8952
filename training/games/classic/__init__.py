"""Classic canasta's shaping potential."""
