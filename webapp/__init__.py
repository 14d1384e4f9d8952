"""``kanaszta serve``: play against bots and trained agents, watch them play
and replay game records in the browser, in every game and preset.

The package sits beside :mod:`agents` (it uses the agents and the engine's
public API) and never asks which game it serves: what differs is the game's
(``rules.game``: its table picture and move picture, docs/webapp.md) or the
agents layer's (the game's bots and its terminal words, which tell the moves,
say why one is illegal and write the score sheet). :mod:`webapp.app` is the ASGI
application, :mod:`webapp.routes` the API's work, :mod:`webapp.play` and
:mod:`webapp.viewer` the two kinds of session, :mod:`webapp.progress` the
stepping of a game with its narration and hand ends, :mod:`webapp.table` the
JSON of a table, :mod:`webapp.gesture` a meld gesture as actions,
:mod:`webapp.choices` the checks on what a request may ask for,
:mod:`webapp.sessions` the bounded store of games, and ``static/`` the page
(HTML, CSS and JavaScript, cards drawn in CSS: it works offline). It needs the
``web`` extra: ``pip install -e ".[web]"``.
"""
