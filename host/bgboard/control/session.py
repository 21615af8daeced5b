"""One match at the board as the journal keeps it: the actions, the match state, the clocks
and a loss on time.  Every change is journalled *before* it takes effect, so replaying the
journal (:meth:`MatchSession.resume`) stands exactly where the host stood.

Pure but for the injected journal; time is passed in (ms).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Protocol, Sequence

from bgboard.control.clock import Clock, ClockRules
from bgboard.errors import InputError
from bgboard.match import (
    Action,
    NextGame,
    OpeningRoll,
    Roll,
    StartMatch,
    action_to_dict,
    apply,
)
from bgboard.match.actions import PLAYS, journal_actions
from bgboard.match.state import MatchState, Phase, game_variant
from bgboard.rules.position import Position
from bgboard.sense.places import Slots
from bgboard.sense.roll import RollReading
from bgboard.sense.slots import SlotMap
from bgboard.sense.tavli import start_counts

__all__ = ["IllegalPolicy", "ILLEGAL_POLICIES", "JournalLike", "JournalRow", "MatchSession", "ReadOnlyJournal", "Settings"]


class IllegalPolicy(StrEnum):
    """What happens to an illegal play: it must be corrected, or the opponent may condone it."""

    CORRECT = "correct"
    CONDONE = "condone"


#: ``illegal`` settings: correct every illegal play, or let the opponent condone it.
ILLEGAL_POLICIES = tuple(IllegalPolicy)


class JournalRow(Protocol):
    """One journalled row as a session reads it back (``bgboard.store.journal.Entry``): its
    kind and its JSON body."""

    @property
    def kind(self) -> str: ...

    @property
    def body(self) -> dict[str, Any]: ...


class JournalLike(Protocol):
    """What a session needs of a journal (``bgboard.store.journal.Journal``)."""

    def append(self, kind: str, body: dict[str, Any], at_ms: int) -> int: ...

    def entries(self) -> Sequence[JournalRow]: ...


class ReadOnlyJournal:
    """A journal's rows read back (``bgboard export``, ``bgboard analyse``): a session resumed
    on it rebuilds the match and writes nothing back."""

    def __init__(self, entries: Sequence[JournalRow]) -> None:
        self._entries = entries

    def entries(self) -> Sequence[JournalRow]:
        return self._entries

    def append(self, kind: str, body: dict[str, Any], at_ms: int) -> int:
        return 0


@dataclass(frozen=True, slots=True)
class Settings:
    """How a match is played at this board (from the config file's ``[match]`` table)."""

    length: int = 5
    rules: str = "standard"
    players: tuple[str, str] = ("White", "Black")
    variant: str | None = None
    takebacks: bool = False
    illegal: IllegalPolicy = IllegalPolicy.CORRECT
    clock: ClockRules | None = None
    slots: Slots = field(default_factory=Slots)
    jacoby: bool = False  # money play: gammons count single while the cube is centred
    beavers: bool = False  # money play: a doubled player may redouble at once (roll button)
    numbering: str = "own"  # "own": each player's own point numbers; "physical": white's for both
    teach: str = "off"  # "off", "learner" (grade every play), "practice" (drills)
    slot_map: SlotMap | None = None  # the board's slots in wire order: a seed variant's pins are read from them


class MatchSession:
    """The match, its journal and its clocks (see the module docstring).

    ``actions`` are the match's actions so far, ``state`` the state they lead to (``None``
    until the match could start), ``history`` the turn-start positions of the current game
    (for takebacks), ``clock`` the clocks (``None`` without a clock), ``forfeit`` the player
    who lost on time.
    """

    def __init__(self, journal: JournalLike, settings: Settings) -> None:
        self.journal = journal
        self.settings = settings
        self.actions: list[Action] = []
        self.state: MatchState | None = None
        self.history: list[tuple[Position, int]] = []
        self.clock: Clock | None = None
        self.forfeit: int | None = None

    # ------------------------------------------------------------------ start / resume
    @classmethod
    def resume(cls, journal: JournalLike, settings: Settings, now_ms: int) -> tuple["MatchSession", str | None]:
        """The session standing exactly where the journal left the match (or the match the
        settings describe when the journal is empty), and why the match could not start
        (``None`` when it did)."""
        session = cls(journal, settings)
        entries = journal.entries()
        actions = journal_actions(entries)
        for entry in entries:  # the current match's clocks and forfeit
            if entry.kind == "clock":
                session.clock = Clock.from_dict(entry.body)
            elif entry.kind == "forfeit":
                session.forfeit = int(entry.body["loser"])
            elif entry.kind == "new":
                session.clock, session.forfeit = None, None
        if not actions:
            return session, session.start(now_ms)
        session._rebuild(actions)
        if session.clock is not None:
            session.clock = session.clock.resumed(now_ms)
            runner = session.runner()
            if session.clock.running != runner:  # killed between an action and its clock entry
                session.clock_to(runner, now_ms)
        elif settings.clock is not None and session.state is not None:  # killed before it was set
            session.set_clock(Clock.set(settings.clock, session.state.length, session.state.score), now_ms)
        return session, None

    def start(self, at_ms: int) -> str | None:
        """Start the match the settings describe (and its clocks); why it cannot start, or None."""
        s = self.settings
        start = StartMatch(
            length=s.length,
            rules=s.rules,
            players=s.players,
            variant=s.variant,
            illegal_plays=None if s.illegal == IllegalPolicy.CORRECT else str(s.illegal),
            jacoby=s.jacoby if s.length == 0 else None,
            beavers=s.beavers if s.length == 0 else None,
        )
        refused = self.act(start, at_ms)
        if refused is None and s.clock is not None:
            self.set_clock(Clock.set(s.clock, s.length), at_ms)
        return refused

    def new_match(self, at_ms: int) -> str | None:
        """A new match at the same board (after one is over); why it cannot start, or None."""
        self.journal.append("new", {}, at_ms)
        self.actions, self.clock, self.forfeit, self.history = [], None, None, []
        self.state = None
        return self.start(at_ms)

    def _rebuild(self, actions: list[Action]) -> None:
        state: MatchState | None = None
        history: list[tuple[Position, int]] = []
        for action in actions:
            state = apply(state, action)
            history = _track(history, action, state)
        self.actions = actions
        self.state = state
        self.history = history

    # ------------------------------------------------------------------ changes
    def act(self, action: Action, at_ms: int) -> str | None:
        """Check ``action`` against the match, journal it, then let it take effect.
        A refused action changes nothing: the one sentence saying why is returned."""
        try:
            after = apply(self.state, action)
        except InputError as exc:
            return _sentence(exc)
        self.journal.append("action", action_to_dict(action), at_ms)
        self.actions.append(action)
        self.state = after
        self.history = _track(self.history, action, after)
        return None

    def checks(self, action: Action) -> str | None:
        """Why ``action`` would be refused now (``None``: it would be accepted); changes nothing."""
        try:
            apply(self.state, action)
        except InputError as exc:
            return _sentence(exc)
        return None

    def take_back(self, at_ms: int) -> None:
        """Undo the last play (journalled as an ``undo``); its player's clock runs again."""
        last = self.actions[-1]
        self.journal.append("undo", {"action": action_to_dict(last)}, at_ms)
        self._rebuild(self.actions[:-1])
        if self.clock is not None and self.state is not None and self.state.turn is not None:
            self.clock_to(self.state.turn, at_ms)

    def set_clock(self, clock: Clock, at_ms: int) -> None:
        """Journal the clocks, then use them."""
        self.journal.append("clock", clock.to_dict(), at_ms)
        self.clock = clock

    def clock_to(self, player: int | None, at_ms: int) -> None:
        """Run ``player``'s clock (``None``: stop both); nothing without a clock."""
        if self.clock is None:
            return
        clock = self.clock.stop(at_ms) if player is None else self.clock.start(player, at_ms)
        self.set_clock(clock, at_ms)

    def check_time(self, at_ms: int) -> None:
        """A player whose time ran out loses the match (journalled as a ``forfeit``)."""
        if self.clock is None or self.over:
            return
        loser = self.clock.flagged(at_ms)
        if loser is not None:
            self.journal.append("forfeit", {"loser": loser}, at_ms)
            self.forfeit = loser
            self.clock_to(None, at_ms)

    # ------------------------------------------------------------------ views
    def runner(self) -> int | None:
        """Whose clock should run in the current phase."""
        state = self.state
        if state is None or state.phase in (Phase.OPENING, Phase.GAME_OVER, Phase.MATCH_OVER):
            return None
        return state.decider if state.phase in (Phase.DOUBLED, Phase.RESIGNED) else state.turn

    @property
    def over(self) -> bool:
        """The match is over (won, or lost on time)."""
        return self.forfeit is not None or (self.state is not None and self.state.phase == Phase.MATCH_OVER)

    @property
    def may_take_back(self) -> bool:
        """The last action is a play that a takeback may undo."""
        return bool(self.actions) and isinstance(self.actions[-1], PLAYS) and bool(self.history)

    @property
    def condoning(self) -> bool:
        """The match lets the opponent condone an illegal play."""
        return (self.state is not None and self.state.rules.illegal_plays == IllegalPolicy.CONDONE
                and RollReading.takes_back(self.state.playing))

    def next_variant(self) -> str:
        """The variant of the game to be set up: the one starting (before its opening roll)
        or the next (after a game; tavli rotates)."""
        state = self.state
        if state is None:
            return self.settings.variant or "standard"
        if state.phase == Phase.MATCH_OVER:  # a new match at the board starts from game 1
            return game_variant(state.rules.variant, 1)
        if state.phase == Phase.GAME_OVER:
            return game_variant(state.rules.variant, state.game + 1)
        return state.variant

    def start_counts(self) -> tuple[int, ...]:
        """The 28 signed physical counts of the game to be set up (:meth:`next_variant`):
        backgammon's family, 15 on one point (Plakoto, Fevga) or all in the trays (Race)."""
        variant = self.next_variant()
        return start_counts(variant)


def _track(history: list[tuple[Position, int]], action: Action, state: MatchState) -> list[tuple[Position, int]]:
    """Turn-start positions of the current game (for takebacks)."""
    if isinstance(action, (NextGame, StartMatch)):
        return []
    if isinstance(action, (Roll, OpeningRoll)) and state.phase == Phase.PLAY and state.turn is not None:
        return history + [(state.position, state.turn)]
    return history


def _sentence(exc: Exception) -> str:
    """A refusal's sentence as it was raised: a Phrase stays one (the display says it in the
    board's language)."""
    said = exc.args[0] if exc.args else None
    return said if isinstance(said, str) else str(exc)
