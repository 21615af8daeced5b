"""What the display says and shows of a match room (pure): the one message that matters now
(:func:`room_message`), the set-up guidance before a game (:func:`setup_notice`) and the
frozen :class:`~bgboard.control.presenter.View` the presenter draws (:func:`room_view`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bgboard.language import Phrase
from bgboard.control.notice import Notice, Severity, Topic
from bgboard.control.numbering import Numbering, Words
from bgboard.control.presenter import View
from bgboard.control.seed_notes import variant_notes
from bgboard.match.state import Phase
from bgboard.sense.places import differences
from bgboard.sense.recognise import setup_message

if TYPE_CHECKING:
    from bgboard.control.match_table import MatchTable

__all__ = ["room_message", "room_view", "setup_notice"]

WARNING, ERROR = Severity.WARNING, Severity.ERROR


def setup_notice(table: MatchTable) -> Notice | None:
    """What to put where before a game, or None when the board is set up (or unread)."""
    if table.observation is None:
        return None
    fixes = differences(table.observation, table.session.start_counts())
    own = Numbering(table.settings.numbering) == Numbering.OWN  # each player's own numbers
    text = setup_message(fixes, own, table.session.next_variant())
    return Notice(text, WARNING, Phrase("set up the board"), Topic.SETUP) if fixes else None


def room_message(table: MatchTable) -> Notice | None:
    """What the display says now, as the match room itself would say it."""
    notice, state = table.notice, table.state
    if notice is not None and notice.topic == Topic.RESULT:
        return notice  # a club result the players are asked to confirm
    if table.forfeit is not None:
        names = state.players if state else ("White", "Black")
        return Notice(Phrase("%(loser)s ran out of time: %(who)s wins the match", loser=names[table.forfeit],
                             who=names[1 - table.forfeit]), ERROR)
    if notice is not None:
        if notice.topic == Topic.SETUP and state is not None and state.phase in (Phase.OPENING, Phase.GAME_OVER):
            return setup_notice(table)  # what is still wrong on the board, as it is now
        return notice
    if not table.link_up:
        return Notice(Phrase("the board is not connected"), ERROR)
    if state is None:
        return None
    if state.phase == Phase.PLAY:
        said = table.judge.message()
        if said is not None:
            return said
    if state.phase == Phase.OPENING:
        # (after a game the end screen stays until a player asks for the next game:
        # then the set-up guidance shows what to put where)
        return setup_notice(table)
    return None


def room_view(table: MatchTable, message: Notice | None, analysis: tuple[tuple[str, ...], int]) -> View | None:
    """A frozen view of what the display shows now, saying ``message`` (None before the match
    could start); ``analysis`` is shown while the match is still the one analysed."""
    state = table.state
    if state is None:
        return None
    coach, settings = table.coach, table.settings
    numbering = Numbering(settings.numbering)
    words = Words(state.turn, numbering)
    return View(
        state=state,
        now_ms=table.now_ms,
        notice=message,
        clock=table.clock,
        forfeit=table.forfeit,
        hint=words.own(coach.hint_text) if coach.hint_text else None,
        observation=table.observation,
        start=table.session.start_counts(),
        slots=settings.slots,
        put_back=table.judge.put_back() if state.phase == Phase.PLAY else (),
        lesson=coach.text(table.over, state, numbering),
        sent=table.result_sent,
        analysis=analysis[0] if analysis[1] == len(table.actions) else (),
        beavers=state.rules.beavers,
        variant=variant_notes(state),
    )
