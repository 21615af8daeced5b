"""With ``[club] broker`` set: the club link and the seat tying it to the match the app plays
(``net.seat.ClubSeat``, ``net.boardlink.ClubLink``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from bgboard.config import Config

if TYPE_CHECKING:
    from bgboard.control.controller import Controller
    from bgboard.match.mat_write import MatInfo
    from bgboard.net.boardlink import ClubLink
    from bgboard.net.protocol import Ack, Assignment
    from bgboard.net.seat import ClubSeat
    from bgboard.store.journal import Journal, MemoryJournal


def open_club_seat(config: Config, journal: Journal | MemoryJournal, controller: Controller,
                   clock_ms: Callable[[], int], on_assignment: Callable[[Assignment], None],
                   on_ack: Callable[[Ack], None]) -> tuple[ClubSeat, ClubLink]:
    """The seat at ``[club] board`` attached to ``controller`` and its club link (not yet
    running: the caller runs ``link.run()``); ``on_assignment`` gets the director's
    assignments, ``on_ack`` its answers to the results sent."""
    from bgboard.config import club_password
    from bgboard.net.boardlink import ClubLink, LinkSettings
    from bgboard.net.protocol import parse_broker_url
    from bgboard.net.seat import ClubSeat

    club = config.club
    settings = LinkSettings(
        parse_broker_url(club.broker), club.club, club.board, club.user, club_password(club), ca_file=club.ca_file
    )
    seat = ClubSeat(journal, club.board, controller.settings, clock_ms)
    link = ClubLink(settings, journal, on_assignment=on_assignment, on_ack=on_ack, clock_ms=clock_ms)
    seat.link = link
    seat.attach(controller)
    return seat, link


def club_mat_info(seat: ClubSeat | None) -> MatInfo | None:
    """The .mat header of the club match the seat plays now (event, round, ...), or None."""
    current = seat.current() if seat is not None else None
    if current is None:
        return None
    from bgboard.net.board_report import mat_info

    return mat_info(current[0])
