"""What the display shows: :class:`DisplayState`, a plain frozen value.

The controller builds a :class:`DisplayState` from the match state; the renderer turns it
into an image.  Nothing here knows about panels, pixels or time: clock reserves arrive as
milliseconds already computed by the caller.

Players are numbered 0 and 1: player 0 is white (the left column of a ``.mat`` file), player
1 is black.  Texts that the renderer may have to shorten (hint, message) are *variants*:
a tuple of strings, longest first; the renderer shows the longest one that fits the panel.

A state can be read from JSON (``bgboard render --state FILE.json``) with
:func:`state_from_json`; every mistake in the file raises :class:`InvalidDisplayStateError`
with one sentence naming the field.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from enum import StrEnum
from typing import Any, Mapping

from bgboard.errors import InputError

class DisplayPhase(StrEnum):
    """What the display is showing the players for."""

    OPENING = "opening"  # before the opening roll: both players roll one die
    ROLLING = "rolling"  # the player on roll may double or roll
    MOVING = "moving"  # dice are out, the player on roll moves
    CUBE_OFFERED = "cube-offered"  # the player on roll doubled; the other takes or passes
    GAME_OVER = "game-over"
    MATCH_OVER = "match-over"
    SETUP = "setup"  # the checkers are being set up (the diagram shows what is wrong)


class Severity(StrEnum):
    """How serious a message is (the renderer draws warnings and errors louder)."""

    INFO = "info"
    WARNING = "warning"
    ERROR = "error"


PHASES = tuple(DisplayPhase)
SEVERITIES = tuple(Severity)
ENDINGS = ("single", "gammon", "backgammon", "drop", "resignation", "time", "mother")
"""How a game ends: played out (single / gammon / backgammon), a passed double, a
resignation accepted, or a clock that ran out."""
LEVELS = ("single", "gammon", "backgammon")
CRAWFORD_STAGES = ("none", "crawford", "post-crawford")


class InvalidDisplayStateError(InputError):
    """A display state (usually a JSON file) with a missing, unknown or wrong field."""


Text = tuple[str, ...]
"""Variants of one text, longest first (the renderer shows the longest that fits)."""


@dataclass(frozen=True, slots=True)
class ClockState:
    """Match clocks (simple delay): reserves in milliseconds for players 0 and 1.

    ``delay_ms`` is the delay still left to the running player in this turn;
    ``running`` is the player whose clock runs (``None`` = both stopped).
    """

    reserve_ms: tuple[int, int]
    delay_ms: int = 0
    running: int | None = None


@dataclass(frozen=True, slots=True)
class BoardDiagram:
    """A small board for setup guidance, in physical numbering (white's view).

    ``points[i]`` is physical point ``i + 1``: positive = white checkers, negative = black.
    ``bar`` and ``off`` are ``(white, black)`` counts.  ``marked`` lists physical points
    (1..24; 0 = the white tray, 25 = the bar) whose checkers are wrong and are highlighted.
    """

    points: tuple[int, ...]
    bar: tuple[int, int] = (0, 0)
    off: tuple[int, int] = (0, 0)
    marked: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class Ending:
    """How the last game ended, for the end-of-game and end-of-match screens.

    ``winner`` won ``points`` (``cube`` × the level) by ``how`` (one of :data:`ENDINGS`);
    ``level`` is the level of a resignation (single, gammon or backgammon).  ``sent`` is
    set at the end of a match a club event assigned: True once the result was sent to the
    event, False while it is still waiting (``None`` = not a club match).
    """

    winner: int
    how: str
    points: int
    cube: int = 1
    level: str | None = None
    sent: bool | None = None


@dataclass(frozen=True, slots=True)
class DisplayState:
    """Everything the display shows, for one frame.

    ``match_length`` 0 means money play.  ``cube_owner`` ``None`` = centred cube.
    ``turn`` is the player on roll (``None`` before the opening roll); during
    ``cube-offered`` it is the doubler and the other player must take or pass.
    ``dice`` are the dice of the player on roll (during ``opening``: player 0's die then
    player 1's, 0 = not rolled yet).  ``winner`` is set in ``game-over``/``match-over``.
    ``put_back`` lists the checkers to put back after an illegal play ("put back: 13→8,
    clear 4", shorter forms after it); ``lesson`` is the teaching mode's grade of the last
    play; ``ending`` says how the last game ended (game-over and match-over screens);
    ``analysis`` the match's analysis at its end (both players' PR and error rate,
    computed on the hint worker: :func:`bgboard.analysis.match_end.summary_lines`).
    ``may_double`` is False when the player on roll may not offer the cube now (a game
    without a cube, the Crawford game, the cube on the other side, a dead cube): the
    prompt then says only "to roll" (read in the ``rolling`` phase).
    """

    names: tuple[str, str] = ("White", "Black")
    match_length: int = 0
    score: tuple[int, int] = (0, 0)
    crawford: str = "none"
    cube: int = 1
    cube_owner: int | None = None
    turn: int | None = None
    dice: tuple[int, int] | None = None
    pips: tuple[int, int] | None = None
    clock: ClockState | None = None
    phase: str = "rolling"
    winner: int | None = None
    hint: Text = ()
    message: Text = ()
    severity: str = "info"
    diagram: BoardDiagram | None = None
    title: Text = field(default=())
    put_back: Text = ()
    lesson: Text = ()
    ending: Ending | None = None
    analysis: Text = ()
    may_double: bool = True

    def __post_init__(self) -> None:
        problems = _problems(self)
        if problems:
            raise InvalidDisplayStateError(problems[0])

    def to_json(self) -> str:
        """The JSON text that :func:`state_from_json` reads back to an equal state."""
        return json.dumps(asdict(self), indent=2)


# --------------------------------------------------------------------------- checks
def _problems(s: DisplayState) -> list[str]:
    """Everything wrong with ``s``, in the order of its fields (empty when nothing is)."""
    out: list[str] = []
    if len(s.names) != 2 or not all(isinstance(n, str) and n.strip() for n in s.names):
        out.append("names must be two non-empty strings")
    if s.match_length < 0 or s.match_length > 99:
        out.append(f"match_length must be 0 (money) to 99, not {s.match_length}")
    # a match can end above its length (a gammon or a cube in the last game): no upper
    # bound from the length
    if len(s.score) != 2 or any(not 0 <= x <= 9999 for x in s.score):
        out.append("score must be two counts from 0 to 9999")
    if s.crawford not in CRAWFORD_STAGES:
        out.append(f"crawford must be one of {', '.join(CRAWFORD_STAGES)}, not {s.crawford!r}")
    if s.cube < 1 or s.cube > 4096 or s.cube & (s.cube - 1):
        out.append(f"cube must be a power of two from 1 to 4096, not {s.cube}")
    for name, value in (("cube_owner", s.cube_owner), ("turn", s.turn), ("winner", s.winner)):
        if value not in (None, 0, 1):
            out.append(f"{name} must be 0, 1 or null, not {value!r}")
    if s.dice is not None:
        low = 0 if s.phase == "opening" else 1
        if len(s.dice) != 2 or any(not low <= d <= 6 for d in s.dice):
            out.append(f"dice must be two numbers from {low} to 6")
    if s.pips is not None and (len(s.pips) != 2 or any(not 0 <= p <= 375 for p in s.pips)):
        out.append("pips must be two counts from 0 to 375")
    if s.clock is not None:
        out += _clock_problems(s.clock)
    if s.phase not in PHASES:
        out.append(f"phase must be one of {', '.join(PHASES)}, not {s.phase!r}")
    if s.severity not in SEVERITIES:
        out.append(f"severity must be one of {', '.join(SEVERITIES)}, not {s.severity!r}")
    if s.ending is not None:
        out += _ending_problems(s.ending)
    for name, text in (("hint", s.hint), ("message", s.message), ("title", s.title),
                       ("put_back", s.put_back), ("lesson", s.lesson), ("analysis", s.analysis)):
        if any(not isinstance(t, str) or not t.strip() for t in text):
            out.append(f"{name} must be a list of non-empty strings, longest first")
    if s.diagram is not None:
        out += _diagram_problems(s.diagram)
    return out


def _clock_problems(c: ClockState) -> list[str]:
    """What is wrong with a clock's state (empty when nothing is)."""
    out: list[str] = []
    if len(c.reserve_ms) != 2 or any(r < 0 for r in c.reserve_ms):
        out.append("clock reserve_ms must be two times of 0 ms or more")
    if c.delay_ms < 0:
        out.append("clock delay_ms cannot be negative")
    if c.running not in (None, 0, 1):
        out.append(f"clock running must be 0, 1 or null, not {c.running!r}")
    return out


def _ending_problems(e: Ending) -> list[str]:
    """What is wrong with an ending (empty when nothing is)."""
    out: list[str] = []
    if e.winner not in (0, 1):
        out.append(f"ending winner must be 0 or 1, not {e.winner!r}")
    if e.how not in ENDINGS:
        out.append(f"ending how must be one of {', '.join(ENDINGS)}, not {e.how!r}")
    if not 0 <= e.points <= 3 * 4096 * 2:
        out.append(f"ending points must be from 0 to {3 * 4096 * 2}, not {e.points}")
    if e.cube < 1 or e.cube > 4096 or e.cube & (e.cube - 1):
        out.append(f"ending cube must be a power of two from 1 to 4096, not {e.cube}")
    if e.level not in (None, *LEVELS):
        out.append(f"ending level must be one of {', '.join(LEVELS)} or null, not {e.level!r}")
    if e.sent not in (None, True, False):
        out.append(f"ending sent must be true, false or null, not {e.sent!r}")
    return out


def _diagram_problems(d: BoardDiagram) -> list[str]:
    """What is wrong with a set-up diagram (empty when nothing is)."""
    out: list[str] = []
    if len(d.points) != 24:
        out.append("diagram points must be 24 signed counts (white +, black -)")
    if len(d.bar) != 2 or len(d.off) != 2 or any(x < 0 for x in (*d.bar, *d.off)):
        out.append("diagram bar and off must be two counts of 0 or more")
    if any(not 0 <= p <= 25 for p in d.marked):
        out.append("diagram marked points must be from 0 to 25")
    return out


# --------------------------------------------------------------------------- JSON
_FIELDS = {f for f in DisplayState.__dataclass_fields__}
_CLOCK_FIELDS = {"reserve_ms", "delay_ms", "running"}
_DIAGRAM_FIELDS = {"points", "bar", "off", "marked"}
_ENDING_FIELDS = {"winner", "how", "points", "cube", "level", "sent"}


def _int(value: Any, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidDisplayStateError(f"{name} must be a whole number, not {value!r}")
    return value


def _opt_int(value: Any, name: str) -> int | None:
    return None if value is None else _int(value, name)


def _ints(value: Any, name: str, n: int | None = 2) -> tuple[int, ...]:
    if not isinstance(value, list) or (n is not None and len(value) != n):
        count = f"{n} " if n is not None else ""
        raise InvalidDisplayStateError(f"{name} must be a list of {count}whole numbers")
    return tuple(_int(v, name) for v in value)


def _text(value: Any, name: str) -> Text:
    if isinstance(value, str):
        return (value,)
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return tuple(value)
    raise InvalidDisplayStateError(f"{name} must be a string or a list of strings")


def _str(value: Any, name: str) -> str:
    if not isinstance(value, str):
        raise InvalidDisplayStateError(f"{name} must be a string, not {value!r}")
    return value


def _unknown(keys: Any, known: set[str], where: str) -> None:
    extra = sorted(set(keys) - known)
    if extra:
        raise InvalidDisplayStateError(
            f"unknown {where} field {extra[0]!r} (known: {', '.join(sorted(known))})"
        )


def state_from_dict(data: Mapping[str, Any]) -> DisplayState:
    """Build a checked :class:`DisplayState` from parsed JSON (missing fields take defaults)."""
    if not isinstance(data, Mapping):
        raise InvalidDisplayStateError("a display state must be a JSON object")
    _unknown(data.keys(), _FIELDS, "display state")
    kw: dict[str, Any] = {}
    for key, value in data.items():
        if key == "names":
            if not isinstance(value, list) or len(value) != 2:
                raise InvalidDisplayStateError("names must be a list of two strings")
            kw[key] = tuple(_str(v, "names") for v in value)
        elif key in ("match_length", "cube"):
            kw[key] = _int(value, key)
        elif key in ("cube_owner", "turn", "winner"):
            kw[key] = _opt_int(value, key)
        elif key in ("score",):
            kw[key] = _ints(value, key)
        elif key in ("dice", "pips"):
            kw[key] = None if value is None else _ints(value, key)
        elif key in ("crawford", "phase", "severity"):
            kw[key] = _str(value, key)
        elif key in ("hint", "message", "title", "put_back", "lesson", "analysis"):
            kw[key] = _text(value, key)
        elif key == "clock":
            kw[key] = None if value is None else _clock(value)
        elif key == "diagram":
            kw[key] = None if value is None else _diagram(value)
        elif key == "ending":
            kw[key] = None if value is None else _ending(value)
        elif key == "may_double":
            if not isinstance(value, bool):
                raise InvalidDisplayStateError(f"may_double must be true or false, not {value!r}")
            kw[key] = value
    return DisplayState(**kw)


def _clock(value: Any) -> ClockState:
    if not isinstance(value, Mapping):
        raise InvalidDisplayStateError("clock must be an object with reserve_ms")
    _unknown(value.keys(), _CLOCK_FIELDS, "clock")
    if "reserve_ms" not in value:
        raise InvalidDisplayStateError("clock needs reserve_ms (two times in milliseconds)")
    return ClockState(
        reserve_ms=_ints(value["reserve_ms"], "clock reserve_ms"),  # type: ignore[arg-type]
        delay_ms=_int(value.get("delay_ms", 0), "clock delay_ms"),
        running=_opt_int(value.get("running"), "clock running"),
    )


def _diagram(value: Any) -> BoardDiagram:
    if not isinstance(value, Mapping):
        raise InvalidDisplayStateError("diagram must be an object with points")
    _unknown(value.keys(), _DIAGRAM_FIELDS, "diagram")
    if "points" not in value:
        raise InvalidDisplayStateError("diagram needs points (24 signed counts)")
    return BoardDiagram(
        points=_ints(value["points"], "diagram points", 24),
        bar=_ints(value.get("bar", [0, 0]), "diagram bar"),  # type: ignore[arg-type]
        off=_ints(value.get("off", [0, 0]), "diagram off"),  # type: ignore[arg-type]
        marked=_ints(value.get("marked", []), "diagram marked", None),
    )


def _ending(value: Any) -> Ending:
    if not isinstance(value, Mapping):
        raise InvalidDisplayStateError("ending must be an object with winner, how and points")
    _unknown(value.keys(), _ENDING_FIELDS, "ending")
    for key in ("winner", "how", "points"):
        if key not in value:
            raise InvalidDisplayStateError(f"ending needs {key}")
    sent = value.get("sent")
    if sent is not None and not isinstance(sent, bool):
        raise InvalidDisplayStateError(f"ending sent must be true, false or null, not {sent!r}")
    level = value.get("level")
    return Ending(
        winner=_int(value["winner"], "ending winner"),
        how=_str(value["how"], "ending how"),
        points=_int(value["points"], "ending points"),
        cube=_int(value.get("cube", 1), "ending cube"),
        level=None if level is None else _str(level, "ending level"),
        sent=sent,
    )


def state_from_json(text: str) -> DisplayState:
    """Parse JSON text into a checked :class:`DisplayState` (one-sentence errors)."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InvalidDisplayStateError(
            f"the state is not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})"
        ) from None
    return state_from_dict(data)
