"""Results both players confirm (issue 26), end to end on a real Mosquitto: an event made
with --confirm-results; on board 1 both players confirm and the result counts at once, on
board 2 one player disputes and the result waits for the director — held, counting for
nothing — shown on the director's page with its .mat until the director accepts it there."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from bgboard.club import confirm, evening
from bgboard.club.director import Director as Service
from bgboard.club.live import LiveHub
from bgboard.club.web.app import create_app
from bgboard.club.web.password import hash_password
from bgboard.club.web.server import club_site
from bgboard.control.confirm import CONFIRM, DISPUTE
from bgboard.match import read_mat, replay
from bgboard.net.mosquitto import PrivateBroker
from bgboard.store.journal import Journal
from tests.net.club_harness import Evening, new_club

PASSWORD = "correct horse battery"


def csrf(html: str) -> str:
    found = re.search(r'name="csrf" value="([^"]+)"', html)
    assert found is not None
    return found.group(1)


@pytest.mark.slow
def test_both_players_confirm_and_a_dispute_waits_for_the_director(tmp_path: Path, broker: PrivateBroker) -> None:
    db = tmp_path / "club.sqlite"
    matches = new_club(db, players=4)
    with Service.open(db) as s:
        evening.configure(s, "Friday", confirm_results=True)
        s.set_director_password_hash(hash_password(PASSWORD))
    by_board = {m.board: m for m in matches}
    assert sorted(by_board) == [1, 2]
    answers = {1: (CONFIRM, CONFIRM), 2: (CONFIRM, DISPUTE)}

    async def go() -> Evening:
        e = Evening(tmp_path, broker, db)
        e.start_director()
        for n in (1, 2):
            e.start_board(n, matches=1, answers=lambda a, n=n: answers[n])
        await e.until(lambda: all(t.done() for t in e.board_tasks.values()))  # both results acked
        for t in e.board_tasks.values():
            t.result()
        await e.stop_director()
        return e

    e = asyncio.run(go())
    for n in (1, 2):
        with Journal(tmp_path / f"board{n}" / "journal.sqlite") as journal:
            rows = [r.body for r in journal.entries() if r.kind == "club" and r.body["what"] == "answer"]
        assert [(r["player"], r["answer"]) for r in rows] == list(enumerate(answers[n]))
    with Service.open(db) as s:
        confirmed, disputed = s.match(by_board[1].id), s.match(by_board[2].id)
        assert confirmed.status == "finished" and confirmed.has_mat  # both confirmed: it counts now
        assert disputed.status == "pending" and disputed.score is None  # disputed: it waits
        [held] = confirm.held(s)
        assert (held.match_id, held.board, held.why) == (disputed.id, 2, confirm.DISPUTED_WHY)
        standings = {st.name: (st.wins, st.losses) for st in s.standings("Friday")}
        assert sum(w for w, _ in standings.values()) == 1  # only the confirmed match counts
        mat = confirm.held_mat(s, held.id)
    assert mat is not None and tuple(replay(read_mat(mat)).score) in {tuple(held.score), tuple(held.score[::-1])}

    # the director's page shows it with its .mat; accepted there, it counts
    with TestClient(create_app(club_site(db, LiveHub()))) as client:
        token = csrf(client.get("/director/login").text)
        client.post("/director/login", data={"csrf": token, "password": PASSWORD}, follow_redirects=False)
        page = client.get("/director").text
        assert f'id="held-{held.id}"' in page and "disputed at the board" in page
        assert f'href="/director/held/{held.id}/mat"' in page
        assert client.get(f"/director/held/{held.id}/mat").text == mat
        token = csrf(page)
        done = client.post("/director/accept", data={"csrf": token, "held": str(held.id)})
        assert done.status_code == 200 and "recorded" in done.text and f'id="held-{held.id}"' not in done.text
    with Service.open(db) as s:
        accepted = s.match(disputed.id)
        assert accepted.status == "finished" and accepted.score == held.score and accepted.has_mat
        assert confirm.held(s) == []
        assert sum(st.wins for st in s.standings("Friday")) == 2
