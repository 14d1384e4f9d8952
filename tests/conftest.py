"""Shared fixtures. The test command sets NUMBA_CACHE_DIR to a fresh folder
(see README): numba's on-disk cache can keep stale machine code of a caller
after a helper in another file changed."""

from __future__ import annotations
