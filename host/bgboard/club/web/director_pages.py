"""The director's desk on the club pages (after the login, every form with its CSRF token):
``/director`` (every event's matches to play and played, the results held for the
director), ``/director/ACTION`` (pair the next round, enter or correct a result, award a
forfeit, withdraw a player, add penalty points, accept or decide a held result — each a call
of the same ``Director`` method as the CLI, with the actor :data:`~bgboard.club.web.pages.ACTOR`
in the audit log) and ``/director/held/N/mat`` (a held result's ``.mat``)."""

from __future__ import annotations

from typing import Any, Callable

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import PlainTextResponse, RedirectResponse, Response
from starlette.routing import Route

from bgboard.club.web import login as auth
from bgboard.club.web.boardview import bounded
from bgboard.club.web.pages import ACTOR, FLASH, not_found, plural
from bgboard.digits import whole_number
from bgboard.errors import InputError


def _int(fields: dict[str, str], key: str, what: str) -> int:
    return whole_number(fields.get(key, ""), what, 0, 10**9)


def director_act(club: Any, fields: dict[str, str], action: str) -> str:
    """Run one director operation on the open ``club``; the sentence for the page after it."""
    event = fields.get("event", "")
    if action == "pair":
        done = club.pair_round(event, actor=ACTOR)
        return f"Round {done.round} of {done.event}: {plural(len(done.matches), 'match', 'matches')} paired."
    if action == "result":
        match_id = _int(fields, "match", "a match number")
        club.record_result(event, match_id, fields.get("score", ""), actor=ACTOR)
        return f"Match {match_id}: result {fields.get('score', '').strip()} recorded."
    if action == "correct":
        match_id = _int(fields, "match", "a match number")
        club.correct_result(event, match_id, fields.get("score", ""),
                            reason=fields.get("reason", ""), actor=ACTOR)
        return f"Match {match_id}: result corrected to {fields.get('score', '').strip()}."
    if action == "forfeit":
        match_id = _int(fields, "match", "a match number")
        club.forfeit(event, match_id, fields.get("winner", ""), fields.get("reason", ""), actor=ACTOR)
        return f"Match {match_id}: awarded to {fields.get('winner', '')} by forfeit."
    if action == "withdraw":
        club.withdraw(event, fields.get("player", ""), fields.get("reason", ""), actor=ACTOR)
        return f"{fields.get('player', '')} withdrawn from {event}."
    if action in ("accept", "decide"):  # a result held for the director (club/confirmations.py)
        from bgboard.club import confirmations

        info = (confirmations.accept(club, fields.get("held", ""), actor=ACTOR) if action == "accept" else
                confirmations.decide(club, fields.get("held", ""), fields.get("score", ""), actor=ACTOR))
        return f"Match {info.number or info.id}: result {info.score[0]}-{info.score[1]} recorded."
    if action == "penalty":
        points = _int(fields, "points", "penalty points")
        club.penalty(event, fields.get("player", ""), points, fields.get("reason", ""), actor=ACTOR)
        return f"{plural(points, 'penalty point')} for {fields.get('player', '')} in {event}."
    raise InputError(f"there is no director action {bounded(action, 20)!r}")


def desk_events(club: Any) -> list[dict[str, Any]]:
    """Every event of the open ``club`` for the desk, the finished last: its matches, its
    entrants, the matches to play and those played."""
    events = []
    for info in sorted(club.events(), key=lambda e: e.status == "finished"):
        matches = club.matches(info.name)
        entrants = [s.name for s in club.standings(info.name)]
        events.append({"info": info, "matches": matches, "entrants": entrants,
                       "pending": [m for m in matches if m.status == "pending"],
                       "done": [m for m in matches if m.status in ("finished", "forfeit")]})
    return events


def director_routes(site: Any, page: Callable[..., Response], refused: Callable[..., Response]) -> list[Route]:
    """The director's desk (module docstring); ``site.club()`` opens a ``Director``."""

    def director_now(request: Request) -> bool:
        return auth.check_director(request, site.director_sessions)

    def held_mat(request: Request) -> Response:
        """The .mat of a result held for the director (the director's only)."""
        from bgboard.club.confirmations import held_mat as held_text

        if not director_now(request):
            return refused(request, auth.Refused(403, "Log in as the director first."))
        number = request.path_params["number"]
        with site.club() as club:
            try:
                text = held_text(club, number)
            except InputError as error:
                return not_found(refused, request, str(error))
        if not text:
            return not_found(refused, request, f"The held result {number} has no .mat record.")
        return PlainTextResponse(text, headers={
            "Content-Disposition": f'attachment; filename="held-{number}.mat"'})

    def director_page(request: Request, status: int = 200, sentence: str | None = None) -> Response:
        with site.club() as club:
            events = desk_events(club)
            from bgboard.club.confirmations import held

            flash = request.session.pop(FLASH, None)
            return page(request, "director.html", status=status, events=events, held=held(club),
                        sentence=sentence, flash=flash if isinstance(flash, str) else None)

    async def director_home(request: Request) -> Response:
        if not await run_in_threadpool(director_now, request):
            return RedirectResponse("/director/login", status_code=303)
        return await run_in_threadpool(director_page, request)

    def act(fields: dict[str, str], action: str) -> str:
        with site.club() as club:
            return director_act(club, fields, action)

    async def director_action(request: Request) -> Response:
        try:
            fields = await auth.checked_form(request)
        except auth.Refused as error:
            return refused(request, error)
        if not await run_in_threadpool(director_now, request):
            return refused(request, auth.Refused(403, "Log in as the director first."))
        try:
            done = await run_in_threadpool(act, fields, request.path_params["action"])
        except InputError as error:
            return await run_in_threadpool(director_page, request, 400, str(error))
        request.session[FLASH] = bounded(done, 300)
        return RedirectResponse("/director", status_code=303)

    return [
        Route("/director/held/{number:int}/mat", held_mat),
        Route("/director", director_home),
        Route("/director/{action:str}", director_action, methods=["POST"]),
    ]


__all__ = ["desk_events", "director_act", "director_routes"]
