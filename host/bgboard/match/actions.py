"""The actions that drive a match: frozen values, journalled as JSON.

A match is rebuilt exactly by replaying its actions from :class:`StartMatch` (see
:func:`bgboard.match.replay`), so the host journals actions, not states.

Players are 0 and 1 (0 = white = the left column of a .mat file).  Actions taken by a
known player (``Double``, ``Take``, ``Resign`` ...) may name that ``player``; the match then
checks that it is that player's decision.  ``None`` means "whoever must decide now".

A play is a :class:`Move`: its ``steps`` are ``(from, to)`` pairs from the mover's own view
(25 = bar, 0 = off), as in the notation ``13/7 8/7``; ``Move.of(play)`` takes a
``bgboard.rules.Play``.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, ClassVar, Iterable, Protocol, Sequence, cast

from bgboard.match.rule_errors import MatchRecordError

Steps = tuple[tuple[int, int], ...]


@dataclass(frozen=True, slots=True)
class StartMatch:
    """Start a match to ``length`` points (0 = money play) under the rule set ``rules``."""

    length: int
    rules: str = "standard"
    players: tuple[str, str] = ("White", "Black")
    jacoby: bool | None = None
    beavers: bool | None = None
    variant: str | None = None
    illegal_plays: str | None = None
    kind: ClassVar[str] = "start"


@dataclass(frozen=True, slots=True)
class OpeningRoll:
    """Each player rolls one die: ``dice[0]`` is player 0's, ``dice[1]`` player 1's.

    A tie is rolled again; otherwise the higher die moves first, playing both dice."""

    dice: tuple[int, int]
    kind: ClassVar[str] = "opening"


@dataclass(frozen=True, slots=True)
class Roll:
    """The player on roll rolls ``dice``."""

    dice: tuple[int, int]
    kind: ClassVar[str] = "roll"


@dataclass(frozen=True, slots=True)
class Move:
    """The player on roll plays the checkers: ``(from, to)`` steps from the mover's view."""

    steps: Steps
    kind: ClassVar[str] = "move"

    @classmethod
    def of(cls, play: Any) -> "Move":
        """The move of a ``bgboard.rules.Play`` (anything with ``steps`` of ``frm``/``to``)."""
        return cls(tuple((int(s.frm), int(s.to)) for s in play.steps))


@dataclass(frozen=True, slots=True)
class Condone:
    """The opponent condones an illegal play: the checkers stay where the mover left them.

    ``mine``/``theirs``: the board after the play, from the mover's view (the fields of a
    ``bgboard.rules.Position``: index 0 off, 1..24 points, 25 bar).  Allowed only under a
    rule set with ``illegal_plays="condone"`` and only for a play that may be condoned
    (``bgboard.match.condone``); the dice are those of the roll being played.
    """

    mine: tuple[int, ...]
    theirs: tuple[int, ...]
    kind: ClassVar[str] = "condone"

    @classmethod
    def of(cls, position: Any) -> "Condone":
        """The action for a resulting ``bgboard.rules.Position`` (mover = mine)."""
        return cls(tuple(int(n) for n in position.mine), tuple(int(n) for n in position.theirs))


@dataclass(frozen=True, slots=True)
class Pass:
    """The player on roll has no legal play: the turn passes."""

    kind: ClassVar[str] = "pass"


@dataclass(frozen=True, slots=True)
class Double:
    """The player on roll offers the cube (before rolling)."""

    player: int | None = None
    kind: ClassVar[str] = "double"


@dataclass(frozen=True, slots=True)
class Take:
    """The opponent accepts the double and owns the cube."""

    player: int | None = None
    kind: ClassVar[str] = "take"


@dataclass(frozen=True, slots=True)
class Drop:
    """The opponent refuses the double and loses the cube value before the double."""

    player: int | None = None
    kind: ClassVar[str] = "drop"


@dataclass(frozen=True, slots=True)
class Beaver:
    """Money play with beavers: the opponent takes, redoubles at once and keeps the cube."""

    player: int | None = None
    kind: ClassVar[str] = "beaver"


