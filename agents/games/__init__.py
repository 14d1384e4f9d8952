"""Each game's own agents: its bots, determiniser, search and rollout policy."""
