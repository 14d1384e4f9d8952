"""Scoring helpers of the default game, Díszített kanaszta (R16, R17): ``hand_score`` and
``apply_tax``, implemented in :mod:`kanaszta_env.games.diszitett.scoring`. This module
is the public address outside scripts import them from; classic's and
Turkish's are in their game folders (``kanaszta_env.games.<game>.scoring``)."""

from .games.diszitett.scoring import apply_tax, hand_score

__all__ = ["apply_tax", "hand_score"]
