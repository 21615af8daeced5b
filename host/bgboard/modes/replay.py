"""``bgboard run --replay``: the replay room over an imported match's stops (no journal
rows, no records, no club); with a hint engine each checker play is graded first, on the
hint worker."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Callable

from bgboard.config import Config
from bgboard.errors import EnvironmentFailure

if TYPE_CHECKING:
    from bgboard.control.replay_room import ReplayRoom
    from bgboard.display.display_state import DisplayState
    from bgboard.link.messages import HostMessage
    from bgboard.hints.worker import HintWorker
    from bgboard.match import ImportedMatch

log = logging.getLogger(__name__)


async def open_replay(config: Config, imported: ImportedMatch, hints: HintWorker | None,
                      send: Callable[[HostMessage], None], show: Callable[[DisplayState], None]) -> ReplayRoom:
    """The replay of ``imported`` (graded on ``hints`` when there is one); ``send`` goes to
    the board, ``show`` to the display."""
    from bgboard.control.replay_room import ReplayRoom, replay_steps

    log.info("replaying %d game(s) of %s and %s", len(imported.games), *imported.players)
    grades: dict[int, str] = {}
    if hints is not None:
        from bgboard.hints.grade import grade_play
        from bgboard.hints.worker import HintCancelled

        plays = [p for g in imported.games for p in g.plays
                 if p.kind == "move" and p.steps and p.dice and p.before.turn == p.player]
        log.info("grading %d plays", len(plays))
        for play in plays:
            assert play.dice is not None  # (the plays chosen have their dice)
            try:
                hint = await hints.plays(play.before.position, play.dice)
                grades[id(play)] = grade_play(hint, play.result).verdict
            except (HintCancelled, ValueError, EnvironmentFailure) as exc:  # a grade is help, never a stop
                log.debug("no grade for line %d: %s", play.line, exc)
    from bgboard.control.numbering import Numbering

    numbering = Numbering(config.match.numbering)
    steps = replay_steps(imported, lambda play: grades.get(id(play)), numbering)
    return ReplayRoom(steps, send=send, show=show, numbering=numbering)
