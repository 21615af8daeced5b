"""The director's set-up and check-in pages (over :mod:`bgboard.club.evening`; after the
login, every form with its CSRF token): ``/director/setup`` (add a player, create an event
with check-in and payouts, enter players, a late entry, attach a ``.mat`` to a result, correct
a finished event's money with a reason) and ``/director/checkin/EVENT`` (one tap per player,
fit for a phone; close check-in and draw); each form's change is one function of
:data:`SETUP_ACTIONS`, answered at ``/director/evening/ACTION``.
"""

from __future__ import annotations

import secrets
from contextlib import aclosing
from typing import Any, Callable

from starlette.concurrency import run_in_threadpool
from starlette.datastructures import UploadFile
from starlette.formparsers import MultiPartException, MultiPartParser
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route

from bgboard.club import evening as service
from bgboard.club.checks import MAX_MAT
from bgboard.club.web import login as auth
from bgboard.club.web.boardview import bounded
from bgboard.club.web.door import MAX_UPLOAD as MAX_UPLOAD_BODY
from bgboard.club.web.evening_pages import checkin_url, print_url, slips_url
from bgboard.club.web.pages import ACTOR, FLASH
from bgboard.digits import decimal_number, whole_number
from bgboard.errors import InputError

MAX_MAT_UPLOAD = MAX_MAT
SETUP = "/director/setup"


class _PartsInMemory(MultiPartParser):
    """Starlette's multipart parser with a file part kept in memory up to a whole upload's
    size (the door bounds the body, and the uploads in flight together): an upload never
    becomes a temporary file, so a full disk cannot be made fuller by one, and a full disk
    does not refuse one."""

    spool_max_size = MAX_UPLOAD_BODY + 1


async def checked_upload(request: Request) -> tuple[dict[str, str], bytes | None]:
    """A POSTed form with at most one file (the .mat), after the same CSRF check as
    :func:`bgboard.club.web.login.checked_form`; the file bounded to 4 MB."""
    if request.headers.get("content-type", "").lower().startswith("multipart/form-data"):
        try:
            async with aclosing(request.stream()) as stream:
                form = await _PartsInMemory(request.headers, stream, max_files=1, max_fields=20).parse()
        except MultiPartException as exc:
            raise auth.Refused(400, f"The form could not be read ({bounded(exc.message, 80)}).") from None
    else:
        form = await request.form(max_files=1, max_fields=20)
    fields: dict[str, str] = {}
    data = None
    for key, value in form.items():
        if isinstance(value, UploadFile):
            data = await value.read(MAX_MAT_UPLOAD + 1)
            if len(data) > MAX_MAT_UPLOAD:
                raise auth.Refused(413, "A .mat record has at most 4 MB.")
        else:
            fields[key] = value
    sent = fields.pop("csrf", "")
    expected = request.session.get(auth.SESSION_CSRF)
    if not isinstance(expected, str) or not secrets.compare_digest(sent.encode(), expected.encode()):
        raise auth.Refused(403, "This form is out of date or did not come from this site: "
                                "reload the page and send it again.")
    for key, value in fields.items():
        if len(value) > auth.MAX_FIELD:
            raise auth.Refused(400, f"The field '{key[:30]}' is too long.")
    return fields, data


def money_fields(fields: dict[str, str]) -> dict[str, Any]:
    """The money options of a set-up form (None: left empty), the rake as a number."""
    options: dict[str, Any] = {k: fields.get(k, "").strip() or None
                               for k in ("entry_fee", "payout", "consolation_payout", "rake", "round_to")}
    if options["rake"] is not None:
        options["rake"] = decimal_number(options["rake"], "the rake", "5")
    return options


# ------------------------------------------------------------------ each form's change
# (club, event, fields, the uploaded file) -> (the sentence, the page to go back to)
Change = Callable[[Any, str, dict[str, str], "bytes | None"], tuple[str, str]]


