"""Agents by name: ``"greedy"``, ``"search:samples=24,horizon=8"``, ``"ppo"`` (the
trained policy shipped with the package), a path to a trained policy checkpoint
(``.zip`` or exported ``.npz``), or ``"rllib:PATH"`` (an RLlib checkpoint folder)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from kanaszta_env import Rules
from kanaszta_env.games import set_agent_factory

from .base import Agent
from .games.classic.bots import ClassicGreedyBot, ClassicHeuristicBot
from .games.classic.terminal import ClassicWords
from .games.diszitett.greedy import GreedyBot
from .games.diszitett.heuristic import DEFAULT_PARAMS, HeuristicBot
from .games.diszitett.search import SearchBot
from .games.diszitett.terminal import DiszitettWords
from .games.turkish.bots import TurkishGreedyBot, TurkishHeuristicBot
from .games.turkish.terminal import TurkishWords
from .hinted import load_policy_file
from .human import TerminalWords
from .random_bot import RandomBot
from .search import SETTINGS, LedKit, SimulatedSearchBot

BOT_NAMES = ("random", "greedy", "heuristic", "search", "ppo")
#: the search bot whose first candidate is the shipped policy's choice (:class:`~agents.search.LedKit`)
LED_SEARCH = "ppo+search"
#: the policies ``make_agent("ppo", rules)`` loads, one per table (``agents/data``): trained by
#: ``kanaszta train --config training/configs/<name>.toml``, exported with ``kanaszta export``
#: (README: "The shipped agent"); SHIPPED_POLICY is Díszített kanaszta's (a hinted one)
SHIPPED_NAME = "ppo-{variant}-{players}p.npz"
SHIPPED_POLICY = Path(__file__).parent / "data" / SHIPPED_NAME.format(variant="2003-02", players=2)
RLLIB_PREFIX = "rllib:"  # make_agent("rllib:runs/x/final"): an RLlib checkpoint folder
#: the options of every game's search bot: its settings (the first three counts) and seed
_SEARCH = {**dict.fromkeys(SETTINGS[:3], int), **dict.fromkeys(SETTINGS[3:], float), "seed": int}


def _options(text: str, spec: str) -> dict[str, str]:
    out = {}
    for part in filter(None, text.split(",")):
        key, sep, value = part.partition("=")
        if not sep or not key.strip():
            raise ValueError(f"bad option {part!r} in agent {spec!r}: expected key=value")
        out[key.strip()] = value.strip()
    return out


def _convert(value: str, kind: type, key: str, spec: str) -> int | float:
    """``value`` as ``kind``; a bad one raises ``ValueError`` naming the option and the type."""
    try:
        return kind(value)
    except ValueError:
        expected = "an integer" if kind is int else "a number"
        raise ValueError(f"option {key} of agent {spec!r} must be {expected}, got {value!r}") from None


def _typed(head: str, opts: dict[str, str], known: dict[str, type], spec: str) -> dict[str, int | float]:
    """The options of agent ``head`` converted to their types; unknown ones raise ``ValueError``."""
    unknown = sorted(set(opts) - set(known))
    if unknown:
        raise ValueError(f"unknown {head} option(s) {unknown}; known: {sorted(known)}")
    return {k: _convert(v, known[k], k, spec) for k, v in opts.items()}


@dataclass(frozen=True)
class Bot:
    """How to build one bot of a game: ``build(rules, **options)`` with the options typed
    by ``options``; a ``seeded`` bot takes ``seed`` (default: ``make_agent``'s seed)."""

    build: Callable[..., Agent]
    options: Mapping[str, type] = field(default_factory=dict)
    seeded: bool = False


def _classic_search(rules: Rules, **options: object) -> Agent:
    from .games.classic.search import ClassicSearch  # compiles the rollouts: only when asked for

    return SimulatedSearchBot(rules, ClassicSearch(), **options)  # type: ignore[arg-type]


def _turkish_search(rules: Rules, **options: object) -> Agent:
    from .games.turkish.search import TurkishSearch  # compiles the rollouts: only when asked for

    return SimulatedSearchBot(rules, TurkishSearch(), **options)  # type: ignore[arg-type]


#: every game's random bot
_RANDOM = Bot(lambda rules, seed: RandomBot(seed=seed), {"seed": int}, seeded=True)
#: game name -> bot name -> how to build it (:func:`register_bot`)
_BOTS: dict[str, dict[str, Bot]] = {
    "diszitett": {
        "greedy": Bot(GreedyBot),
        "heuristic": Bot(
            lambda rules, **p: HeuristicBot(rules, params=p), dict.fromkeys(DEFAULT_PARAMS, float)
        ),
        "search": Bot(SearchBot, {**_SEARCH, "modes": int}, seeded=True),
    },
    "classic": {
        "greedy": Bot(ClassicGreedyBot),
        "heuristic": Bot(ClassicHeuristicBot, {"answer_limit": float, "ask_partner_cards": int}),
        "search": Bot(_classic_search, _SEARCH, seeded=True),
    },
    "turkish": {
        "greedy": Bot(TurkishGreedyBot),
        "heuristic": Bot(TurkishHeuristicBot),
        "search": Bot(_turkish_search, _SEARCH, seeded=True),
    },
}


def register_bot(game: str, name: str, bot: Bot) -> None:
    """Offer ``bot`` as ``make_agent(name, rules)`` for the rules of the game called ``game``."""
    _BOTS.setdefault(game, {})[name] = bot


def bot_names(rules: Rules) -> tuple[str, ...]:
    """The bots ``make_agent`` builds for ``rules``' game by name."""
    return ("random", *_BOTS.get(rules.game.name, {}))


#: game name -> its words at the terminal
_WORDS: dict[str, type[TerminalWords]] = {
    "diszitett": DiszitettWords,
    "classic": ClassicWords,
    "turkish": TurkishWords,
}


def terminal_words(rules: Rules) -> type[TerminalWords]:
    """The terminal words of ``rules``' game (the plain ones if it has none of its own)."""
    return _WORDS.get(rules.game.name, TerminalWords)


def make_agent(spec: str, rules: Rules | None = None, seed: int = 0) -> Agent:
    """An agent from its description.

    * ``random``, ``greedy``, ``heuristic``, ``search`` — the bots of the rules' game
      (:func:`bot_names`), optionally with options after a colon:
      ``heuristic:min_left=8``, ``search:samples=24,horizon=8``, ``random:seed=3``;
    * ``ppo+search`` — ``search`` (with its options) keeping the shipped policy's choice unless
      a simulated candidate beats it;
    * ``ppo`` — the trained policy shipped with the package for the rules' table
      (:func:`shipped_tables`; each reads its game's HeuristicBot's choice,
      :mod:`agents.hinted`); NumPy only, no PyTorch needed; played
      greedily, ``ppo:sample=1`` samples its masked softmax instead;
    * a path to a ``.zip`` checkpoint of a maskable PPO policy
      (``sb3_contrib.MaskablePPO``) or to a policy exported as ``.npz``
      (:class:`~agents.numpy_policy.NumpyPolicy`), played greedily;
    * ``rllib:PATH``, a checkpoint folder of ``kanaszta train --backend rllib``
      (:mod:`agents.rllib_checkpoint`, needs ``ray[rllib]``), played greedily.

    The agent's ``name`` is ``spec``.
    """
    rules = rules or Rules()
    if spec.startswith(RLLIB_PREFIX):
        from .rllib_checkpoint import load_rllib_checkpoint

        return load_rllib_checkpoint(spec[len(RLLIB_PREFIX) :], name=spec)
    head, _, rest = spec.partition(":")
    opts = _options(rest, spec)
    if head == "ppo":
        return _shipped_policy(opts, rules, seed, spec)
    if head == LED_SEARCH:  # the search bot led by the shipped policy: its options are search's
        agent = make_agent(f"search:{rest}", rules, seed)
        agent.kit = LedKit(agent.kit, make_agent("ppo", rules, seed))  # type: ignore[attr-defined]
        agent.name = spec
        return agent
    if head not in BOT_NAMES:
        return _agent_file(spec)
    bot = {"random": _RANDOM, **_BOTS.get(rules.game.name, {})}.get(head)
    if bot is None:
        raise ValueError(f"{rules.game.title} has no {head} bot: use one of {', '.join(bot_names(rules))}")
    if opts and not bot.options:
        raise ValueError(f"agent {head!r} takes no options, got {sorted(opts)}")
    kwargs = _typed(head, opts, bot.options, spec)
    if bot.seeded:
        kwargs.setdefault("seed", seed)
    agent = bot.build(rules, **kwargs)
    agent.name = spec
    return agent


def _agent_file(spec: str) -> Agent:
    """A checkpoint or exported policy at the path ``spec``."""
    path = Path(spec)
    if path.suffix in (".zip", ".npz"):
        if not path.is_file():
            raise ValueError(f"no checkpoint at {spec!r}")
        return load_checkpoint(path) if path.suffix == ".zip" else load_policy_file(path, name=spec)
    raise ValueError(
        f"unknown agent {spec!r}: use one of {', '.join(BOT_NAMES)} (with options as name:key=value,...) "
        "or a path to a .zip checkpoint or an exported .npz policy, "
        "or rllib:PATH (an RLlib checkpoint folder)"
    )


def _shipped_policy(opts: dict[str, str], rules: Rules, seed: int, spec: str) -> Agent:
    """The trained policy shipped with the package, checked against ``rules``."""
    sample = bool(_typed("ppo", opts, {"sample": int}, spec).get("sample", 0))
    path = SHIPPED_POLICY.with_name(SHIPPED_NAME.format(variant=rules.variant, players=rules.num_players))
    if not path.is_file():
        raise ValueError(
            f"no ppo agent is shipped for {rules.spec.title} ({rules.variant}) with {rules.num_players} "
            f"players (shipped: {', '.join(shipped_tables())}); train one (kanaszta train) and pass "
            "its checkpoint"
        )
    agent = load_policy_file(path, name=spec, deterministic=not sample, seed=seed)
    agent.setup(rules)
    return agent


def shipped_tables() -> list[str]:
    """The tables a shipped ppo agent plays, as ``"<preset> <players>p"``."""
    prefix, suffix = SHIPPED_NAME.split("{variant}-{players}")
    files = sorted(SHIPPED_POLICY.parent.glob(f"{prefix}*{suffix}"))
    tables = (p.name[len(prefix) : -len(suffix)].rsplit("-", 1) for p in files)
    return [f"{variant} {players}p" for variant, players in tables]


def load_checkpoint(path: str | Path) -> Agent:
    """A maskable PPO checkpoint (``sb3_contrib``) as a greedy batched agent: the same agent
    as :func:`agents.checkpoint.load_policy`, named by its path."""
    try:
        from .checkpoint import load_policy

        return load_policy(path, name=str(path))
    except ImportError as err:  # only torch and the SB3 packages are optional here
        if (err.name or "").partition(".")[0] not in ("torch", "sb3_contrib", "stable_baselines3"):
            raise  # not a missing optional package: a fault to see as it is
        raise ValueError(
            f"loading {path} needs torch and sb3-contrib (pip install sb3-contrib): {err}"
        ) from err


set_agent_factory(make_agent)  # the envs resolve opponents given by name through it
