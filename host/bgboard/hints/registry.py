"""Choosing a backend by name: from the config (``[hints] engine``), ``--engine`` or
``BGBOARD_HINT_ENGINE``; a missing engine gives one clear sentence and the fallback."""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass

from bgboard.errors import InputError
from bgboard.hints.hint_engine import EngineUnavailableError, HintEngine

log = logging.getLogger(__name__)

__all__ = ["DEFAULT", "ENGINES", "ENV", "Opened", "UnknownEngineError", "open_configured", "make_engine", "open_engine"]

#: Known backends, strongest first; "auto" tries them in this order.
ENGINES = ("bgsage", "gnubg-nn", "pubeval")
DEFAULT = "auto"
ENV = "BGBOARD_HINT_ENGINE"


class UnknownEngineError(InputError):
    """An engine name that is not one of :data:`ENGINES` (or "auto")."""


@dataclass(frozen=True)
class Opened:
    """The engine in use and, if it is not the one asked for, the sentence saying why."""

    engine: HintEngine
    notice: str | None = None


def make_engine(name: str, eval_level: str | None = None) -> HintEngine:
    """Open the engine ``name`` (``bgsage`` at ``eval_level``, default 1-ply; ``gnubg-nn``;
    anything else pubeval) with no fallback: :class:`InputError` (one sentence) when it is not
    installed.  A module-level function of plain arguments, so a worker's child process can
    call it."""
    if name == "bgsage":
        from bgboard.hints.bgsage_engine import BgsageEngine

        return BgsageEngine(eval_level or "1ply")
    if name == "gnubg-nn":
        from bgboard.hints.gnubg_engine import GnubgEngine

        return GnubgEngine()
    from bgboard.hints.pubeval_engine import PubevalEngine

    return PubevalEngine()


def open_engine(name: str | None = None) -> Opened:
    """Open the engine ``name`` (None: ``$BGBOARD_HINT_ENGINE``, else "auto").

    "auto" takes the strongest installed engine.  A named engine that cannot be loaded
    falls back to the strongest engine that is installed, with a notice such as "the
    gnubg-nn engine is not installed (No module named 'gnubg_nn'); using bgsage".
    """
    if name is None:
        name = os.environ.get(ENV) or DEFAULT
    name = name.strip().lower()
    if name == "gnubg" or name == "gnubg_nn":
        name = "gnubg-nn"
    if name != DEFAULT and name not in ENGINES:
        raise UnknownEngineError(f"unknown engine {name!r}: choose one of {', '.join(ENGINES)} or auto")
    if name == DEFAULT:
        for candidate in ENGINES:
            try:
                return Opened(make_engine(candidate))
            except EngineUnavailableError:
                continue
    try:
        return Opened(make_engine(name))
    except EngineUnavailableError as exc:
        # the strongest engine that is installed, never silently the weakest
        for candidate in ENGINES:
            if candidate == name:
                continue
            try:
                opened = Opened(make_engine(candidate), f"{exc}; using {candidate}")
            except EngineUnavailableError:
                continue
            log.info("%s; using %s", exc, candidate)
            return opened
        raise  # pragma: no cover - pubeval is pure Python and always opens


def open_configured(engine: str) -> Opened | None:
    """The engine named by the config key ``[hints] engine`` (``bgboard.config``): None for
    ``"none"`` (hints switched off), else :func:`open_engine`."""
    if engine.strip().lower() == "none":
        return None
    return open_engine(engine)
