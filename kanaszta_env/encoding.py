"""The observation module's former name: checkpoints pickled by earlier versions name their
observation space's class by it (now :mod:`kanaszta_env.spaces`)."""


def __getattr__(name: str) -> object:
    if name in ("ObservationSpace", "rules_of_space"):
        from . import spaces

        return getattr(spaces, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
