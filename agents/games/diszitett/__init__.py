"""Díszített kanaszta's bots: greedy, heuristic (with its meld planner) and search, their
determiniser, and the terminal game's words (explanations, narration, the score sheet)."""
