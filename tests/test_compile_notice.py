"""The "compiling … (first run only)" line: said once per part
of the project when numba compiles a cached kernel (an empty cache), never when
the kernels come from the cache, never for functions numba does not cache.

Compiling the real kernels takes minutes, so the tests compile small probe
modules that they add to the rules package and to the bots' package, in a
fresh process with an empty cache folder (as a new user's first run).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

RULES_PROBE = """
from numba import njit

@njit
def plain(x):  # never cached: compiled in every process, never announced
    return x + 1

@njit(cache=True)
def rules(x):
    return x + 2

@njit(cache=True)
def more_rules(x):
    return x + 3
"""

BOT_PROBE = """
from numba import njit

@njit(cache=True)
def bot(x):
    return x + 4
"""

#: the probes become kanaszta_env.rules_probe and agents.bot_probe
SCRIPT = """
import sys
import agents
import kanaszta_env
kanaszta_env.__path__.append(sys.argv[1])
agents.__path__.append(sys.argv[1])
from kanaszta_env import rules_probe as r
from agents import bot_probe as b
print("import done", file=sys.stderr)
assert r.plain(1) == 2
assert r.rules(1) == 3 and r.more_rules(1) == 4 and b.bot(1) == 5
from kanaszta_env._compile_notice import NOTICE
print("parts", sorted(NOTICE.seconds))
"""
SILENCED = SCRIPT.replace(
    "import kanaszta_env\n",
    "import kanaszta_env\nimport logging\nlogging.getLogger('kanaszta_env').setLevel(logging.ERROR)\n",
)


def run(script: str, probe: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "NUMBA_CACHE_DIR": str(probe / "cache"), "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-c", script, str(probe)], env=env, capture_output=True, text=True, timeout=600
    )


@pytest.fixture
def probe(tmp_path: Path) -> Path:
    (tmp_path / "rules_probe.py").write_text(RULES_PROBE)
    (tmp_path / "bot_probe.py").write_text(BOT_PROBE)
    return tmp_path


def test_a_cold_cache_is_announced_once_per_part_unless_warm_or_silenced(probe: Path) -> None:
    cold = run(SCRIPT, probe)
    assert cold.returncode == 0, cold.stderr
    after_import = cold.stderr.split("import done", 1)[1]
    assert after_import.count("compiling the rules kernels (first run only)…") == 1, cold.stderr
    assert after_import.count("compiling the bots' kernels (first run only)…") == 1, cold.stderr
    assert "parts ['agents', 'kanaszta_env']" in cold.stdout
    warm = run(SCRIPT, probe)
    assert warm.returncode == 0, warm.stderr
    assert "compiling" not in warm.stderr, warm.stderr
    assert "parts []" in warm.stdout
    shutil.rmtree(probe / "cache")  # cold again, the notice silenced through logging
    silenced = run(SILENCED, probe)
    assert silenced.returncode == 0, silenced.stderr
    assert "compiling" not in silenced.stderr and "parts ['agents', 'kanaszta_env']" in silenced.stdout


def test_the_notice_is_not_part_of_the_cache_key() -> None:
    """Editing the notice must not throw the compiled kernels away: the cache key
    hashes the modules that mention numba's compiler (kanaszta_env._numba_cache)."""
    source = (ROOT / "kanaszta_env" / "_compile_notice.py").read_bytes()
    assert b"njit" not in source and b"intrinsic" not in source