def _add_player(club: Any, event: str, fields: dict[str, str], data: bytes | None) -> tuple[str, str]:
    rating = fields.get("rating", "").strip() or "1500"
    value = decimal_number(rating, "a rating", "1500")
    p = club.add_player(fields.get("name", ""), value, actor=ACTOR)
    return f"Player {p.name} added (rating {p.rating:.0f}).", SETUP


def _new_event(club: Any, event: str, fields: dict[str, str], data: bytes | None) -> tuple[str, str]:
    def number(key: str) -> int | None:
        text = fields.get(key, "").strip()
        if not text:
            return None
        return whole_number(text, key.replace('_', ' '), 0, 9999)

    length = number("length")
    if length is None:
        raise InputError("say the match length")
    with club.club.transaction():
        e = club.new_event(fields.get("name", ""), fields.get("format", ""), length,
                           number("rounds"), number("consolation_length"), actor=ACTOR)
        options = money_fields(fields)
        if fields.get("confirm_results"):  # board results both players confirm (club/confirmations.py)
            options["confirm_results"] = True
        if fields.get("check_in") or any(v is not None for v in options.values()):
            service.configure(club, e.name, check_in=bool(fields.get("check_in")) or None,
                              **{k: v for k, v in options.items() if v is not None}, actor=ACTOR)
    return f"Event {e.name} created ({e.format}, {e.length}-point matches).", SETUP


def _correct_money(club: Any, event: str, fields: dict[str, str], data: bytes | None) -> tuple[str, str]:
    """A finished event's money, corrected on purpose (audited)."""
    out = service.correct_money(club, event, reason=fields.get("reason", ""),
                                **{k: v for k, v in money_fields(fields).items() if v is not None},
                                actor=ACTOR)
    return (f"{bounded(event, 60)}: the money is corrected, pot {out['pot']}; "
            "the audit log keeps what was paid before."), SETUP


def _enter(club: Any, event: str, fields: dict[str, str], data: bytes | None) -> tuple[str, str]:
    names = [v for k, v in fields.items() if k.startswith("p:")]
    e = club.enter(event, names, actor=ACTOR)
    return f"{len(names)} entered in {e.name}: {len(e.players)} players.", SETUP


def _late_entry(club: Any, event: str, fields: dict[str, str], data: bytes | None) -> tuple[str, str]:
    return service.late_entry(club, event, fields.get("player", ""),
                              fields.get("score", "0") or "0", actor=ACTOR) + ".", SETUP


def _attach_mat(club: Any, event: str, fields: dict[str, str], data: bytes | None) -> tuple[str, str]:
    if not data:
        raise InputError("choose the .mat file to attach")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise InputError("the .mat file is not UTF-8 text") from None
    mid = service.match_id(club, event, fields.get("match", ""))
    m = club.match(mid)
    if m.score is None:
        raise InputError(f"match {m.number} has no score yet: enter its result first")
    club.correct_result(event, mid, (m.score[0], m.score[1]), text,
                        reason="the .mat record attached", actor=ACTOR)
    return f"Match {m.number}: the .mat record is attached (it ends {m.score[0]}-{m.score[1]}).", SETUP


def _check_in(club: Any, event: str, fields: dict[str, str], data: bytes | None) -> tuple[str, str]:
    undo = fields.get("undo") == "1"
    done = service.check_in(club, event, [fields.get("player", "")], undo, actor=ACTOR)
    return f"{done[0]} {'checked out' if undo else 'checked in'}.", checkin_url(event)


def _close_check_in(club: Any, event: str, fields: dict[str, str], data: bytes | None) -> tuple[str, str]:
    absent = service.close_check_in(club, event, actor=ACTOR)
    r = club.pair_round(event, actor=ACTOR)
    gone = f" Not checked in: {', '.join(absent)}." if absent else ""
    return (f"Check-in closed: round {r.round}, {len(r.matches)} "
            f"match{'es' if len(r.matches) != 1 else ''}.{gone}", "/director")


SETUP_ACTIONS: dict[str, Change] = {
    "player": _add_player, "event": _new_event, "money": _correct_money, "enter": _enter,
    "late": _late_entry, "mat": _attach_mat, "checkin": _check_in, "close": _close_check_in,
}


