"""What each player's buttons do in each phase of a match (pure; a part the match room owns:
:class:`MatchButtons`; the buttons themselves: :mod:`bgboard.control.controller`'s docstring).

**roll** asks for the dice, says *done* after a play (or the opponent's acceptance of an
offered illegal play), starts the next game or a new match, beavers a double; **double**
offers or takes the cube, shows the next reading of an ambiguous board, or (a learner) asks
for the hint; **drop** drops an offered cube.  A resignation's presses go to the room's
:class:`~bgboard.control.resigning.Resignation` first.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bgboard.language import Phrase
from bgboard.control.events import Button, ButtonPressed
from bgboard.control.match_view import setup_notice
from bgboard.control.notice import Notice, Severity
from bgboard.link.messages import SetRolling
from bgboard.match import Beaver, Double, Drop, NextGame, Take
from bgboard.match.state import MatchState, Phase

if TYPE_CHECKING:
    from bgboard.control.match_table import MatchTable
    from bgboard.control.resigning import Resignation

__all__ = ["MatchButtons"]

INFO, WARNING = Severity.INFO, Severity.WARNING


class MatchButtons:
    """The buttons of one match room (``table``), a resignation's presses going to its
    ``resignation`` first."""

    def __init__(self, table: MatchTable, resignation: Resignation) -> None:
        self.table = table
        self.resignation = resignation

    def press(self, event: ButtonPressed) -> None:
        """``event.player`` pressed ``event.button`` at this board."""
        table = self.table
        state = table.state
        if state is None:
            return
        if table.over:
            if event.button == Button.ROLL:  # a new match at the same board
                table.judge.settled()
                refused = table.session.new_match(event.at_ms)
                table.notice = Notice(refused, WARNING) if refused is not None else None
            return
        player, button, at = event.player, Button(event.button), event.at_ms
        if self.resignation.takes(player, button, at):
            return
        if button == Button.ROLL and state.phase == Phase.DOUBLED and player == state.decider and state.rules.beavers:
            if table.act(Beaver(player=player), at):
                table.coach.cube_lesson(player, state, "take")
                table.session.clock_to(1 - player, at)
        elif button == Button.ROLL:
            self._roll(player, state, at)
        elif button == Button.DOUBLE:
            self._double(player, state, at)
        elif state.phase == Phase.DOUBLED and player == state.decider:  # Button.DROP
            if table.act(Drop(player=player), at):
                table.coach.cube_lesson(player, state, "pass")
                table.after_game(at)
        else:
            table.notice = Notice(Phrase("there is no double to drop"), WARNING)

    def _roll(self, player: int, state: MatchState, at: int) -> None:
        table, phase = self.table, state.phase
        if phase == Phase.OPENING or (phase == Phase.TURN and player == state.turn):
            if phase == Phase.TURN and state.may_double:
                table.coach.cube_lesson(player, state, "no double")
            table.send(SetRolling(True))
            # source: dice = "dobbelstenen" seeds/000, "Würfel" seeds/004, "terningene" seeds/001
            table.notice = Notice(Phrase("roll the dice"))
        elif phase == Phase.PLAY and player == state.turn:
            self._done(state, at)
        elif phase == Phase.PLAY and table.judge.offer is not None:
            self._accept_offer(at)
        elif phase == Phase.GAME_OVER:
            self._next_game(at)
        else:
            table.notice = Notice(Phrase("it is not your turn"), WARNING)

    def _double(self, player: int, state: MatchState, at: int) -> None:
        table, phase = self.table, state.phase
        if phase == Phase.TURN and player == state.turn:
            if table.act(Double(player=player), at):
                table.coach.cube_lesson(player, state, "double")
                table.session.clock_to(1 - player, at)
        elif phase == Phase.DOUBLED and player == state.decider:
            if table.act(Take(player=player), at):
                table.coach.cube_lesson(player, state, "take")
                table.session.clock_to(1 - player, at)
        elif phase == Phase.PLAY and player == state.turn and table.judge.next_reading():
            pass
        elif phase == Phase.PLAY and player == state.turn and table.coach.hints_on_request:
            table.coach.ask_hint(state)  # the learner asks for the hint
        else:
            table.notice = Notice(Phrase("you cannot double now"), WARNING)

    def _done(self, state: MatchState, at: int) -> None:
        """The mover says the play on the board is done: recorded if the judge finds it complete."""
        table = self.table
        decision = table.judge.done(table.session)
        if isinstance(decision, Notice):
            table.notice = decision
            return
        mover = state.turn
        if table.act(decision, at):
            table.coach.play_lesson(state, decision, table.state)
            table.after_play(mover, at)

    def _accept_offer(self, at: int) -> None:
        """The opponent pressed roll: the offered play is condoned and the opponent rolls."""
        table = self.table
        offer = table.judge.offer
        assert offer is not None and table.state is not None
        if not table.judge.offer_stands():
            table.judge.offer = None
            table.notice = Notice(Phrase("the board changed: the play was not accepted"), WARNING)
            return
        mover = table.state.turn
        if not table.act(offer.action, at):
            return
        state = table.state
        assert state is not None
        if state.phase in (Phase.GAME_OVER, Phase.MATCH_OVER):
            table.after_game(at)
            table.notice = Notice(Phrase("illegal play condoned: the game is over"))
            return
        table.session.clock_to(None if mover is None else 1 - mover, at)
        table.send(SetRolling(True))
        table.notice = Notice(Phrase("illegal play condoned: roll the dice"), INFO, Phrase("condoned: roll"))

    def _next_game(self, at: int) -> None:
        setup = setup_notice(self.table)
        if setup is not None:
            self.table.notice = setup
            return
        self.table.act(NextGame(), at)
