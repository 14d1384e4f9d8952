"""Turkish kanasta's shaping potential."""
