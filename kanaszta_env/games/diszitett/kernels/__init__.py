"""Díszített kanaszta's compiled rules (R1-R19): state, deal and turns, melds and the
penalised pickup, the legal-action mask, scoring, the observation and the seat's view;
``rule_set`` is what the engine's driver calls (bound per variant by
:mod:`kanaszta_env.core.ruleset`)."""
