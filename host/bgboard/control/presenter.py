"""What the display shows: a frozen :class:`View` of the match at one moment, turned into a
:class:`~bgboard.display.display_state.DisplayState` by :func:`display_state`.  Pure.

The controller builds the view (:meth:`bgboard.control.controller.Controller.view`); this
module knows nothing of the controller.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Sequence

from bgboard.language import Joined, Phrase
from bgboard.control.clock import Clock
from bgboard.control.notice import Notice, Severity, Topic
from bgboard.display.display_state import BoardDiagram, ClockState, DisplayPhase, DisplayState, Ending
from bgboard.match.state import MatchState, Phase
from bgboard.rules.position import Position
from bgboard.sense.places import BLACK_BAR, BLACK_OFF, WHITE, WHITE_BAR, WHITE_OFF, Observation, Slots, board_of, differences

__all__ = ["MAX_CUBE", "MAX_POINTS", "MAX_SCORE", "PHASES", "Drawing", "View", "diagram_of", "display_state", "ending",
           "title"]

MAX_CUBE = 4096
#: The largest score and game points the display draws (a cube war past MAX_CUBE — legal, if
#: pointless, in match play — is shown at these bounds; the records keep the real numbers).
MAX_SCORE = 9999
MAX_POINTS = 3 * MAX_CUBE * 2

#: The display's phase for each phase of the match.
PHASES = {
    Phase.OPENING: DisplayPhase.OPENING,
    Phase.TURN: DisplayPhase.ROLLING,
    Phase.PLAY: DisplayPhase.MOVING,
    Phase.DOUBLED: DisplayPhase.CUBE_OFFERED,
    Phase.RESIGNED: DisplayPhase.ROLLING,
    Phase.GAME_OVER: DisplayPhase.GAME_OVER,
    Phase.MATCH_OVER: DisplayPhase.MATCH_OVER,
}


@dataclass(frozen=True, slots=True)
class View:
    """Everything the display shows, at ``now_ms``: the match, what to say, the clocks, a
    loss on time, the hint for the roll, and the board as read (for the set-up diagram:
    ``start`` is the start's position, or its 28 signed physical counts).  ``variant``: a
    seed variant's notes (:func:`bgboard.control.seed_notes.variant_notes`), shown where a
    backgammon hint would be."""

    state: MatchState
    now_ms: int
    notice: Notice | None = None
    clock: Clock | None = None
    forfeit: int | None = None
    hint: str | None = None
    observation: Observation | None = None
    start: Position | tuple[int, ...] | None = None
    slots: Slots = field(default_factory=Slots)
    put_back: tuple[str, ...] = ()
    lesson: tuple[str, ...] = ()
    sent: bool | None = None
    analysis: tuple[str, ...] = ()
    beavers: bool = False
    variant: tuple[str, ...] = ()


#: How a game ended, as the display names it, for each result of the match machine.
HOW = {"single": "single", "gammon": "gammon", "backgammon": "backgammon", "drop": "drop", "resign": "resignation",
       "mother": "mother"}
LEVEL_NAMES = {1: "single", 2: "gammon", 3: "backgammon"}


def ending(view: View) -> Ending | None:
    """How the last game (or the match, on time) ended: who won, how, the points with the
    cube; at a match's end whether a club result was sent."""
    state = view.state
    if view.forfeit is not None:
        return Ending(winner=1 - view.forfeit, how="time", points=0, cube=min(state.cube, MAX_CUBE), sent=view.sent)
    if state.phase not in (Phase.GAME_OVER, Phase.MATCH_OVER) or not state.games:
        return None
    game = state.games[-1]
    if game.winner is None:
        return None  # a drawn game (Plakoto's two pinned mothers): the variant notes say so
    return Ending(
        winner=game.winner,
        how=HOW[game.result],
        points=min(game.points, MAX_POINTS),
        cube=min(game.cube, MAX_CUBE),
        level=LEVEL_NAMES.get(game.level) if game.result == "resign" else None,
        sent=view.sent if state.phase == Phase.MATCH_OVER else None,
    )


def title(view: View) -> tuple[str, ...]:
    """The instruction when the phase prompt would not say it: a resignation to answer, or
    an offered cube that may be beavered."""
    state = view.state
    if state.phase == Phase.RESIGNED and state.turn is not None:
        names = state.players
        who, other = names[state.turn], names[1 - state.turn]
        what = {1: Phrase("a single game"), 2: Phrase("a gammon"), 3: Phrase("a backgammon")}[state.resign_level]
        points = Phrase.counted("%(n)d point", "%(n)d points", state.resign_level * state.cube)
        # source: resign = "opgeven", "aufgeben" seeds/004, "gi opp"; double/drop are buttons
        return (Phrase("%(who)s resigns %(what)s (%(points)s): %(other)s, double accepts, drop declines",
                       who=who, what=what, points=points, other=other),
                Phrase("%(who)s resigns %(what)s: %(other)s, double accepts, drop declines",
                       who=who, what=what, other=other),
                Phrase("%(other)s: accept %(n)d? double yes, drop no", other=other, n=state.resign_level * state.cube),
                Phrase("%(other)s: accept? double/drop", other=other))
    if state.phase == Phase.DOUBLED and view.beavers and state.turn is not None:
        other = state.players[1 - state.turn]
        value = state.cube * 2
        # source: beaver = "Beaver" seeds/004 (money play)
        return (Phrase("%(other)s: double takes the %(value)d, drop passes, roll beavers", other=other, value=value),
                Phrase("%(other)s: double take, drop pass, roll beaver", other=other),
                Phrase("%(other)s: take, pass or beaver?", other=other))
    return ()


def display_state(view: View) -> DisplayState:
    """The display state of a view."""
    state, now, notice = view.state, view.now_ms, view.notice
    phase = PHASES[state.phase]
    if view.forfeit is not None:
        phase = DisplayPhase.MATCH_OVER
    diagram = None
    if phase in (DisplayPhase.OPENING, DisplayPhase.GAME_OVER) and notice is not None and notice.topic == Topic.SETUP:
        phase = DisplayPhase.SETUP
        diagram = _diagram(view)
    clock = None
    if view.clock is not None:
        c = view.clock
        clock = ClockState(  # whole seconds: the display state changes once a second, not every tick
            (_seconds(c.remaining(0, now)), _seconds(c.remaining(1, now))), _seconds(c.delay_left(now)), c.running
        )
    pips = None
    if state.phase in (Phase.TURN, Phase.PLAY, Phase.DOUBLED) and state.turn is not None and not state.playing.seed:
        mine, theirs = state.position.pips()
        pips = (mine, theirs) if state.turn == 0 else (theirs, mine)
    crawford = "crawford" if state.crawford else ("post-crawford" if state.post_crawford else "none")
    winner = state.winner if state.phase == Phase.MATCH_OVER else None
    if view.forfeit is not None:
        winner = 1 - view.forfeit
    elif state.phase == Phase.GAME_OVER and state.games:
        winner = state.games[-1].winner
    dice = state.dice if state.phase == Phase.PLAY else None
    return DisplayState(
        names=state.players,
        match_length=state.length,
        # a match can end above its length (a gammon or a cube in the last game)
        score=(min(state.score[0], MAX_SCORE), min(state.score[1], MAX_SCORE)),
        crawford=crawford if state.length else "none",
        cube=min(state.cube, MAX_CUBE),  # the display draws cubes up to 4096
        cube_owner=state.cube_owner,
        turn=state.turn if phase not in (DisplayPhase.OPENING, DisplayPhase.SETUP) else None,
        dice=dice,
        pips=pips,
        clock=clock,
        phase=phase,
        winner=winner,
        hint=_engine_note(view.variant) if view.variant else (view.hint,) if view.hint and state.phase == Phase.PLAY else (),
        # a loss on time: the match-end screen says who ran out of time
        message=_variants(notice.text, notice.short, notice.tiny) if notice is not None and notice.text.strip()
        and (view.forfeit is None or notice.topic == Topic.RESULT) else (),
        severity=notice.severity if notice is not None else Severity.INFO,
        diagram=diagram,
        title=title(view),
        put_back=view.put_back,
        lesson=view.lesson or _notes(view.variant),
        ending=ending(view) if phase in (DisplayPhase.GAME_OVER, DisplayPhase.MATCH_OVER) else None,
        analysis=view.analysis if phase == DisplayPhase.MATCH_OVER else (),
        may_double=state.phase != Phase.TURN or state.may_double,  # the prompt: "to roll" alone
    )


#: The fields of a view other than its time (which the display shows only through a clock).
_TIMELESS = tuple(f.name for f in fields(View) if f.name != "now_ms")


class Drawing:
    """:func:`display_state` of the views handed in, remembering the last: the room draws
    its view after every event, the loop's tick among them (20 times a second), and
    between two plays the view is the same but for its time, which no display shows
    without a clock."""

    def __init__(self) -> None:
        self._last: tuple[View, DisplayState] | None = None

    def __call__(self, view: View) -> DisplayState:
        last = self._last
        if last is not None and view.clock is None and last[0].clock is None and all(
                getattr(view, name) == getattr(last[0], name) for name in _TIMELESS):
            return last[1]
        shown = display_state(view)
        self._last = (view, shown)
        return shown


def _notes(notes: tuple[str, ...]) -> tuple[str, ...]:
    """A seed variant's state as one line in forms for the renderer to fit, longest first:
    pins, a mother checker alone or pinned and Race's checkers to enter first, then the tavli
    game and the game's name (shown where a teaching lesson would be: no engine teaches
    these games)."""
    lines = [n for n in notes if not n.startswith("no hints: ")]
    urgent = [n for n in lines if "pinned" in n or "danger" in n or "to enter" in n]
    ordered = urgent + [n for n in lines if n not in urgent]
    return tuple(Joined("; ", ordered[:k]) for k in range(len(ordered), 0, -1))


def _engine_note(notes: tuple[str, ...]) -> tuple[str, ...]:
    """Where a backgammon hint would be: that no engine knows the game."""
    return tuple(_what(n) for n in notes if n.startswith("no hints: "))


def _what(note: str) -> str:
    """A "no hints: ..." note without its prefix (a Phrase's own part, to be said)."""
    what = note.params.get("what") if isinstance(note, Phrase) else None
    return what if isinstance(what, str) else note.removeprefix("no hints: ")


def _diagram(view: View) -> BoardDiagram | None:
    if view.observation is None or view.start is None:
        return None
    return diagram_of(view.observation, view.start, view.slots)


def diagram_of(observation: Observation, start: Position | Sequence[int], slots: Slots = Slots()) -> BoardDiagram:
    """The set-up diagram: the board as read, with the places that differ from ``start``
    (white's view, or 28 signed physical counts) marked."""
    readings = observation.readings()

    def signed(place: int) -> int:
        r = readings[place - 1]
        if r.colour is None:
            return 0
        return r.low if r.colour == 0 else -r.low

    del slots
    fixes = differences(observation, board_of(start, WHITE) if isinstance(start, Position) else start)
    marked = sorted({f.place if f.place <= 24 else (25 if f.place in (WHITE_BAR, BLACK_BAR) else 0) for f in fixes})
    return BoardDiagram(
        points=tuple(signed(p) for p in range(1, 25)),
        bar=(signed(WHITE_BAR), -signed(BLACK_BAR)),
        off=(signed(WHITE_OFF), -signed(BLACK_OFF)),
        marked=tuple(marked),
    )


def _variants(text: str, *shorter: str) -> tuple[str, ...]:
    """The message and its shorter variants (longest first), for the renderer to fit."""
    out = [text]
    for form in shorter:
        if form.strip() and len(form) < len(out[-1]):
            out.append(form)
    return tuple(out)


def _seconds(ms: int) -> int:
    """``ms`` rounded up to whole seconds (a clock shows 0:00 only when time is up)."""
    return -(-ms // 1000) * 1000
