"""Replaying a match file on the board (pure): the stops of a replay, the buttons that move
through them, and the room ``bgboard run --replay`` drives instead of the match
controller.

:func:`replay_steps` turns an :class:`~bgboard.match.ImportedMatch` into stops: for each
play of the file, the position *before* it (what the set-up guidance has the player lay
out), the LEDs that show the play that was made (the checkers' starting places blue, their
landing places green), and the display: the dice, the play, the cube actions, the
resignations and — given a ``grade`` function (an engine, wired by the caller) — the grade
of each play; a last stop per game shows how it ended.  :class:`Replayer` moves through
them with the buttons: roll = forward, double = back, drop = the next game.

:class:`ReplayRoom` (a :class:`~bgboard.control.rooms.Room`) takes the App's events (board
readings, buttons; it has no use for the others): while the board differs from the stop's
position it shows the set-up guidance (what to move, with the diagram) and lights nothing; once
the board shows the position it lights the play and shows the stop.  It keeps no match actions
(a replay writes no journal rows and no records) and is over at its last stop.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Callable

from bgboard.control.events import BoardRead, Button, ButtonPressed, Event
from bgboard.control.judge import BLUE, GREEN
from bgboard.control.notice import Notice, Severity, Topic
from bgboard.control.numbering import Numbering, Words
from bgboard.control.presenter import View, display_state
from bgboard.control.other_side import OtherSide
from bgboard.display.display_state import DisplayState
from bgboard.language import Phrase
from bgboard.link.messages import HostMessage, Led, SetLeds, SetRolling
from bgboard.match import Action, ImportedMatch, MatPlay
from bgboard.match.state import MatchState, Phase
from bgboard.rules import BAR, OFF, Position, legal_plays
from bgboard.sense.places import BLACK_BAR, BLACK_OFF, WHITE, WHITE_BAR, WHITE_OFF, Fix, Observation
from bgboard.sense.recognise import setup_fixes, setup_message

__all__ = ["BACK", "FORWARD", "NEXT_GAME", "ReplayRoom", "ReplayStep", "Replayer", "replay_steps"]

FORWARD, BACK, NEXT_GAME = Button.ROLL, Button.DOUBLE, Button.DROP


@dataclass(frozen=True, slots=True)
class ReplayStep:
    """One stop of a replay: ``position`` is the board to lay out (white's view), ``leds``
    the play made from it, ``display`` what the panel shows, ``state`` the match there;
    ``play`` is ``None`` on a game's last stop."""

    game: int
    line: int
    position: Position
    leds: tuple[Led, ...]
    display: DisplayState
    text: str
    state: MatchState
    play: MatPlay | None
    heading: str = ""


def _white_view(state: MatchState) -> Position:
    """The board of a match state from white's view (``board[0]`` is white's own)."""
    return Position(state.board[WHITE], state.board[1 - WHITE])


def place_number(index: int, colour: int) -> int:
    """The physical place (1..24, bars 25/26, trays 27/28) of a player's own index (0 off,
    1..24 points, 25 bar)."""
    if index == BAR:
        return WHITE_BAR if colour == WHITE else BLACK_BAR
    if index == OFF:
        return WHITE_OFF if colour == WHITE else BLACK_OFF
    return index if colour == WHITE else 25 - index


def _leds(play: MatPlay) -> tuple[Led, ...]:
    """The play's checkers: starting places blue, landing places green (a place both left
    and reached stays green)."""
    sources = [place_number(frm, play.player) - 1 for frm, _ in play.steps]
    targets = [place_number(to, play.player) - 1 for _, to in play.steps]
    leds = {i: BLUE for i in sources} | {i: GREEN for i in targets}
    return tuple(Led(i, rgb) for i, rgb in sorted(leds.items()))


def _notation(play: MatPlay) -> str:
    """A legal play in the rules engine's notation (as its grade names plays: ``3/2 3/off``,
    not a file's ``3/0 3/2``); anything else as the file writes it."""
    if play.kind == "move" and play.dice is not None and play.before.turn == play.player:
        after = play.result
        for legal in legal_plays(play.before.position, play.dice):
            if legal.position == after:
                return legal.notation
    return play.text


def _player(match: ImportedMatch, player: int) -> str:
    """A player's name as the file gives it, else the colour in the players' language."""
    return match.players[player] or (Phrase("White"), Phrase("Black"))[player]


def _describe(match: ImportedMatch, play: MatPlay) -> str:
    """One play of the file as the replay says it (a :class:`Phrase`: the board's language)."""
    name = _player(match, play.player)
    dice = f"{play.dice[0]}{play.dice[1]}" if play.dice else ""
    if play.kind in ("move", "illegal", "condone"):
        notation = _notation(play) or Phrase("the only play")
        if play.kind != "move":
            return Phrase("%(name)s %(dice)s: %(play)s (an illegal play, as the file gives it)", name=name, dice=dice,
                          play=notation)
        return Phrase("%(name)s %(dice)s: %(play)s", name=name, dice=dice, play=notation)
    if play.kind == "pass":
        return Phrase("%(name)s %(dice)s: no play", name=name, dice=dice)
    if play.kind == "roll":
        return Phrase("%(name)s rolls %(dice)s", name=name, dice=dice)
    if play.kind == "double":
        return Phrase("%(name)s doubles to %(cube)d", name=name, cube=play.before.cube * 2)
    if play.kind == "take":
        return Phrase("%(name)s takes", name=name)
    if play.kind == "drop":
        return Phrase("%(name)s drops", name=name)
    if play.kind == "beaver":
        return Phrase("%(name)s beavers", name=name)
    level = max(1, min(3, play.level))
    if level == 1:
        return Phrase("%(name)s resigns a single game", name=name)
    if level == 2:
        return Phrase("%(name)s resigns a gammon", name=name)
    return Phrase("%(name)s resigns a backgammon", name=name)


def replay_steps(match: ImportedMatch, grade: Callable[[MatPlay], str | None] | None = None,
                 numbering: Numbering = Numbering.OWN) -> tuple[ReplayStep, ...]:
    """Every stop of a replay of ``match`` (see the module docstring).  ``grade`` gives a
    short grade of a checker play, or ``None``.  The plays and grades (the file's and the
    engine's notation: the mover's own numbering) are said in ``numbering`` (config
    ``[match] numbering``)."""
    steps: list[ReplayStep] = []
    for game in match.games:
        if not game.plays:
            continue
        for k, play in enumerate(game.plays, start=1):
            words = Words(play.player, numbering)
            said = words.own(_describe(match, play))
            heading = Phrase("Game %(game)d, %(k)d", game=game.number, k=k)
            text = Phrase("%(heading)s: %(said)s", heading=heading, said=said)
            if grade is not None and play.kind == "move" and play.steps:
                graded = grade(play)
                if graded:
                    text = Phrase("%(heading)s: %(said)s - %(grade)s", heading=heading, said=said,
                                  grade=words.own(graded))
            shown = play.after if play.kind == "double" else play.before
            notice = Notice(text, Severity.WARNING if play.kind in ("illegal", "condone") else Severity.INFO,
                            short=said)
            steps.append(ReplayStep(game.number, play.line, _white_view(play.before),
                                    _leds(play) if play.steps else (),
                                    display_state(View(state=shown, now_ms=0, notice=notice)), text, shown, play,
                                    heading))
        last = game.plays[-1].after
        if game.winner is None:
            end = heading = Phrase("Game %(game)d has no result in the file", game=game.number)
        else:
            heading = Phrase("Game %(game)d", game=game.number)
            end = Phrase.counted("%(heading)s: %(winner)s wins %(n)d point", "%(heading)s: %(winner)s wins %(n)d points",
                                 game.points, heading=heading, winner=_player(match, game.winner))
        steps.append(ReplayStep(game.number, game.plays[-1].line, _white_view(last), (),
                                display_state(View(state=last, now_ms=0, notice=Notice(end))), end, last, None,
                                heading))
    return tuple(steps)


@dataclass
class Replayer:
    """Where a replay is: the buttons move it (roll forward, double back, drop to the next
    game's first stop); it stays put at either end."""

    steps: tuple[ReplayStep, ...]
    index: int = 0

    @property
    def current(self) -> ReplayStep:
        return self.steps[self.index]

    def press(self, button: Button) -> ReplayStep:
        if button == FORWARD:
            self.index = min(self.index + 1, len(self.steps) - 1)
        elif button == BACK:
            self.index = max(self.index - 1, 0)
        elif button == NEXT_GAME:
            game = self.current.game
            later = [i for i in range(self.index, len(self.steps)) if self.steps[i].game != game]
            if later:
                self.index = later[0]
        return self.current


@dataclass
class ReplayRoom:
    """The replay on the real board (see the module docstring): a room, with ``send`` (to
    the board) and ``show`` (to the display); the set-up guidance speaks in ``numbering``
    (config ``[match] numbering``)."""

    steps: tuple[ReplayStep, ...]
    send: Callable[[HostMessage], None]
    show: Callable[[DisplayState], None]
    numbering: Numbering = Numbering.OWN
    actions: list[Action] = field(default_factory=list)
    replayer: Replayer = field(init=False)
    observation: Observation | None = None
    laid_out: bool = False

    def __post_init__(self) -> None:
        self.replayer = Replayer(self.steps)
        self.send(SetRolling(False))
        self._refresh()

    @property
    def state(self) -> MatchState:
        return self.replayer.current.state

    @property
    def over(self) -> bool:
        """At the replay's last stop (the buttons still move back from there)."""
        return self.replayer.index == len(self.steps) - 1

    def other_side(self) -> OtherSide | None:
        """A replay is played by no one at the board: no other side."""
        return None

    def match_room(self) -> None:
        """A replay steps through a match file: it plays no match."""
        return None

    def follow(self) -> None:
        """No seats beside a replay."""

    def handle(self, event: Event) -> None:
        if isinstance(event, BoardRead):
            self.observation = event.observation
        elif isinstance(event, ButtonPressed):
            self.replayer.press(event.button)
        else:
            return
        self._refresh()

    def _refresh(self) -> None:
        step = self.replayer.current
        self.laid_out = self._fixes() == ()
        self.send(SetLeds(step.leds if self.laid_out else ()))
        self.show(self.display())

    def _fixes(self) -> tuple[Fix, ...] | None:
        """What differs from the stop's position (None: the board is not read yet)."""
        step = self.replayer.current
        return setup_fixes(self.observation, step.position) if self.observation is not None else None

    def display(self) -> DisplayState:
        """The stop once the board shows its position, else the set-up guidance towards it."""
        step = self.replayer.current
        fixes = self._fixes()
        if fixes == ():
            return step.display
        guidance = setup_message(fixes, self.numbering == Numbering.OWN) if fixes else Phrase("waiting for the board")
        text = Phrase("%(heading)s: %(guidance)s", heading=step.heading, guidance=guidance)
        notice = Notice(text, Severity.INFO, short=guidance, topic=Topic.SETUP)
        # the presenter draws the set-up diagram for a game about to start
        view = View(state=replace(step.state, phase=Phase.OPENING), now_ms=0, notice=notice,
                    observation=self.observation, start=step.position)
        return display_state(view)