def setup_act(club: Any, fields: dict[str, str], data: bytes | None, action: str) -> tuple[str, str]:
    """One set-up or check-in change on the open ``club``: (the sentence, the page to go back to)."""
    change = SETUP_ACTIONS.get(action)
    if change is None:
        raise InputError(f"there is no set-up action {bounded(action, 20)!r}")
    return change(club, fields.get("event", ""), fields, data)


def setup_events(club: Any) -> list[dict[str, Any]]:
    """Every event of the open ``club`` for the set-up page: its check-in, its entry fee and
    its finished matches (a ``.mat`` may be attached to one)."""
    events = []
    for info in club.events():
        s = service.event_settings(club, info.name)
        events.append({"info": info, "check_in": s.get("check_in"), "fee": s.get("fee_cents"),
                       "done": [m for m in club.matches(info.name) if m.status == "finished"]})
    return events


def director_only(site: Any, handler: Callable[..., Response]) -> Callable[[Request], Any]:
    """``handler`` (run in the thread pool) for the director; anyone else goes to the login."""
    async def guarded(request: Request) -> Response:
        if not await run_in_threadpool(auth.check_director, request, site.director_sessions):
            return RedirectResponse("/director/login", status_code=303)
        return await run_in_threadpool(handler, request)
    return guarded


def setup_routes(site: Any, page: Callable[..., Response], refused: Callable[..., Response]) -> list[Route]:
    """The set-up and check-in pages and their forms' answers (module docstring)."""

    def setup_page(request: Request, status: int = 200, sentence: str | None = None) -> Response:
        with site.club() as club:
            events = setup_events(club)
            flash = request.session.pop(FLASH, None)
            return page(request, "setup.html", status=status, events=events, players=club.players(),
                        sentence=sentence, flash=flash if isinstance(flash, str) else None,
                        checkin_url=checkin_url, print_url=print_url, slips_url=slips_url,
                        backup_dir=service.backup_dir(club))

    def checkin_page(request: Request, status: int = 200, sentence: str | None = None) -> Response:
        name = request.path_params["name"]
        with site.club() as club:
            try:
                info = club.event(name)
            except InputError as error:
                return refused(request, auth.Refused(404, str(error)))
            s = service.event_settings(club, info.name)
            entered = dict(service.check_in_list(club, info.name))
            everyone = [(p.name, entered.get(p.name)) for p in club.players()]
            flash = request.session.pop(FLASH, None)
            return page(request, "checkin.html", status=status, event=info, open=s.get("check_in") == "open",
                        everyone=everyone, present=sum(1 for v in entered.values() if v),
                        sentence=sentence, flash=flash if isinstance(flash, str) else None,
                        checkin_url=checkin_url)

    def act(fields: dict[str, str], data: bytes | None, action: str) -> tuple[str, str]:
        with site.club() as club:
            return setup_act(club, fields, data, action)

    async def action(request: Request) -> Response:
        try:
            fields, data = await checked_upload(request)
        except auth.Refused as error:
            return refused(request, error)
        if not await run_in_threadpool(auth.check_director, request, site.director_sessions):
            return refused(request, auth.Refused(403, "Log in as the director first."))
        name = request.path_params["action"]
        try:
            done, back = await run_in_threadpool(act, fields, data, name)
        except InputError as error:
            if name in ("checkin", "close"):
                request.path_params["name"] = fields.get("event", "")
                return await run_in_threadpool(checkin_page, request, 400, str(error))
            return await run_in_threadpool(setup_page, request, 400, str(error))
        request.session[FLASH] = bounded(done, 300)
        return RedirectResponse(back, status_code=303)

    return [
        Route("/director/setup", director_only(site, setup_page)),
        Route("/director/checkin/{name:path}", director_only(site, checkin_page)),
        Route("/director/evening/{action:str}", action, methods=["POST"]),
    ]


__all__ = ["SETUP_ACTIONS", "checked_upload", "money_fields", "setup_act", "setup_events", "setup_routes"]
