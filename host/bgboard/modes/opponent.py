"""Who plays the other side at the board: the engine under ``[match] opponent = "engine"``
(``opponents.EngineOpponent``, its worker started off the loop; it gives the match room an
``EnginePlayer``), else under ``[remote]`` a person at another board
(``net.remotelink.RemoteSeat``, docs/remote.md: a ``RemotePlayer`` in the room, and a seat
beside it), else the players at the board themselves (None)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from bgboard.config import Config

if TYPE_CHECKING:
    from bgboard.control.events import Event
    from bgboard.store.journal import Journal, MemoryJournal
    from bgboard.net.remotelink import RemoteSeat
    from bgboard.opponents import EngineOpponent


async def open_other_side(config: Config, journal: Journal | MemoryJournal, post: Callable[[Event], None],
                          clock_ms: Callable[[], int]) -> tuple[EngineOpponent | RemoteSeat | None, RemoteSeat | None]:
    """The opponent the config asks for (``post`` takes its moves as events), which opens the
    match room (its ``resume``), and the remote seat that follows the match beside the room
    (``control.seated_room``: a remote match's, else None)."""
    from bgboard.opponents import open_opponent

    opponent = await open_opponent(config, post, clock_ms)
    if opponent is None and config.remote.enabled:
        from bgboard.config import remote_settings
        from bgboard.net.remotelink import open_remote

        seat = open_remote(remote_settings(config), config.match.players, journal, post, clock_ms)
        return seat, seat
    return opponent, None
