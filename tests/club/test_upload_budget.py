"""The evening's uploads on a bounded budget (issue 35, "temporary files on a bounded budget"):
a ``.mat`` upload is held in memory (never a temporary file: tests/net/test_disk_full.py shows
it on a full disk), so the bodies being read at once are bounded together by the door — one
past :data:`UPLOAD_BUDGET` is refused (503, try again) before it is read, and the budget comes
back when a body is done.  Driven through the door's own ASGI interface."""

from __future__ import annotations

import asyncio

from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response

from bgboard.club.web.door import MAX_UPLOAD, UPLOAD_BUDGET, Door
from bgboard.club.web.login import Refused


def test_uploads_past_the_budget_are_refused_before_they_are_read_and_the_budget_comes_back():
    async def director(request: Request) -> bool:
        return True

    def refuse(request: Request, error: Refused) -> Response:
        return PlainTextResponse(error.sentence, status_code=error.status)

    async def app(scope, receive, send):         # reads the whole body, then answers
        while (await receive()).get("more_body"):
            pass
        await PlainTextResponse("ok")(scope, receive, send)

    door = Door(app, director, refuse)

    async def upload(release: asyncio.Event, statuses: list[int], read: list[int]) -> None:
        scope = {"type": "http", "method": "POST", "path": "/director/evening/mat", "query_string": b"",
                 "headers": [(b"content-length", str(MAX_UPLOAD).encode()), (b"host", b"127.0.0.1")]}
        parts = iter([b"x" * 1024, b""])

        async def receive():
            part = next(parts, b"")
            if part:
                read.append(len(part))
                await release.wait()        # the client is slow: its body is still coming
                return {"type": "http.request", "body": part, "more_body": True}
            return {"type": "http.request", "body": b"", "more_body": False}

        async def send(message):
            if message["type"] == "http.response.start":
                statuses.append(message["status"])

        await door(scope, receive, send)

    async def go() -> tuple[list[int], list[int], list[int], int, int]:
        release = asyncio.Event()
        statuses: list[int] = []
        read: list[int] = []
        held = UPLOAD_BUDGET // MAX_UPLOAD
        tasks = [asyncio.create_task(upload(release, statuses, read)) for _ in range(held)]
        await asyncio.sleep(0.05)
        in_flight = door.uploading
        late: list[int] = []
        late_read: list[int] = []
        await upload(release, late, late_read)           # one too many: refused at once, unread
        release.set()
        await asyncio.gather(*tasks)
        after: list[int] = []
        await upload(release, after, [])                 # the budget is back
        assert late_read == []
        return statuses, late, after, in_flight, door.uploading

    statuses, late, after, in_flight, left = asyncio.run(go())
    assert in_flight == UPLOAD_BUDGET // MAX_UPLOAD * MAX_UPLOAD
    assert late == [503] and statuses == [200] * (UPLOAD_BUDGET // MAX_UPLOAD) and after == [200]
    assert left == 0
