"""The other side played by a person at another board (pure; docs/remote.md).

:class:`RemotePlayer` is the :class:`~bgboard.control.other_player.OtherPlayer` of a match
room whose other side is a person at another board.  Both boards hold the same match log;
each action is made at exactly one board — the board of the player whose decision it is (the roller's
board rolls, the doubler's doubles, the mover's records its play) and, for what belongs to
no player (the opening roll, the next game), White's board — and reaches the other board as
a journalled message (:class:`RemotePeer` keeps them by their index in the log: ``inbox``).

When the match waits for the other side and its action is in the inbox, the room takes
it as that board's person would have at this board: a roll is the other board's dice (this
board's dice module stays off), a cube action or a resignation presses that side's buttons,
and a play is shown and checked exactly as the engine's is
(:class:`~bgboard.control.carrying.PlayCarrier`) — named in the person's numbering,
lit step by step, recorded when this board shows it, put-back guidance for anything else.
Every action taken must be the very action the other board made; anything else (another
match's start, an action of the wrong side, an illegal play) stops the match at this board
with one sentence, never a guess.  Clocks: both run at both boards; a play made at the other
board stops its player's clock here as soon as it arrives (the person here carries it out on
their own time), and each board judges only its own player's time — a loss on time is sent to
the other board as the log's last entry (``{"type": "forfeit", "loser": n}``).  The other
side's buttons do nothing here, nor this board's dice for the other side; takebacks and condoned plays are off in a remote match.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable

from bgboard.language import Phrase
from bgboard.control.carrying import PlayCarrier
from bgboard.control.decisions import Answer
from bgboard.control.events import BoardRead, Button, ButtonPressed, DiceRolled, Event, LinkChanged, OpponentMoved, Tick
from bgboard.control.notice import Notice, Severity
from bgboard.control.presenter import View
from bgboard.control.other_side import OtherSide
from bgboard.link.messages import SetRolling
from bgboard.match import Move, OpeningRoll, Pass, Roll
from bgboard.match.actions import Action, NextGame, Resign, action_from_dict, action_to_dict
from bgboard.match.rule_errors import MatchRecordError
from bgboard.match.state import MatchState, Phase

if TYPE_CHECKING:
    from bgboard.control.match_table import MatchTable

__all__ = ["FORFEIT", "RemotePeer", "RemotePlayer", "author"]

INFO, WARNING, ERROR = Severity.INFO, Severity.WARNING, Severity.ERROR
#: The move log's entry for a player who lost on time, after the last action (not a match action).
FORFEIT = "forfeit"
#: The button of that side each of the other board's cube actions presses here.
PRESSES = {"double": Button.DOUBLE, "take": Button.DOUBLE, "accept": Button.DOUBLE, "drop": Button.DROP,
           "reject": Button.DROP, "beaver": Button.ROLL}


@dataclass
class RemotePeer:
    """The other board: its actions by their index in the match log (``inbox``, each a
    journalled message's JSON body), whether the link to it is up, and what stopped the match
    (``problem``, one sentence)."""

    name: str
    inbox: dict[int, dict[str, Any]] = field(default_factory=dict)
    online: bool | None = None  # None: not connected yet (nothing to say)
    problem: str | None = None
    refused: bool = False  # the problem is the broker refusing this board's login (the machine's, not the match's)


def author(state: MatchState, action: Action) -> int | None:
    """The player whose board makes ``action`` in ``state`` (None: the match's start, made
    at both boards)."""
    if action.kind == "start":
        return None
    if action.kind in ("opening", "next"):
        return 0  # White's board starts each game
    return state.decider


class RemotePlayer:
    """``side`` played at another board, whose actions ``peer`` brings (see the module docstring)."""

    def __init__(self, peer: RemotePeer, side: int = 1) -> None:
        self.peer = peer
        self.side = side
        self.carrier = PlayCarrier(side, lambda: peer.name, forget=True)

    def open(self, table: MatchTable) -> None:
        self.carrier.table = table

    @property
    def room(self) -> MatchTable:
        return self.carrier.room

    def who(self) -> OtherSide | None:
        return OtherSide(self.side, self.peer.name)  # a person at the other board: no engine

    @property
    def person_rolls(self) -> bool:
        return False  # the other board rolls its own dice

    # ------------------------------------------------------------------ the other board's actions
    def after(self, event: Event) -> None:
        """Take the other board's actions that are due, in the log's order."""
        at = event.at_ms
        while self.peer.problem is None and not self.room.over:
            n = len(self.room.actions)
            body = self.peer.inbox.get(n)
            if body is None or not self._take(n, body, at):
                break
        self._waiting()
        self.room.refresh()

    def _waiting(self) -> None:
        """What the display says while the match waits for the other board."""
        room, carrier, name = self.room, self.carrier, self.peer.name
        state = room.state
        if self.peer.problem is not None:
            carrier.guide = Notice(self.peer.problem, ERROR, "remote match stopped")
            return
        waits = state is not None and not room.over and (
            state.decider == self.side or (state.phase in (Phase.OPENING, Phase.GAME_OVER) and self.side == 0))
        if not waits:
            if carrier.guide is not None and carrier.answer is None:
                carrier.guide, carrier.guide_back = None, ()
            return
        if carrier.answer is not None and state is not None and carrier.asked == carrier.key("play", state):
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
        carrier.guide = Notice(text, WARNING if down else INFO, Phrase("waiting for %(name)s", name=name))

    def _stop(self, text: str) -> bool:
        self.peer.problem = text
        self.room.send(SetRolling(False))
        return False

    def _forfeit(self, body: dict[str, Any], at: int) -> bool:
        """The other board's player lost on time there (the log's last entry)."""
        room = self.room
        if body.get("loser") != self.side:
            return self._stop("the other board says this board's player lost on time: only this board judges that")
        room.journal.append("forfeit", {"loser": self.side}, at)
        room.session.forfeit = self.side
        room.session.clock_to(None, at)
        room.notice = Notice(Phrase("%(name)s lost on time at their board", name=self.peer.name))
        return True

    def _take(self, n: int, body: dict[str, Any], at: int) -> bool:
        """Take action ``n`` of the other board; False when it is not recorded (yet)."""
        room = self.room
        state = room.state
        assert state is not None
        if body.get("type") == FORFEIT:
            return self._forfeit(body, at)
        try:
            action = action_from_dict(body)
        except MatchRecordError:
            return self._stop(f"the other board sent action {n} that is not a match action")
        if author(state, action) != self.side:
            return self._stop(f"the other board sent a {action.kind} as action {n}, but it is not theirs to make now: "
                              "the boards disagree, the match stops here")
        if isinstance(action, (Move, Pass)):
            return self._play(action, at)
        done, kind = len(room.actions), action.kind
        if isinstance(action, (OpeningRoll, Roll)):
            room.roll(DiceRolled(action.dice, 0, at))
        elif kind in PRESSES:
            room.press(self.side, PRESSES[kind], at)
        elif isinstance(action, Resign):
            if room.act(Resign(action.level, player=self.side), at):
                room.session.clock_to(1 - self.side, at)
        elif isinstance(action, NextGame):
            room.act(NextGame(), at)
        if len(room.actions) != done + 1 or action_to_dict(room.actions[-1]) != action_to_dict(action):
            return self._stop(f"this board cannot take the other board's {kind} (action {n}): "
                              f"{room.notice.text if room.notice else 'the match here differs'}")
        room.notice = self._said(action)
        return True

    def _said(self, action: Action) -> Notice | None:
        name = self.peer.name
        said = {"double": f"{name} doubles", "take": f"{name} takes", "drop": f"{name} passes",
                "beaver": f"{name} beavers", "accept": f"{name} accepts the resignation",
                "reject": f"{name} declines the resignation: play on"}.get(action.kind)
        if isinstance(action, Resign):
            said = f"{name} resigns {('a single game', 'a gammon', 'a backgammon')[action.level - 1]}"
        if isinstance(action, Roll):
            said = f"{name} rolls {max(action.dice)}-{min(action.dice)}"  # (as the terminal and the rest say a roll: higher first)
        elif isinstance(action, OpeningRoll):
            state = self.room.state
            names = state.players if state is not None else ("White", "Black")
            said = f"opening roll: {names[0]} {action.dice[0]}, {names[1]} {action.dice[1]}"
        return Notice(said) if said else None

    def _play(self, action: Move | Pass, at: int) -> bool:
        """The other board's play: shown, lit and checked here until this board shows it."""
        room, carrier = self.room, self.carrier
        state = room.state
        assert state is not None and state.dice is not None
        key = carrier.key("play", state)
        if carrier.asked == key:
            return False
        steps = action.steps if isinstance(action, Move) else ()
        from bgboard.rules import legal_plays

        plays = legal_plays(state.position, state.dice)
        found = next((p for p in plays if tuple((int(s.frm), int(s.to)) for s in p.steps) == steps), None)
        if found is None and (steps or plays):
            return self._stop(f"the other board's play {steps} is not a legal play of "
                              f"{state.dice[0]}-{state.dice[1]} here: the boards disagree, the match stops here")
        carrier.asked, carrier.answer = key, Answer("play", steps, found.notation if found is not None else "")
        room.session.clock_to(1 - self.side, at)  # made at their board: their clock stopped there
        done = len(room.actions)
        carrier.check(at)
        return len(room.actions) > done

    # ------------------------------------------------------------------ what this board does differently
    def on_answer(self, event: OpponentMoved) -> None:
        return None  # a message came in: after() then takes what is due

    def on_board(self, event: BoardRead, own: Callable[[BoardRead], None]) -> None:
        self.carrier.on_board(event, own)

    def on_button(self, event: ButtonPressed, own: Callable[[ButtonPressed], None]) -> None:
        """That side's buttons do nothing here (but say done on tall stacks); White's board
        starts each game."""
        room = self.room
        state, name = room.state, self.peer.name
        if state is None:
            return
        if room.over:
            room.notice = Notice(Phrase("the remote match is over: start another with both boards"), WARNING)
            return
        starting = state.phase in (Phase.OPENING, Phase.GAME_OVER)
        if event.player == self.side and not starting:
            if event.button == Button.ROLL and self.carrier.says_done(state, event.at_ms):
                return  # tall stacks: the person says the other side's play is done
            room.notice = Notice(Phrase("%(name)s plays at their own board: these buttons do nothing here", name=name), WARNING)
        elif starting and self.side == 0:
            if state.phase == Phase.OPENING:
                room.notice = Notice(Phrase("%(name)s starts the opening at their board", name=name), WARNING)
            else:
                room.notice = Notice(Phrase("%(name)s starts the next game at their board", name=name), WARNING)
        else:
            own(event)

    def on_dice(self, event: DiceRolled, own: Callable[[DiceRolled], None]) -> None:
        state = self.room.state
        theirs = state is not None and ((state.phase == Phase.TURN and state.turn == self.side)
                                        or (state.phase == Phase.OPENING and self.side == 0))
        if theirs:
            self.room.send(SetRolling(False))
            self.room.notice = Notice(Phrase("these dice do not count: %(name)s rolls at their board",
                                             name=self.peer.name), WARNING)
            return
        own(event)
        self.room.send(SetRolling(False))

    def on_link(self, event: LinkChanged, own: Callable[[LinkChanged], None]) -> None:
        own(event)

    def on_tick(self, event: Tick, own: Callable[[Tick], None]) -> None:
        clock = self.room.clock
        if clock is not None and clock.running == self.side:
            return  # the other board judges its own player's time, and says so (a forfeit message)
        own(event)

    def message(self, own: Callable[[], Notice | None]) -> Notice | None:
        if self.peer.problem is not None:
            return Notice(self.peer.problem, ERROR, Phrase("remote match stopped"))
        said = self.carrier.message(own)
        if said is None and self.peer.online is False and not self.room.over:
            return Notice(Phrase("the other board is not reachable: play on, your moves go to it when the link is back"),
                          WARNING, Phrase("other board offline"))
        return said

    def view(self, view: View) -> View:
        return self.carrier.view(view)
