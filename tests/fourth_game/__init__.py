"""Mini canasta: a small game of the canasta family that exists only for tests. It proves
the seam: registered from ``tests/conftest.py`` with one ``register_game`` line, it runs the
whole parametrised suite with no edit outside this folder. Its rules:

* M1 Deck: one 52-card deck and two jokers (54 cards). The jokers and the 2s are wild.
  Card values: joker 50, A and 2 20, 8 to K 10, 3 to 7 5.
* M2 Deal: two players, each for himself; 7 cards each, the rest is the stock, the discard
  pile starts empty. Seat 0 starts the first hand (``random_starter``: a seat drawn from
  the seed); the starter alternates from hand to hand.
* M3 Turn: draw the stock's top card, then meld and lay off as often as allowed, then
  discard one card. The discard pile is never taken.
* M4 Meld: ``meld_<rank>`` lays a new meld of a natural rank (A, 3 to K), one per player and
  rank: three naturals of the rank, or two and a wild when he holds fewer than three; his
  lowest cards of the rank (by suit S H D C) and his lowest wild (a 2 before a joker).
* M5 Lay off: ``add_<rank>`` lays his lowest natural of the rank on his own meld of it;
  ``wild_<rank>`` lays his lowest wild on it, while its wilds stay fewer than its naturals.
* M6 A meld or a lay-off must leave a card in his hand (for the discard).
* M7 End of a hand: a player who discards his last card goes out; a hand also ends when the
  stock is empty after a discard, or after the turn limit (``max_turns``, cut short).
* M8 Score of a hand, per player: the values of his melded cards, 100 for each of his melds
  of 5 cards or more (a canasta) and 100 for going out, less the values of the cards left
  in his hand. The reward is his score less the other's.
* M9 Game: in game episodes hands follow one another until a total reaches the target
  (default 1000) or the hand limit (``max_hands``, cut short).
"""

from __future__ import annotations

from . import bots  # noqa: F401 - offers the game's bot to the agents layer
from .game import MINI_GAME

__all__ = ["MINI_GAME"]
