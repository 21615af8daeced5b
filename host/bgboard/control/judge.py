"""The turn judge: what the board shows during a roll and what *done* means.

It keeps the recognition context of the roll being played (:class:`bgboard.sense.recognise.Turn`,
built once per roll), the verdict on the latest settled board, which reading of an ambiguous
board the player chose, and a play offered for condoning.  It decides; the controller acts
(journals through the :class:`~bgboard.control.session.MatchSession`).  Pure: no I/O, no clock.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from bgboard.language import Phrase
from bgboard.control.notice import Notice, Severity
from bgboard.control.numbering import Numbering, Words
from bgboard.control.session import MatchSession
from bgboard.link.messages import Led
from bgboard.match import Action, Condone, Move, Pass
from bgboard.match.state import MatchState, Phase
from bgboard.sense.places import Fix, Observation, board_of, describe_fixes, position_of, put_back
from bgboard.sense.recognise import (
    Ambiguous,
    Illegal,
    Miscount,
    Moving,
    Played,
    RollReader,
    Takeback,
    Unchanged,
    Verdict,
)
from bgboard.sense.roll import RollReading

__all__ = ["BLUE", "GREEN", "RED", "Offer", "TurnJudge", "verdict_leds"]

#: LED colours (r, g, b): legal destinations, the place a checker was lifted from, wrong places.
GREEN = (0, 160, 0)
BLUE = (0, 0, 160)
RED = (160, 0, 0)

INFO, WARNING, ERROR = Severity.INFO, Severity.WARNING, Severity.ERROR


@dataclass(frozen=True, slots=True)
class Offer:
    """A play offered to the opponent for condoning, on the board it was offered on."""

    action: Condone
    codes: tuple[int, ...]
    notice: Notice
    fixes: tuple[Fix, ...] = ()


class TurnJudge:
    """Judges the roll being played (see the module docstring)."""

    def __init__(self, on_new_turn: Callable[[MatchState], None] = lambda state: None,
                 numbering: Numbering = Numbering.OWN) -> None:
        self.on_new_turn = on_new_turn  # called with the match state when a roll's context is built
        self.numbering = numbering  # the point numbers the players read (bgboard.control.numbering)
        self.observation: Observation | None = None
        self.verdict: Verdict | None = None
        self.choice = 0
        self.offer: Offer | None = None
        self._turn: RollReader | None = None
        self._turn_key = -1

    def turn(self, session: MatchSession) -> RollReader | None:
        """The recognition context of the roll being played (None outside the play phase),
        built once per roll (:class:`bgboard.sense.roll.RollReading`) for the game played."""
        state = session.state
        if state is None or state.phase != Phase.PLAY or state.dice is None or state.turn is None:
            return None
        key = len(session.actions)
        if self._turn is None or self._turn_key != key:
            settings = session.settings
            self._turn = RollReading(state.playing, state.board_view, state.turn, state.dice, checkers=state.checkers,
                                     slots=settings.slots, slot_map=settings.slot_map, history=session.history[:-1])
            self._turn_key = key
            self.on_new_turn(state)
        return self._turn

    @property
    def words(self) -> Words:
        """Texts for the mover of the roll being played, in the players' numbering."""
        return Words(self._turn.mover if self._turn is not None else None, self.numbering)

    def settled(self) -> None:
        """An action took effect: the verdict, the choice and any offer are spent."""
        self.verdict = None
        self.choice = 0
        self.offer = None

    def read(self, observation: Observation, turn: RollReader | None) -> tuple[Led, ...]:
        """A settled board during the play: the verdict and the LEDs that show it."""
        self.verdict = turn.recognise(observation) if turn else None
        self.choice = 0
        if self.offer is not None and self.offer.codes != observation.codes:
            self.offer = None  # the board changed: the offer lapses
        return self.leds()

    def shows_turn_start(self, session: MatchSession, observation: Observation) -> bool:
        """The board shows the position at the start of the last turn (a takeback)."""
        position, colour = session.history[-1]
        return observation.codes == Observation.of_board(board_of(position, colour), session.settings.slots).codes

    def next_reading(self) -> bool:
        """Show the next reading of an ambiguous board; False when the board is not ambiguous."""
        if not isinstance(self.verdict, Ambiguous):
            return False
        self.choice = (self.choice + 1) % len(self.verdict.plays)
        return True

    def done(self, session: MatchSession) -> Action | Notice:
        """The player on roll pressed *done*: the action to record (a play or a pass), or the
        notice saying why not (an illegal play under ``condone`` becomes an :class:`Offer`)."""
        verdict = self.verdict
        state = session.state
        assert state is not None
        if verdict is None and self.observation is None:
            return Notice(Phrase("the board cannot be read: check the board's cable"), ERROR)
        if verdict is None:
            turn = self.turn(session)
            verdict = turn.recognise(self.observation) if turn and self.observation else None
        if isinstance(verdict, Played):
            return Move.of(verdict.play)
        if isinstance(verdict, Ambiguous):
            return Move.of(verdict.plays[self.choice % len(verdict.plays)])
        if isinstance(verdict, Unchanged) and verdict.no_play:
            return Pass()
        if isinstance(verdict, Unchanged):
            return Notice(Phrase("move your checkers first"), WARNING)
        if isinstance(verdict, Moving) and not (verdict.lifted is None and session.condoning):
            return Notice(Phrase("finish your play first"), WARNING)
        if isinstance(verdict, Moving):
            assert state.dice is not None
            return self._offer(session, f"not all of the {state.dice[0]}-{state.dice[1]} is played", ())
        if isinstance(verdict, Illegal) and session.condoning:
            return self._offer(session, verdict.reason, verdict.fixes)
        if isinstance(verdict, Illegal):
            return self._illegal(verdict)
        if isinstance(verdict, Miscount):
            return Notice(self.words.physical(verdict.reason), ERROR)
        # a takeback during a play: the board shows an older position
        return Notice(Phrase("the board shows an earlier position: play the roll"), WARNING)

    def _offer(self, session: MatchSession, reason: str, fixes: tuple[Fix, ...]) -> Notice:
        """Done on an illegal board under ``condone``: offer the play to the opponent, or
        say why it can never be condoned and what to put back.  ``reason``: why the play is
        illegal; ``fixes``: what to put back to undo it."""
        state, observation, turn = session.state, self.observation, self.turn(session)
        assert state is not None and state.turn is not None
        guess = turn.guess(observation, state.checkers) if observation and turn else None
        if observation is None or turn is None or guess is None:
            return Notice(Phrase("the board cannot be read as a whole board: correct the play"), ERROR)
        action = Condone.of(position_of(guess, state.turn))
        refused = session.checks(action)
        w = self.words
        if refused is not None:
            own = w.own(refused)
            if fixes:
                return Notice(Phrase("%(reason)s: put back %(places)s", reason=own,
                                     places=w.physical(describe_fixes(fixes))), ERROR, own)
            return Notice(own, ERROR, own)
        opponent = state.players[1 - state.turn]
        reason = w.own(reason)
        if fixes:
            text = Phrase("%(reason)s: %(opponent)s may accept the play as it stands by pressing roll, "
                          "or put back %(places)s", reason=reason, opponent=opponent,
                          places=w.physical(describe_fixes(fixes)))
        else:
            text = Phrase("%(reason)s: %(opponent)s may accept the play as it stands by pressing roll, "
                          "or finish it", reason=reason, opponent=opponent)
        notice = Notice(text, WARNING,
                        Phrase("%(reason)s: %(opponent)s, roll to accept", reason=reason, opponent=opponent))
        self.offer = Offer(action, observation.codes, notice, tuple(fixes))
        return notice

    def _illegal(self, verdict: Illegal) -> Notice:
        """Why the play is illegal (the rules engine's words) and what to put back (the
        sensing layer's places), both in the players' numbering."""
        w = self.words
        reason = w.own(verdict.reason)
        # source: put back = "terugzetten" (002 "terughalen"), "zurückstellen", "sett tilbake": docs/languages.md
        return Notice(Phrase("%(reason)s: put back %(places)s", reason=reason,
                             places=w.physical(describe_fixes(verdict.fixes))), ERROR, reason,
                      tiny=Phrase("Not a legal play"))

    def put_back(self) -> tuple[str, ...]:
        """The short put-back list of the board as judged ("put back: 13→8, clear 4"), in
        the players' numbering; empty when nothing is to be put back."""
        verdict = self.verdict
        fixes: tuple[Fix, ...] = ()
        if self.offer is not None:
            fixes = self.offer.fixes
        elif isinstance(verdict, (Illegal, Miscount)):
            fixes = verdict.fixes
        return put_back(fixes, self.words.put_back_player)

    def offer_stands(self) -> bool:
        """The offered play is still on the board (the opponent may accept it)."""
        return self.offer is not None and self.observation is not None and self.observation.codes == self.offer.codes

    def leds(self) -> tuple[Led, ...]:
        """Lifted checker (blue) and its legal destinations (green), or what to put back (red)."""
        return verdict_leds(self.verdict)

    def message(self) -> Notice | None:
        """What the display says about the board during the play (None: nothing)."""
        verdict = self.verdict
        if self.offer is not None:
            return self.offer.notice
        w = self.words
        if isinstance(verdict, Played):
            # source: done is a button of the board; its word in docs/languages.md
            return Notice(Phrase("%(play)s: press done", play=w.own(verdict.play.notation)))
        if isinstance(verdict, Ambiguous):
            notation = w.own(verdict.plays[self.choice % len(verdict.plays)].notation)
            return Notice(Phrase("%(play)s? press done, or double for another reading", play=notation), INFO,
                          f"{notation}?")
        if isinstance(verdict, Illegal):
            return self._illegal(verdict)
        if isinstance(verdict, Miscount):
            return Notice(w.physical(verdict.reason), ERROR)
        if isinstance(verdict, Takeback):
            return Notice(Phrase("the board shows an earlier position: play the roll"), WARNING)
        if isinstance(verdict, Unchanged) and verdict.no_play:
            return Notice(Phrase("no legal play: press done"))
        return None


def verdict_leds(verdict: Verdict | None) -> tuple[Led, ...]:
    """The LEDs of a reading: the lifted checker (blue) and its legal destinations (green),
    or what to put back (red)."""
    leds: list[Led] = []
    if isinstance(verdict, Moving):
        if verdict.lifted is not None:
            leds.append(Led(verdict.lifted - 1, BLUE))
        leds += [Led(p - 1, GREEN) for p in verdict.destinations]
    elif isinstance(verdict, (Illegal, Miscount)):
        leds += [Led(f.place - 1, RED) for f in verdict.fixes]
    return tuple(leds)
