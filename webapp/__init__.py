"""``kanaszta serve``: play against bots and trained agents, watch them play
and replay game records in the browser.

The package sits beside :mod:`agents` (it uses the agents and the engine's
public API): :mod:`webapp.app` is the ASGI application, :mod:`webapp.routes`
the API's work, :mod:`webapp.play` and :mod:`webapp.viewer` the two kinds of
session, :mod:`webapp.table` the JSON picture of a table (hidden cards kept
back), :mod:`webapp.choices` the checks on what a request may ask for, and
``static/`` the page (HTML, CSS and JavaScript, cards drawn in CSS: it works
offline). It needs the ``web`` extra: ``pip install -e ".[web]"``.
"""
