"""Point numba's on-disk cache at a folder keyed by the package's source.

numba checks a cached function against its own file only, so editing a helper
in another file can leave a caller's cached machine code stale (it then keeps
running the old helper). Keying the cache folder on a hash of the kernels'
sources (every module that compiles with numba or defines an intrinsic, and the constant tables they
read) makes a stale cache impossible: any edit of them selects a fresh
folder. ``NUMBA_CACHE_DIR`` (or ``~/.cache``) stays the root.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import numba

#: modules without kernels whose constants the kernels compile in (and the variant specs)
_CONSTANT_TABLES = ("cards.py", "rules.py", "actions.py", "tables.py")


def configure() -> str:
    """Set ``numba.config.CACHE_DIR`` for this package; returns the folder."""
    package = Path(__file__).resolve().parent
    digest = hashlib.sha1()
    for path in sorted(package.rglob("*.py")):
        source = path.read_bytes()
        constants = path.name in _CONSTANT_TABLES or path.parent.name == "variants"
        if b"njit" in source or b"intrinsic" in source or constants:
            digest.update(str(path.relative_to(package)).encode())
            digest.update(source)
    root = os.environ.get("NUMBA_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.join(Path.home(), ".cache"), "kanaszta_env"
    )
    folder = os.path.join(root, f"kanaszta-{digest.hexdigest()[:16]}")
    numba.config.CACHE_DIR = folder
    return folder


CACHE_DIR = configure()
