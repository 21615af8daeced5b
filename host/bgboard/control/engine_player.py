"""The other side played by an engine (pure): an :class:`~bgboard.control.other_player.OtherPlayer`
that asks an :class:`~bgboard.control.decisions.OpponentPlay` source, while the local person
carries its plays out on the board and the board checks them
(:class:`~bgboard.control.carrying.PlayCarrier`).

Whenever the match waits for that side — to double or roll, to take, pass or beaver, to play
its roll, to answer a resignation — the player asks the source a
:class:`~bgboard.control.decisions.Question`; the answer comes at once (the simulator's
synchronous engine) or later as an :class:`~bgboard.control.events.OpponentMoved` event (the
app's engine on its worker).  An answer to a question no longer asked (a takeback, a new game)
is dropped.  The source's answers press that side's buttons as a person would, so the match,
the journal, the clocks and the records are exactly those of two people at the board; the
physical buttons of that side do nothing (the display says so), except between games, when
**double** and **drop** on that side raise and lower the engine's level for the next game.

Dice (``dice``): "module" — the host tells the dice module to roll at once for that side
(ROLLING 2, docs/protocol.md; with takebacks on, :data:`TAKEBACK_GRACE_MS` later, so the
person may still take the play just made back); "person" — the display asks the person to
press the dice button for it.

Takebacks (``takebacks`` on): the person's last play may be taken back until the other side
has rolled (the room's rule); the other side's own plays are never taken back at the board.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from bgboard.language import Phrase
from bgboard.control.carrying import PlayCarrier
from bgboard.control.decisions import Answer, OpponentPlay, Question
from bgboard.control.events import BoardRead, Button, ButtonPressed, DiceRolled, Event, LinkChanged, OpponentMoved, Tick
from bgboard.control.notice import Notice, Severity
from bgboard.control.presenter import View
from bgboard.control.other_side import OtherSide
from bgboard.link.messages import SetRolling
from bgboard.match.state import Phase

if TYPE_CHECKING:
    from bgboard.control.match_table import MatchTable

__all__ = ["OPPONENT_KIND", "TAKEBACK_GRACE_MS", "EnginePlayer"]

#: Journal kind of the opponent's own rows (the level chosen between games).
OPPONENT_KIND = "opponent"
#: With takebacks on, how long the dice module waits before rolling for the other side
#: (the person may take the play just made back until then).
TAKEBACK_GRACE_MS = 3000
INFO, WARNING = Severity.INFO, Severity.WARNING


class EnginePlayer:
    """``side`` played by ``source`` (see the module docstring)."""

    def __init__(self, source: OpponentPlay, side: int = 1, dice: str = "module") -> None:
        self.source = source
        self.side = side
        self.dice = dice  # "module": the dice module rolls at once for that side; "person": the person presses it
        self.roll_at: int | None = None  # with takebacks on, the module rolls for that side at this time
        self.carrier = PlayCarrier(side, lambda: source.name)

    def open(self, table: MatchTable) -> None:
        self.carrier.table = table
        for entry in table.journal.entries():  # the level chosen between games, as journalled
            if entry.kind == OPPONENT_KIND and entry.body.get("level") in self.source.levels():
                self.source.set_level(entry.body["level"])

    @property
    def room(self) -> MatchTable:
        return self.carrier.room

    def who(self) -> OtherSide | None:
        """``side``, decided by ``source`` (its engine and level, where an engine plays it)."""
        engine, level = self.source.engine_level() or (None, None)
        return OtherSide(self.side, self.source.name, engine, level)

    @property
    def rolls_for_engine(self) -> bool:
        """The other side wants its dice rolled now (by the dice module, or the person)."""
        s, answer = self.room.state, self.carrier.answer
        return (s is not None and s.phase == Phase.TURN and s.turn == self.side and answer is not None
                and answer.choice == "roll")

    @property
    def person_rolls(self) -> bool:
        """The display asks the person here to roll the dice for the other side now."""
        return self.dice == "person" and self.rolls_for_engine

    # ------------------------------------------------------------------ the loop of questions
    def after(self, event: Event) -> None:
        """Roll for the other side when its grace is over; ask it when the match waits for it."""
        if self.roll_at is not None and (not self.rolls_for_engine or event.at_ms >= self.roll_at):
            if self.rolls_for_engine:  # no takeback came: the dice module rolls
                self.room.send(SetRolling(False, now=True))
                self.carrier.guide = Notice(Phrase("%(name)s rolls", name=self.source.name), INFO)
                self.room.refresh()
            self.roll_at = None
        self._drive(event.at_ms)

    def _question(self) -> tuple[str, int] | None:
        """What the match waits for from the other side now: (kind, resignation level)."""
        room = self.room
        s = room.state
        if s is None or room.over or room.resigning is not None:
            return None
        if s.phase == Phase.TURN and s.turn == self.side:
            return ("cube", 1) if s.may_double else ("roll", 1)
        if s.phase == Phase.DOUBLED and s.decider == self.side:
            return "take", 1
        if s.phase == Phase.PLAY and s.turn == self.side:
            return "play", 1
        if s.phase == Phase.RESIGNED and s.decider == self.side:
            return "resign", s.resign_level
        return None

    def _drive(self, at: int) -> None:
        """Ask the other side when the match waits for it (once per question)."""
        carrier, room = self.carrier, self.room
        wanted = self._question()
        if wanted is None:
            if carrier.guide is not None:
                carrier.guide, carrier.guide_back = None, ()
                room.refresh()
            return
        kind, level = wanted
        state = room.state
        assert state is not None
        key = carrier.key(kind, state)
        if key == carrier.asked:
            return
        carrier.asked, carrier.answer = key, None
        carrier.guide = Notice(Phrase("%(name)s is thinking", name=self.source.name), INFO, Phrase("thinking"))
        if kind == "roll":  # the cube cannot be turned: roll at once
            self._follow(Answer("roll"), at)
        else:
            answer = self.source.ask(Question(kind, self.side, state, key, level))
            if answer is not None:
                self._follow(answer, at)
        room.refresh()

    def on_answer(self, event: OpponentMoved) -> None:
        carrier = self.carrier
        if event.key == carrier.asked and carrier.answer is None and isinstance(event.decision, Answer):
            self._follow(event.decision, event.at_ms)

    def _follow(self, answer: Answer, at: int) -> None:
        """Carry out the other side's answer to the question asked now: press its buttons (the
        room's own handling), roll for it, or check its play on the board."""
        carrier, room, name = self.carrier, self.room, self.source.name
        carrier.answer = answer
        choice = answer.choice
        press = {"double": Button.DOUBLE, "take": Button.DOUBLE, "accept": Button.DOUBLE, "pass": Button.DROP,
                 "decline": Button.DROP, "beaver": Button.ROLL}.get(choice)
        if press is not None:
            room.press(self.side, press, at)
            carrier.guide = None
            said = {"take": Phrase("%(name)s takes", name=name), "pass": Phrase("%(name)s passes", name=name),
                    "beaver": Phrase("%(name)s beavers", name=name)}.get(choice)
            if said is not None:
                room.notice = Notice(said)
        elif choice == "roll" and self.dice == "module" and room.settings.takebacks:
            self.roll_at = at + TAKEBACK_GRACE_MS  # time to take the person's play back first
            carrier.guide = Notice(Phrase("%(name)s rolls in %(seconds)d s: put your checkers back now to take your play back",
                                          name=name, seconds=TAKEBACK_GRACE_MS // 1000), INFO,
                                   Phrase("%(name)s rolls soon", name=name))
        elif choice == "roll" and self.dice == "module":
            room.send(SetRolling(False, now=True))  # the dice module rolls at once
            carrier.guide = Notice(Phrase("%(name)s rolls", name=name), INFO)
        elif choice == "roll":
            room.press(self.side, Button.ROLL, at)
            room.notice = None
            carrier.guide = Notice(Phrase("roll the dice for %(name)s", name=name), INFO,
                                   Phrase("roll for %(name)s", name=name))
        else:  # the play
            carrier.check(at)

    # ------------------------------------------------------------------ what the room does differently
    def on_board(self, event: BoardRead, own: Callable[[BoardRead], None]) -> None:
        self.carrier.on_board(event, own)

    def on_button(self, event: ButtonPressed, own: Callable[[ButtonPressed], None]) -> None:
        """That side's buttons: done on tall stacks; its level between games; else nothing."""
        state = self.room.state
        if event.player != self.side or state is None:
            own(event)
        elif event.button == Button.ROLL and self.carrier.says_done(state, event.at_ms):
            pass
        elif state.phase in (Phase.OPENING, Phase.GAME_OVER) and event.button != Button.ROLL:
            self._change_level(+1 if event.button == Button.DOUBLE else -1, event.at_ms)
        elif state.phase in (Phase.OPENING, Phase.GAME_OVER) or self.room.over:
            own(event)  # roll: start the game (any player's roll button)
        else:
            self.room.notice = Notice(Phrase("%(name)s presses its own buttons", name=self.source.name), WARNING)

    def _change_level(self, by: int, at: int) -> None:
        """Between games: the other side's double (drop) raises (lowers) its level."""
        room, source = self.room, self.source
        levels = source.levels()
        if not levels:
            room.notice = Notice(Phrase("%(name)s has no levels to choose", name=source.name), WARNING)
            return
        index = next((i for i, name in enumerate(levels) if f"({name})" in source.name), len(levels) - 1)
        level = levels[max(0, min(len(levels) - 1, index + by))]
        room.journal.append(OPPONENT_KIND, {"level": level}, at)
        source.set_level(level)
        room.notice = Notice(Phrase("%(name)s from the next game on", name=source.name), INFO,
                             Phrase("level %(level)s", level=level))

    def on_dice(self, event: DiceRolled, own: Callable[[DiceRolled], None]) -> None:
        own(event)
        state = self.room.state
        if state is not None and not (state.phase == Phase.TURN and state.turn == self.side):
            self.room.send(SetRolling(False))

    def on_link(self, event: LinkChanged, own: Callable[[LinkChanged], None]) -> None:
        own(event)
        if event.up and self.dice == "module" and self.rolls_for_engine and self.roll_at is None:
            self.room.send(SetRolling(False, now=True))  # the roll asked while the board was away

    def on_tick(self, event: Tick, own: Callable[[Tick], None]) -> None:
        own(event)

    def message(self, own: Callable[[], Notice | None]) -> Notice | None:
        return self.carrier.message(own)

    def view(self, view: View) -> View:
        return self.carrier.view(view)
