"""Each game's generated pages in ``docs/``: ``PAGES``, pairs of a path and its renderer."""
