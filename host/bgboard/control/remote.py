"""The other side played by a person at another board (pure; docs/remote.md).

:class:`RemoteRoom` is the :class:`~bgboard.control.opponent_room.OpponentRoom` whose
other side is a person at another board.  Both boards hold the same match log; each action
is made at exactly one board — the board of the player whose decision it is (the roller's
board rolls, the doubler's doubles, the mover's records its play) and, for what belongs to
no player (the opening roll, the next game), White's board — and reaches the other board as
a journalled message (:class:`RemotePeer` keeps them by their index in the log: ``inbox``).

When the match waits for the other side and its action is in the inbox, the controller takes
it as that board's person would have at this board: a roll is the other board's dice (this
board's dice module stays off), a cube action or a resignation presses that side's buttons,
and a play is shown and checked exactly as the engine's is — named in the person's numbering,
lit step by step, recorded when this board shows it, put-back guidance for anything else.
Every action taken must be the very action the other board made; anything else (another
match's start, an action of the wrong side, an illegal play) stops the match at this board
with one sentence, never a guess.  Clocks: both run at both boards; a play made at the other
board stops its player's clock here as soon as it arrives (the person here carries it out on
their own time), and each board judges only its own player's time — a loss on time is sent to
the other board as the log's last entry (``{"type": "forfeit", "loser": n}``).  The other side's buttons do nothing here, nor this board's
dice for the other side; takebacks and condoned plays are off in a remote match.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bgboard.language import Phrase
from bgboard.control.controller import Controller
from bgboard.control.events import Button, ButtonPressed, DiceRolled, OpponentMoved
from bgboard.control.notice import Notice, Severity
from bgboard.control.opponent_room import Answer, OpponentRoom
from bgboard.link.messages import SetRolling
from bgboard.match import Move, Pass
from bgboard.match.actions import Action, NextGame, Resign, action_from_dict, action_to_dict
from bgboard.match.rule_errors import MatchRecordError
from bgboard.match.state import Phase

__all__ = ["FORFEIT", "RemotePeer", "RemoteRoom", "author"]

INFO, WARNING, ERROR = Severity.INFO, Severity.WARNING, Severity.ERROR
#: The move log's entry for a player who lost on time, after the last action (not a match action).
FORFEIT = "forfeit"


@dataclass
class RemotePeer:
    """The other board as an :class:`~bgboard.control.opponent_room.OpponentPlay`: its actions by
    their index in the match log (``inbox``), whether the link to it is up, and what stopped
    the match (``problem``, one sentence)."""

    name: str
    inbox: dict[int, dict[str, Any]] = field(default_factory=dict)
    online: bool | None = None  # None: not connected yet (nothing to say)
    problem: str | None = None
    refused: bool = False  # the problem is the broker refusing this board's login (the machine's, not the match's)

    def ask(self, question: Any) -> Answer | None:
        return None  # the other board's answers come as messages

    def levels(self) -> tuple[str, ...]:
        return ()

    def set_level(self, level: str) -> None:
        return None

    def engine_level(self) -> tuple[str, str] | None:
        return None  # a person at the other board


def author(state: Any, action: Action) -> int | None:
    """The player whose board makes ``action`` in ``state`` (None: the match's start, made
    at both boards)."""
    if action.kind == "start":
        return None
    if action.kind in ("opening", "next"):
        return 0  # White's board starts each game
    return state.decider


class RemoteRoom(OpponentRoom):
    """The match room with ``side`` played at another board (see the module docstring)."""

    def __init__(self, journal: Any, settings: Any, *, opponent: RemotePeer, side: int = 1, **kwargs: Any) -> None:
        super().__init__(journal, settings, opponent=opponent, side=side, dice="remote", **kwargs)
        self.peer = opponent

    # ------------------------------------------------------------------ the other board's actions
    def _drive(self, at: int) -> None:
        """Take the other board's actions that are due, in the log's order."""
        while self.peer.problem is None and not self.over:
            n = len(self.actions)
            body = self.peer.inbox.get(n)
            if body is None or not self._take(n, body, at):
                break
        self._waiting()
        self._refresh()

    def _waiting(self) -> None:
        """What the display says while the match waits for the other board."""
        state, name = self.state, self.opponent.name
        if self.peer.problem is not None:
            self.guide = Notice(self.peer.problem, ERROR, "remote match stopped")
            return
        waits = state is not None and not self.over and (
            state.decider == self.side or (state.phase in (Phase.OPENING, Phase.GAME_OVER) and self.side == 0))
        if not waits:
            if self.guide is not None and self.answer is None:
                self.guide, self.guide_back = None, ()
            return
        if self.answer is not None and state is not None and self.asked == self._key("play", state):
            return  # its play is being carried out here: the guide says how
        down = self.peer.online is False
        phase = state.phase if state is not None else Phase.OPENING
        if phase == Phase.OPENING:
            doing = Phrase("%(name)s rolls the opening at their board", name=name)
        elif phase == Phase.GAME_OVER:
            doing = Phrase("%(name)s starts the next game at their board", name=name)
        else:
            doing = Phrase("%(name)s plays at their board", name=name)
        text = Phrase("%(doing)s (the link to the other board is down: it catches up when back)", doing=doing) if down else doing
        self.guide = Notice(text, WARNING if down else INFO, Phrase("waiting for %(name)s", name=name))

    def _stop(self, text: str) -> bool:
        self.peer.problem = text
        self.send(SetRolling(False))
        return False

    def _take(self, n: int, body: dict[str, Any], at: int) -> bool:
        """Take action ``n`` of the other board; False when it is not recorded (yet)."""
        state = self.state
        assert state is not None
        if body.get("type") == FORFEIT:  # the other board's player lost on time there
            if body.get("loser") != self.side:
                return self._stop("the other board says this board's player lost on time: only this board judges that")
            self.journal.append("forfeit", {"loser": self.side}, at)
            self.session.forfeit = self.side
            self.session.clock_to(None, at)
            self.notice = Notice(Phrase("%(name)s lost on time at their board", name=self.opponent.name))
            return True
        try:
            action = action_from_dict(body)
        except MatchRecordError:
            return self._stop(f"the other board sent action {n} that is not a match action")
        if author(state, action) != self.side:
            return self._stop(f"the other board sent a {action.kind} as action {n}, but it is not theirs to make now: "
                              "the boards disagree, the match stops here")
        if isinstance(action, (Move, Pass)):
            return self._play(action, at)
        done = len(self.actions)
        side = self.side
        kind = action.kind
        if kind in ("opening", "roll"):
            Controller._on_dice(self, DiceRolled(action.dice, 0, at))  # type: ignore[union-attr]
        elif kind == "double":
            self._press(Button.DOUBLE, at)
        elif kind in ("take", "accept"):
            self._press(Button.DOUBLE, at)
        elif kind in ("drop", "reject"):
            self._press(Button.DROP, at)
        elif kind == "beaver":
            self._press(Button.ROLL, at)
        elif isinstance(action, Resign):
            if self._act(Resign(action.level, player=side), at):
                self.session.clock_to(1 - side, at)
        elif isinstance(action, NextGame):
            self._act(NextGame(), at)
        if len(self.actions) != done + 1 or action_to_dict(self.actions[-1]) != action_to_dict(action):
            return self._stop(f"this board cannot take the other board's {kind} (action {n}): "
                              f"{self.notice.text if self.notice else 'the match here differs'}")
        self.notice = self._said(action)
        return True

    def _said(self, action: Action) -> Notice | None:
        name = self.opponent.name
        said = {"double": f"{name} doubles", "take": f"{name} takes", "drop": f"{name} passes",
                "beaver": f"{name} beavers", "accept": f"{name} accepts the resignation",
                "reject": f"{name} declines the resignation: play on"}.get(action.kind)
        if isinstance(action, Resign):
            said = f"{name} resigns {('a single game', 'a gammon', 'a backgammon')[action.level - 1]}"
        if action.kind == "roll":
            dice = action.dice  # type: ignore[union-attr]
            said = f"{name} rolls {max(dice)}-{min(dice)}"  # (as the terminal and the rest say a roll: higher first)
        elif action.kind == "opening":
            names = self.state.players if self.state is not None else ("White", "Black")
            said = f"opening roll: {names[0]} {action.dice[0]}, {names[1]} {action.dice[1]}"  # type: ignore[union-attr]
        return Notice(said) if said else None

    def _play(self, action: Move | Pass, at: int) -> bool:
        """The other board's play: shown, lit and checked here until this board shows it."""
        state = self.state
        assert state is not None and state.dice is not None
        key = self._key("play", state)
        if self.asked != key:
            steps = action.steps if isinstance(action, Move) else ()
            from bgboard.rules import legal_plays

            plays = legal_plays(state.position, state.dice)
            found = next((p for p in plays if tuple((int(s.frm), int(s.to)) for s in p.steps) == steps), None)
            if found is None and (steps or plays):
                return self._stop(f"the other board's play {steps} is not a legal play of "
                                  f"{state.dice[0]}-{state.dice[1]} here: the boards disagree, the match stops here")
            self.asked, self.answer = key, Answer("play", steps, found.notation if found is not None else "")
            self.session.clock_to(1 - self.side, at)  # made at their board: their clock stopped there
            done = len(self.actions)
            self._check_board(at)
            return len(self.actions) > done
        return False

    def _record(self, action: Any, before: Any, at: int) -> None:
        super()._record(action, before, at)
        if len(self.actions) and self.state is not before:
            self.answer = None  # that play is done: none is being carried out now

    # ------------------------------------------------------------------ what this board does differently
    def _on_answer(self, event: OpponentMoved) -> None:
        return None  # a message came in: handle() then takes what is due

    def _on_button(self, event: ButtonPressed) -> None:
        state = self.state
        if state is None:
            return
        name = self.opponent.name
        if self.over:
            self.notice = Notice(Phrase("the remote match is over: start another with both boards"), WARNING)
            return
        starting = state.phase in (Phase.OPENING, Phase.GAME_OVER)
        if event.player == self.side and not starting:
            if state.phase == Phase.PLAY and state.turn == self.side and event.button == Button.ROLL and self.blind:
                super()._on_button(event)  # tall stacks: the person says the other side's play is done
                return
            self.notice = Notice(Phrase("%(name)s plays at their own board: these buttons do nothing here", name=name), WARNING)
            return
        if starting and self.side == 0:
            if state.phase == Phase.OPENING:
                self.notice = Notice(Phrase("%(name)s starts the opening at their board", name=name), WARNING)
            else:
                self.notice = Notice(Phrase("%(name)s starts the next game at their board", name=name), WARNING)
            return
        Controller._on_button(self, event)

    def _on_dice(self, event: DiceRolled) -> None:
        state = self.state
        theirs = state is not None and ((state.phase == Phase.TURN and state.turn == self.side)
                                        or (state.phase == Phase.OPENING and self.side == 0))
        if theirs:
            self.send(SetRolling(False))
            self.notice = Notice(Phrase("these dice do not count: %(name)s rolls at their board", name=self.opponent.name), WARNING)
            return
        Controller._on_dice(self, event)
        self.send(SetRolling(False))

    def _on_link(self, event: Any) -> None:
        Controller._on_link(self, event)

    def _on_tick(self, event: Any) -> None:
        clock = self.session.clock
        if clock is not None and clock.running == self.side:
            return  # the other board judges its own player's time, and says so (a forfeit message)
        Controller._on_tick(self, event)

    def message(self) -> Notice | None:
        if self.peer.problem is not None:
            return Notice(self.peer.problem, ERROR, Phrase("remote match stopped"))
        said = super().message()
        if said is None and self.peer.online is False and not self.over:
            return Notice(Phrase("the other board is not reachable: play on, your moves go to it when the link is back"),
                          WARNING, Phrase("other board offline"))
        return said