@dataclass(frozen=True, slots=True)
class Resign:
    """The player whose turn it is offers to resign: 1 single, 2 gammon, 3 backgammon."""

    level: int
    player: int | None = None
    kind: ClassVar[str] = "resign"


@dataclass(frozen=True, slots=True)
class AcceptResign:
    """The opponent accepts the resignation: the game ends."""

    player: int | None = None
    kind: ClassVar[str] = "accept"


@dataclass(frozen=True, slots=True)
class RejectResign:
    """The opponent rejects the resignation: play goes on."""

    player: int | None = None
    kind: ClassVar[str] = "reject"


@dataclass(frozen=True, slots=True)
class NextGame:
    """Start the next game of the match after a game has ended."""

    kind: ClassVar[str] = "next"


Action = (
    StartMatch | OpeningRoll | Roll | Move | Condone | Pass | Double | Take | Drop | Beaver | Resign
    | AcceptResign | RejectResign | NextGame
)

ACTION_TYPES: dict[str, type] = {
    cls.kind: cls  # type: ignore[attr-defined]
    for cls in (
        StartMatch, OpeningRoll, Roll, Move, Condone, Pass, Double, Take, Drop, Beaver, Resign,
        AcceptResign, RejectResign, NextGame,
    )
}


def action_to_dict(action: Action) -> dict[str, Any]:
    """``{"type": kind, field: value, ...}`` with tuples as lists (JSON-ready)."""
    out: dict[str, Any] = {"type": action.kind}
    for f in fields(action):  # type: ignore[arg-type]
        value: Any = getattr(action, f.name)
        if isinstance(value, tuple):
            items: tuple[Any, ...] = cast(tuple[Any, ...], value)
            value = [list(cast(tuple[Any, ...], v)) if isinstance(v, tuple) else v for v in items]
        out[f.name] = value
    return out


def action_from_dict(data: dict[str, Any]) -> Action:
    """Rebuild an action written by :func:`action_to_dict`; bad data raises
    :class:`MatchRecordError`."""
    try:
        cls = ACTION_TYPES[data["type"]]
    except (KeyError, TypeError):
        raise MatchRecordError(f"unknown match action {data!r}") from None
    kwargs: dict[str, Any] = {}
    try:
        for f in fields(cls):
            if f.name not in data:
                continue
            value = data[f.name]
            if f.name == "steps":
                value = tuple((int(a), int(b)) for a, b in value)
            elif f.name in ("mine", "theirs"):
                value = tuple(int(n) for n in value)
                if len(value) != 26:
                    raise ValueError
            elif f.name in ("dice", "players"):
                value = tuple(value)
                if len(value) != 2:
                    raise ValueError
            kwargs[f.name] = value
        return cls(**kwargs)  # type: ignore[no-any-return]
    except (TypeError, ValueError):
        raise MatchRecordError(f"malformed match action {data!r}") from None


#: Actions a takeback undoes (a play, a pass, a condoned play).
PLAYS = (Move, Pass, Condone)


class JournalRow(Protocol):
    """A journalled event as :func:`journal_actions` reads it (the store's ``Entry``)."""

    @property
    def kind(self) -> str: ...

    @property
    def body(self) -> dict[str, Any]: ...


def journal_actions(rows: Iterable[JournalRow]) -> list[Action]:
    """The action log of a journal's current match (pure): its ``action`` rows since the last
    ``new``, less what each ``undo`` (a takeback) took back — the last play and the actions
    after it.  The one reading of a journal's actions, for the board's session and for
    ``bgboard export``/``analyse``."""
    actions: list[Action] = []
    for row in rows:
        if row.kind == "action":
            actions.append(action_from_dict(row.body))
        elif row.kind == "undo":
            while actions and not isinstance(actions.pop(), PLAYS):
                pass
        elif row.kind == "new":
            actions = []
    return actions


def actions_to_list(actions: Sequence[Action]) -> list[dict[str, Any]]:
    """Every action as a JSON-ready dict."""
    return [action_to_dict(a) for a in actions]
