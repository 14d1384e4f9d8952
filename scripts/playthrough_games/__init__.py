"""Each game's golden playthroughs (``scripts/gen_playthroughs.py``): its hands, renderers and policy."""
