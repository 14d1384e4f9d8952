"""Turkish kanasta's bots, search and compiled rollouts (preset ``tr``)."""
