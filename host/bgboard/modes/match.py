"""A match at the board: the match room (``control.controller.Controller``) standing where the
journal left it, with the other side played by the engine or a person at another board when
``[match] opponent`` / ``[remote]`` ask for one (``modes.opponent``), hints asked of the hint
worker and, in learner mode, every play graded by the teacher."""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from bgboard.config import Config
from bgboard.control.controller import Controller
from bgboard.modes.settings import settings_of

if TYPE_CHECKING:
    from bgboard.control.session import JournalLike
    from bgboard.display.display_state import DisplayState
    from bgboard.link.messages import HostMessage
    from bgboard.net.remotelink import RemoteSeat
    from bgboard.opponents import EngineOpponent
    from bgboard.rules import Position
    from bgboard.sense.slots import SlotMap
    from bgboard.teaching import WorkerTeacher


def open_match_room(config: Config, journal: JournalLike, grid: SlotMap, now_ms: int, *,
                    opponent: EngineOpponent | RemoteSeat | None,
                    send: Callable[[HostMessage], None], show: Callable[[DisplayState], None],
                    hint: Callable[[Position, tuple[int, int]], None] | None,
                    teacher: WorkerTeacher | None) -> Controller:
    """The match of ``journal`` under the config's settings (``grid``: the board's slots),
    resumed at ``now_ms``; ``send`` goes to the board, ``show`` to the display, ``hint``
    asks for a hint (its answer comes as a ``HintReady`` event), ``teacher`` grades."""
    return (opponent or Controller).resume(
        journal,
        settings_of(config, grid.slots(), grid),
        now_ms,
        send=send,
        show=show,
        hint=hint,
        grade=teacher.grade if teacher is not None else None,
        grade_cube=teacher.grade_cube if teacher is not None else None,
        summarise=teacher.summary if teacher is not None else None,
    )
