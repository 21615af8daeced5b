"""The engine opponent's adapter: an :class:`~bgboard.control.decisions.OpponentPlay` backed by
an engine at a level (``bgboard.hints.levels``), answering on a
:class:`~bgboard.hints.worker.HintWorker` off the event loop (``bgboard run``, the simulator
on the real firmware) or at once (the model simulator's virtual clock).

The worker is the opponent's own (not the hints' worker, whose newest request cancels the
one before): the compiled engines run in its child process, pubeval on its thread.  An engine
fault or a decision over its budget costs the engine its choice, never the match: the answer
is then the rules engine's first legal play (or take, roll, decline), and the log says so.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any, Callable, Unpack

from bgboard.control.events import OpponentMoved
from bgboard.errors import shown
from bgboard.control.controller import Controller, RoomParts
from bgboard.control.decisions import Answer, Question
from bgboard.control.engine_player import EnginePlayer
from bgboard.control.session import JournalLike, Settings
from bgboard.hints.hint_engine import HintEngine
from bgboard.hints.levels import ENGINE_LEVELS, Ask, Decision, Level, decide, level_of, make_engine
from bgboard.teaching import cube_state

__all__ = ["BUDGET_S", "EngineOpponent", "ask_of", "decide_cached", "engine_opponent", "open_opponent"]

log = logging.getLogger(__name__)
#: How long one decision may take before the fallback answers (bgsage's deepest level on a Pi).
BUDGET_S = 120.0
SIDES = {"white": 0, "black": 1}
_ENGINES: dict[tuple[str, str | None], HintEngine] = {}  # per process: each engine opened once


def decide_cached(engine: str, eval_level: str | None, ask: Ask) -> Decision:
    """:func:`~bgboard.hints.levels.decide` with the engine of this process (opened once)."""
    key = (engine, eval_level)
    if key not in _ENGINES:
        _ENGINES[key] = make_engine(engine, eval_level)
    return decide(_ENGINES[key], ask)


def ask_of(question: Question, level: Level) -> Ask:
    """The engine's question for the match's: from the view of the player on roll."""
    state = question.state
    on_roll = state.turn if state.turn is not None else question.player
    return Ask(kind=question.kind, position=state.position, state=cube_state(state, on_roll), dice=state.dice,
               noise=level.noise, salt=level.spec, beavers=state.rules.beavers, level=question.level)


def answer_of(decision: Decision) -> Answer:
    return Answer(decision.choice, decision.steps, decision.notation)


def fallback(question: Question) -> Answer:
    """The answer when the engine could not give one: the first legal play, take, roll, decline."""
    if question.kind == "play":
        from bgboard.rules import legal_plays

        state = question.state
        assert state.dice is not None
        plays = legal_plays(state.position, state.dice)
        if not plays:
            return Answer("play")
        return Answer("play", tuple((int(s.frm), int(s.to)) for s in plays[0].steps), plays[0].notation)
    return Answer({"cube": "roll", "take": "take", "resign": "decline"}.get(question.kind, "roll"))


class EngineOpponent:
    """The engine at a level as the other side (see the module docstring).

    ``worker``: answer on it, posting :class:`OpponentMoved` events through ``post`` with the
    time from ``clock``; None: answer at once."""

    def __init__(self, level: Level, side: int = 1, *, worker: Any = None,
                 post: Callable[[Any], None] | None = None, clock: Callable[[], int] | None = None,
                 dice: str = "module") -> None:
        self.level = level
        self.side = side
        self.dice = dice
        self.budget = BUDGET_S  # how long one decision may take (s)
        self.worker = worker
        self.post = post
        self.clock = clock
        self._task: asyncio.Task[None] | None = None

    @property
    def name(self) -> str:
        return self.level.title

    def levels(self) -> tuple[str, ...]:
        return tuple(level.name for level in ENGINE_LEVELS[self.level.engine])

    def set_level(self, level: str) -> None:
        self.level = level_of(self.level.engine, level)

    def engine_level(self) -> tuple[str, str] | None:
        return (self.level.engine, self.level.name)

    def players(self, names: tuple[str, str]) -> tuple[str, str]:
        """The match's player names with the engine's side named by the engine and level."""
        out = list(names)
        out[self.side] = self.name
        return (out[0], out[1])

    def ask(self, question: Question) -> Answer | None:
        ask = ask_of(question, self.level)
        if self.worker is None:
            return answer_of(decide_cached(self.level.engine, self.level.eval_level, ask))
        self._task = asyncio.get_running_loop().create_task(self._answer(question, ask), name="bgboard-opponent")
        return None

    async def _answer(self, question: Question, ask: Ask) -> None:
        from bgboard.hints.worker import ENGINE_FAILURES, HintCancelled

        try:
            decision = await self.worker.call(decide_cached, self.level.engine, self.level.eval_level, ask,
                                              budget=self.budget, replace=True)
            answer = answer_of(decision)
        except HintCancelled as exc:
            if exc.reason == "board changed":
                return  # a newer question replaced this one
            log.warning("the %s opponent took too long: it plays the first legal choice", self.name)
            answer = fallback(question)
        except ENGINE_FAILURES as exc:  # an engine failure costs the engine its choice, never the match
            log.warning("the %s opponent failed (%s): it plays the first legal choice", self.name, shown(str(exc)))
            answer = fallback(question)
        except Exception:  # a program error: its traceback in the log; the match still goes on
            log.exception("the %s opponent's answer failed: it plays the first legal choice", self.name)
            answer = fallback(question)
        assert self.post is not None and self.clock is not None
        self.post(OpponentMoved(question.key, answer, self.clock()))

    def resume(self, journal: JournalLike, settings: Settings, now_ms: int, **parts: Unpack[RoomParts]) -> Controller:
        """The match room of a match against this engine, standing where the journal left it."""
        from dataclasses import replace

        settings = replace(settings, players=self.players(settings.players))
        parts["other"] = EnginePlayer(self, self.side, self.dice)
        return Controller.resume(journal, settings, now_ms, **parts)

    async def close(self) -> None:
        """Stop the worker (its child process) off the loop."""
        if self._task is not None:
            self._task.cancel()
        if self.worker is not None:
            await asyncio.to_thread(self.worker.close)


def engine_opponent(spec: str, side: int = 1, dice: str = "module") -> EngineOpponent:
    """``ENGINE[:LEVEL]`` playing ``side``, answering at once (the model simulator)."""
    from bgboard.hints.levels import parse_opponent

    return EngineOpponent(parse_opponent(spec), side, dice=dice)


async def open_opponent(config: Any, post: Callable[[Any], None], clock: Callable[[], int]) -> EngineOpponent | None:
    """The engine opponent of ``config`` (None when ``[match] opponent`` is "person"), its
    worker started off the loop."""
    if config.match.opponent != "engine":
        return None
    from bgboard.hints.worker import HintWorker

    level = level_of(config.opponent.engine, config.opponent.level)

    def start() -> Any:
        engine = make_engine(level.engine, level.eval_level)  # (fails here, with one sentence, if missing)
        worker = HintWorker(engine, BUDGET_S, separate_process=level.engine in ("bgsage", "gnubg-nn"))
        worker.start()
        return worker

    worker = await asyncio.to_thread(start)
    return EngineOpponent(level, SIDES[config.opponent.side], worker=worker, post=post, clock=clock,
                          dice=config.opponent.dice)
