"""The game controller: events from the board, the dice module and the buttons drive the
match state machine; every action is journalled before it takes effect.

One handler per event type (:data:`Controller.handlers`).  The controller holds no I/O of its
own: the journal, the device (``send``: host → board messages such as LEDs and rolling)
and the display (``show``: a :class:`bgboard.display.state.DisplayState`) are injected, and
time comes with the events.

Buttons (per player, hardware/pins.toml): **roll** — ask for the dice (the board's dice
button is enabled only then), or *done* after moving (press the clock), or start the next
game; **double** — offer the cube, or take an offered cube, or show the next candidate when
the board could be read as several plays; **drop** — drop an offered cube.

Done is accepted only when the board shows a complete legal play (or the roll has no
legal play and the board is untouched).  An illegal play must be corrected (USBGF "Legal
Moves", the default of every rule set): the display says why and what to put back.

Under the ``condone`` setting (the match's rule set then has ``illegal_plays="condone"``,
older practice) the opponent may instead accept an illegal play: *done* on an illegal board
(or on a play left unfinished) offers it, and the **opponent's roll button** accepts it —
the play is recorded as the board shows it (``bgboard.match.Condone``) and the opponent goes
on to roll.  Plays that are never condonable (a checker moved backwards, an illegal
bear-off, an opponent's checker moved, checkers missing) must still be corrected.  Until the
opponent accepts, the mover may still correct the board; the offer lapses as soon as the
board changes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Protocol

from bgboard.control.clock import Clock, ClockRules
from bgboard.control.events import (
    DOUBLE,
    DROP,
    ROLL,
    BoardFault,
    BoardRead,
    ButtonPressed,
    DiceRolled,
    Event,
    LinkChanged,
    Tick,
)
from bgboard.control.screen import display_state
from bgboard.errors import InputError
from bgboard.link.messages import Led, SetLeds, SetRolling
from bgboard.match import (
    Condone,
    Double,
    Drop,
    Move,
    NextGame,
    OpeningRoll,
    Pass,
    Roll,
    StartMatch,
    Take,
    action_from_dict,
    action_to_dict,
    apply,
)
from bgboard.match.state import MatchState
from bgboard.rules.position import Position
from bgboard.rules.variants import start_position
from bgboard.sense.board import Observation, Slots, board_of, describe_fixes, guess_board, position_of
from bgboard.sense.recognise import (
    Ambiguous,
    Illegal,
    Miscount,
    Moving,
    Played,
    Takeback,
    Turn,
    Unchanged,
    Verdict,
    setup_fixes,
    setup_message,
)

#: ``illegal`` settings: correct every illegal play, or let the opponent condone it.
ILLEGAL_POLICIES = ("correct", "condone")

#: LED colours (r, g, b): legal destinations, the place a checker was lifted from, wrong places.
GREEN = (0, 160, 0)
BLUE = (0, 0, 160)
RED = (160, 0, 0)


class JournalLike(Protocol):
    """What the controller needs of a journal (``bgboard.store.journal.Journal``)."""

    def append(self, kind: str, body: dict[str, Any], at_ms: int) -> int: ...

    def entries(self) -> list[Any]: ...


@dataclass(frozen=True, slots=True)
class Settings:
    """How a match is played at this board (from the config file's ``[match]`` table)."""

    length: int = 5
    rules: str = "standard"
    players: tuple[str, str] = ("White", "Black")
    variant: str | None = None
    takebacks: bool = False
    illegal: str = "correct"
    clock: ClockRules | None = None
    slots: Slots = field(default_factory=Slots)


@dataclass(frozen=True, slots=True)
class Notice:
    """A message for the players and how serious it is (info, warning, error)."""

    text: str
    severity: str = "info"
    short: str = ""  # a shorter variant for small panels ("" = none)


class Controller:
    """Drives one match (see the module docstring).

    Build it with :meth:`resume`, which replays the journal (or starts the match the
    settings describe when the journal is empty).
    """

    def __init__(
        self,
        journal: JournalLike,
        settings: Settings,
        *,
        send: Callable[[object], None] = lambda message: None,
        show: Callable[[object], None] = lambda state: None,
        hint: Callable[[Position, tuple[int, int]], str | None] | None = None,
    ) -> None:
        self.journal = journal
        self.hint = hint
        self.hint_text: str | None = None
        self.settings = settings
        self.send = send
        self.show = show
        self.actions: list[Any] = []
        self.state: MatchState | None = None
        self.history: list[tuple[Position, int]] = []
        self.clock: Clock | None = None
        self.forfeit: int | None = None
        self.observation: Observation | None = None
        self.verdict: Verdict | None = None
        self.choice = 0
        self.notice: Notice | None = None
        self.link_up = True
        self.now_ms = 0
        self.offer: tuple[Condone, tuple[int, ...], Notice] | None = None  # a play awaiting condonation
        self._turn: Turn | None = None
        self._turn_key = -1
        self.handlers: dict[type, Callable[[Any], None]] = {
            BoardRead: self._on_board,
            DiceRolled: self._on_dice,
            ButtonPressed: self._on_button,
            LinkChanged: self._on_link,
            BoardFault: self._on_fault,
            Tick: self._on_tick,
        }

    # ------------------------------------------------------------------ start / resume
    @classmethod
    def resume(cls, journal: JournalLike, settings: Settings, now_ms: int, **kwargs: Any) -> "Controller":
        """The controller standing exactly where the journal left the match."""
        controller = cls(journal, settings, **kwargs)
        controller._replay(now_ms)
        return controller

    def _replay(self, now_ms: int) -> None:
        self.now_ms = now_ms
        actions: list[Any] = []
        for entry in self.journal.entries():
            if entry.kind == "action":
                actions.append(action_from_dict(entry.body))
            elif entry.kind == "undo":
                while actions and not isinstance(actions.pop(), (Move, Pass, Condone)):
                    pass
            elif entry.kind == "clock":
                self.clock = Clock.from_dict(entry.body)
            elif entry.kind == "forfeit":
                self.forfeit = int(entry.body["loser"])
            elif entry.kind == "new":
                actions, self.clock, self.forfeit = [], None, None
        self._start_or_rebuild(actions, now_ms)

    def _start_or_rebuild(self, actions: list[Any], now_ms: int) -> None:
        if not actions:
            s = self.settings
            start = StartMatch(
                length=s.length,
                rules=s.rules,
                players=s.players,
                variant=s.variant,
                illegal_plays=None if s.illegal == "correct" else s.illegal,
            )
            self._act(start, now_ms)
            if s.clock is not None:
                self._set_clock(Clock.set(s.clock, s.length), now_ms)
        else:
            self._rebuild(actions)
            if self.clock is not None:
                self.clock = self.clock.resumed(now_ms)
                runner = self._runner()
                if self.clock.running != runner:  # killed between an action and its clock entry
                    self._clock_to(runner, now_ms)
            elif self.settings.clock is not None and self.state is not None:  # killed before it was set
                self._set_clock(Clock.set(self.settings.clock, self.state.length, self.state.score), now_ms)
        self._refresh()

    def _rebuild(self, actions: list[Any]) -> None:
        state: MatchState | None = None
        history: list[tuple[Position, int]] = []
        for action in actions:
            state = apply(state, action)
            history = self._track(history, action, state)
        self.actions = actions
        self.state = state
        self.history = history

    @staticmethod
    def _track(history: list[tuple[Position, int]], action: Any, state: MatchState) -> list[tuple[Position, int]]:
        """Turn-start positions of the current game (for takebacks)."""
        if isinstance(action, (NextGame, StartMatch)):
            return []
        if isinstance(action, (Roll, OpeningRoll)) and state.phase == "play" and state.turn is not None:
            return history + [(state.position, state.turn)]
        return history

    # ------------------------------------------------------------------ the one entry point
    def handle(self, event: Event) -> None:
        """Act on one event (its one handler), then refresh the display."""
        self.now_ms = event.at_ms
        self.handlers[type(event)](event)
        self._refresh()

    # ------------------------------------------------------------------ actions
    def _act(self, action: Any, at_ms: int) -> bool:
        """Check ``action`` against the match, journal it, then let it take effect.
        A refused action becomes a notice (one sentence) and changes nothing."""
        try:
            after = apply(self.state, action)
        except InputError as exc:
            self.notice = Notice(str(exc), "warning")
            return False
        self.journal.append("action", action_to_dict(action), at_ms)
        self.actions.append(action)
        self.state = after
        self.history = self._track(self.history, action, after)
        self.verdict = None
        self.choice = 0
        self.notice = None
        self.offer = None
        return True

    def _set_clock(self, clock: Clock, at_ms: int) -> None:
        self.journal.append("clock", clock.to_dict(), at_ms)
        self.clock = clock

    def _clock_to(self, player: int | None, at_ms: int) -> None:
        if self.clock is None:
            return
        clock = self.clock.stop(at_ms) if player is None else self.clock.start(player, at_ms)
        self._set_clock(clock, at_ms)

    def _runner(self) -> int | None:
        """Whose clock should run in the current phase."""
        state = self.state
        if state is None or state.phase in ("opening", "game_over", "match_over"):
            return None
        return state.decider if state.phase == "doubled" else state.turn

    @property
    def over(self) -> bool:
        """The match is over (won, or lost on time)."""
        return self.forfeit is not None or (self.state is not None and self.state.phase == "match_over")

    # ------------------------------------------------------------------ handlers
    def _on_board(self, event: BoardRead) -> None:
        self.observation = event.observation
        state = self.state
        if state is None or self.over:
            return
        if state.phase == "play":
            turn = self.turn()
            self.verdict = turn.recognise(event.observation) if turn else None
            self.choice = 0
            self.notice = None
            if self.offer is not None and self.offer[1] != event.observation.codes:
                self.offer = None  # the board changed: the offer lapses
            self._leds()
        elif state.phase == "turn" and self.settings.takebacks and self.history:
            self._maybe_takeback(event)

    def _maybe_takeback(self, event: BoardRead) -> None:
        last = self.actions[-1] if self.actions else None
        if not isinstance(last, (Move, Pass, Condone)) or not self.history:
            return
        position, colour = self.history[-1]
        if event.observation.codes != Observation.of_board(board_of(position, colour), self.settings.slots).codes:
            return
        self.journal.append("undo", {"action": action_to_dict(last)}, event.at_ms)
        actions = list(self.actions)
        actions.pop()
        self._rebuild(actions)
        self.notice = Notice("play taken back: play the roll again")
        self.verdict = None
        if self.clock is not None and self.state is not None and self.state.turn is not None:
            self._clock_to(self.state.turn, event.at_ms)

    def _on_dice(self, event: DiceRolled) -> None:
        state = self.state
        self.send(SetRolling(False))
        if state is None or self.over:
            return
        if state.phase == "opening":
            if self._act(OpeningRoll(event.dice), event.at_ms):
                assert self.state is not None
                if self.state.phase == "opening":
                    self.notice = Notice(f"both rolled {event.dice[0]}: roll again")
                elif self.state.turn is not None:
                    self._clock_to(self.state.turn, event.at_ms)
                    self.turn()
        elif state.phase == "turn":
            if self._act(Roll(event.dice), event.at_ms):
                self.turn()  # build the recognition context now, before the first reading
        else:
            self.notice = Notice("it is not time to roll: these dice do not count", "warning")

    def _on_button(self, event: ButtonPressed) -> None:
        state = self.state
        if state is None:
            return
        if self.over:
            if event.button == ROLL:  # a new match at the same board
                self.journal.append("new", {}, event.at_ms)
                self.actions, self.clock, self.forfeit, self.history = [], None, None, []
                self.state = None
                self._start_or_rebuild([], event.at_ms)
            return
        player, button, at = event.player, event.button, event.at_ms
        phase = state.phase
        if button == ROLL:
            if phase == "opening" or (phase == "turn" and player == state.turn):
                self.send(SetRolling(True))
                self.notice = Notice("roll the dice")
            elif phase == "play" and player == state.turn:
                self._done(at)
            elif phase == "play" and self.offer is not None:
                self._accept_offer(at)
            elif phase == "game_over":
                self._next_game(at)
            else:
                self.notice = Notice("it is not your turn", "warning")
        elif button == DOUBLE:
            if phase == "turn" and player == state.turn:
                if self._act(Double(player=player), at):
                    self._clock_to(1 - player, at)
            elif phase == "doubled" and player == state.decider:
                if self._act(Take(player=player), at):
                    self._clock_to(1 - player, at)
            elif phase == "play" and player == state.turn and isinstance(self.verdict, Ambiguous):
                self.choice = (self.choice + 1) % len(self.verdict.plays)
            else:
                self.notice = Notice("you cannot double now", "warning")
        elif button == DROP:
            if phase == "doubled" and player == state.decider:
                if self._act(Drop(player=player), at):
                    self._after_game(at)
            else:
                self.notice = Notice("there is no double to drop", "warning")
        else:
            raise ValueError(f"unknown button {button!r}")

    def _done(self, at: int) -> None:
        verdict = self.verdict
        state = self.state
        assert state is not None
        if verdict is None and self.observation is None:
            self.notice = Notice("the board cannot be read: check the board's cable", "error")
            return
        if verdict is None:
            turn = self.turn()
            verdict = turn.recognise(self.observation) if turn and self.observation else None
        if isinstance(verdict, Played):
            action: Any = Move.of(verdict.play)
        elif isinstance(verdict, Ambiguous):
            action = Move.of(verdict.plays[self.choice % len(verdict.plays)])
        elif isinstance(verdict, Unchanged) and verdict.no_play:
            action = Pass()
        elif isinstance(verdict, Unchanged):
            self.notice = Notice("move your checkers first", "warning")
            return
        elif isinstance(verdict, Moving) and not (verdict.lifted is None and self._condoning()):
            self.notice = Notice("finish your play first", "warning")
            return
        elif isinstance(verdict, Moving):
            assert state.dice is not None
            self._offer(f"not all of the {state.dice[0]}-{state.dice[1]} is played", ())
            return
        elif isinstance(verdict, Illegal) and self._condoning():
            self._offer(verdict.reason, verdict.fixes)
            return
        elif isinstance(verdict, Illegal):
            self.notice = Notice(verdict.message, "error", verdict.reason)
            return
        elif isinstance(verdict, Miscount):
            self.notice = Notice(verdict.reason, "error")
            return
        else:  # Takeback during a play: the board shows an older position
            self.notice = Notice("the board shows an earlier position: play the roll", "warning")
            return
        mover = state.turn
        if self._act(action, at):
            self._after_game(at) if self.state and self.state.phase in ("game_over", "match_over") else (
                self._clock_to(None if mover is None else 1 - mover, at)
            )

    # ------------------------------------------------------------------ condoning
    def _condoning(self) -> bool:
        """The match lets the opponent condone an illegal play."""
        return self.state is not None and self.state.rules.illegal_plays == "condone"

    def _offer(self, reason: str, fixes: tuple[Any, ...]) -> None:
        """Done on an illegal board under ``condone``: offer the play to the opponent, or
        say why it can never be condoned and what to put back.  ``reason``: why the play is
        illegal; ``fixes``: what to put back to undo it."""
        state, observation, turn = self.state, self.observation, self.turn()
        assert state is not None and state.turn is not None
        guess = guess_board(observation, state.checkers, turn.start) if observation and turn else None
        if observation is None or turn is None or guess is None:
            self.notice = Notice("the board cannot be read as a whole board: correct the play", "error")
            return
        action = Condone.of(position_of(guess, state.turn))
        try:
            apply(state, action)
        except InputError as exc:
            back = f": put back {describe_fixes(fixes)}" if fixes else ""
            self.notice = Notice(f"{exc}{back}", "error", str(exc))
            return
        opponent = state.players[1 - state.turn]
        back = f", or put back {describe_fixes(fixes)}" if fixes else ", or finish it"
        notice = Notice(
            f"{reason}: {opponent} may accept the play as it stands by pressing roll{back}",
            "warning",
            f"{reason}: {opponent}, roll to accept",
        )
        self.offer = (action, observation.codes, notice)
        self.notice = notice

    def _accept_offer(self, at: int) -> None:
        """The opponent pressed roll: the offered play is condoned and the opponent rolls."""
        assert self.offer is not None and self.state is not None
        action, codes, _ = self.offer
        if self.observation is None or self.observation.codes != codes:
            self.offer = None
            self.notice = Notice("the board changed: the play was not accepted", "warning")
            return
        mover = self.state.turn
        if not self._act(action, at):
            return
        if self.state.phase in ("game_over", "match_over"):
            self._after_game(at)
            self.notice = Notice("illegal play condoned: the game is over")
            return
        self._clock_to(None if mover is None else 1 - mover, at)
        self.send(SetRolling(True))
        self.notice = Notice("illegal play condoned: roll the dice", "info", "condoned: roll")

    def _after_game(self, at: int) -> None:
        self._clock_to(None, at)
        self.send(SetLeds(()))

    def _next_game(self, at: int) -> None:
        state = self.state
        assert state is not None
        if self.observation is not None:
            fixes = setup_fixes(self.observation, self._start(), self.settings.slots)
            if fixes:
                self.notice = Notice(setup_message(fixes), "warning", "set up the board")
                return
        self._act(NextGame(), at)

    def _on_link(self, event: LinkChanged) -> None:
        self.link_up = event.up
        short = "board connected" if event.up else "board not connected"
        self.notice = Notice(event.text, "info" if event.up else "error", short)
        if not event.up:
            self.observation = None
            self.verdict = None

    def _on_fault(self, event: BoardFault) -> None:
        self.notice = Notice(event.text, "error")

    def _on_tick(self, event: Tick) -> None:
        if self.clock is None or self.over:
            return
        loser = self.clock.flagged(event.at_ms)
        if loser is not None:
            self.journal.append("forfeit", {"loser": loser}, event.at_ms)
            self.forfeit = loser
            self._clock_to(None, event.at_ms)

    # ------------------------------------------------------------------ derived
    def _start(self) -> Position:
        state = self.state
        variant = state.rules.variant if state is not None else "standard"
        return start_position(variant)

    def turn(self) -> Turn | None:
        """The recognition context of the roll being played (None outside the play phase)."""
        state = self.state
        if state is None or state.phase != "play" or state.dice is None or state.turn is None:
            return None
        key = len(self.actions)
        if self._turn is None or self._turn_key != key:
            self._turn = Turn(
                state.position,
                state.dice,
                state.turn,
                checkers=state.checkers,
                slots=self.settings.slots,
                history=self.history[:-1],
            )
            self._turn_key = key
            self.hint_text = self.hint(state.position, state.dice) if self.hint is not None else None
        return self._turn

    def _leds(self) -> None:
        verdict = self.verdict
        leds: list[Led] = []
        if isinstance(verdict, Moving):
            if verdict.lifted is not None:
                leds.append(Led(verdict.lifted - 1, BLUE))
            leds += [Led(p - 1, GREEN) for p in verdict.destinations]
        elif isinstance(verdict, (Illegal, Miscount)):
            leds += [Led(f.place - 1, RED) for f in verdict.fixes]
        self.send(SetLeds(tuple(leds)))

    def message(self) -> Notice | None:
        """What the display says now."""
        if self.forfeit is not None:
            names = self.state.players if self.state else ("White", "Black")
            return Notice(f"{names[self.forfeit]} ran out of time: {names[1 - self.forfeit]} wins the match", "error")
        if self.notice is not None:
            return self.notice
        if not self.link_up:
            return Notice("the board is not connected", "error")
        state = self.state
        verdict = self.verdict
        if state is None:
            return None
        if state.phase == "play":
            if self.offer is not None:
                return self.offer[2]
            if isinstance(verdict, Played):
                return Notice(f"{verdict.play.notation}: press done")
            if isinstance(verdict, Ambiguous):
                play = verdict.plays[self.choice % len(verdict.plays)]
                return Notice(f"{play.notation}? press done, or double for another reading", "info", f"{play.notation}?")
            if isinstance(verdict, Illegal):
                return Notice(verdict.message, "error", verdict.reason)
            if isinstance(verdict, Miscount):
                return Notice(verdict.reason, "error")
            if isinstance(verdict, Takeback):
                return Notice("the board shows an earlier position: play the roll", "warning")
            if isinstance(verdict, Unchanged) and verdict.no_play:
                return Notice("no legal play: press done")
        if state.phase in ("opening", "game_over") and self.observation is not None:
            fixes = setup_fixes(self.observation, self._start(), self.settings.slots)
            if fixes:
                return Notice(setup_message(fixes), "warning", "set up the board")
        return None

    def _refresh(self) -> None:
        if self.state is not None:
            self.show(display_state(self))
