"""Díszített kanaszta's shaping potential."""
