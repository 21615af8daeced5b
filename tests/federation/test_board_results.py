"""The board path of a federation evening (issue 36): results reported by real board-side
clients (ClubLink with its SQLite journal and outbox) to each club's own director process
(``bgboard club serve --broker --feed-password-file``), over each club's real Mosquitto, reach
the federation through the real bridge exactly once, each under the club's match UUID."""

from __future__ import annotations

import asyncio
import time
import uuid as uuids
from dataclasses import replace

from bgboard.club.director import Director
from bgboard.federation.ledger import Ledger
from bgboard.federation.local_rig import EVENT, LocalFederation
from bgboard.match import replay
from bgboard.match.selfplay import selfplay
from bgboard.net.board_report import result_of
from bgboard.net.boardlink import ClubLink, LinkSettings
from bgboard.net.broker import board_user
from bgboard.net.protocol import Assignment, parse_broker_url
from bgboard.store.journal import Journal

ROUNDS = 2


async def _board(site, n: int, folder, book, submitted: dict[str, str]) -> None:
    """One board of ``site``: plays every match the director assigns it, ROUNDS of them."""
    queue: asyncio.Queue[Assignment] = asyncio.Queue()
    journal = Journal(folder / f"{site.name}-board{n}.sqlite")
    settings = LinkSettings(parse_broker_url(site.broker.url), site.name, n, board_user(n),
                            site.broker.password(board_user(n)), resend_s=3.0, keepalive_s=30, backoff_most_s=1.0)
    link = ClubLink(settings, journal, on_assignment=queue.put_nowait)
    running = asyncio.ensure_future(link.run())
    done: set[int] = set()
    try:
        while len(done) < ROUNDS:
            a = await asyncio.wait_for(queue.get(), 60)
            if not a.match or a.match in done:
                continue
            done.add(a.match)
            actions = [replace(book[0], players=a.players), *book[1:]]
            result = result_of(actions, replay(actions), uuid=str(uuids.uuid4()), board=n, assignment=a,
                               last_seq=len(actions), finished_ms=int(time.time() * 1000))
            submitted[result.uuid] = site.name
            link.submit_result(result)
        deadline = time.monotonic() + 60
        while journal.outbox_pending():  # until the director has acked every result of this board
            assert time.monotonic() < deadline, "a board's result was never acked"
            await asyncio.sleep(0.1)
    finally:
        link.stop()
        await running
        journal.close()


def test_boards_results_reach_the_federation_once_through_each_clubs_director(tmp_path, postgres_url):
    book = selfplay(1, 3)
    with LocalFederation(tmp_path / "run", postgres_url, ["east", "west"], boards=2) as fed:
        for site in fed.sites:
            site.make_club(players=4, pool=6, length=1, rounds=ROUNDS)
            with Director.open(site.db) as d:
                d.pair_round(EVENT)  # round 1 starts the evening; the director pairs round 2
            site.start_director()
        (tmp_path / "boards").mkdir()
        submitted: dict[str, str] = {}
        ledger = Ledger(postgres_url)

        async def evening() -> None:
            await asyncio.gather(*(_board(site, n, tmp_path / "boards", book, submitted)
                                   for site in fed.sites for n in (1, 2)))
            deadline = time.monotonic() + 60
            while any(site.unanswered() for site in fed.sites) or ledger.count() < len(submitted):
                assert time.monotonic() < deadline, "the federation did not answer every club's result"
                await asyncio.sleep(0.2)

        asyncio.run(evening())
        results = ledger.results()
        ledger.close()
        keys = {site.name: site.result_keys() for site in fed.sites}
    assert len(submitted) == 2 * 2 * ROUNDS
    # every board's result is stored by its club under its result key ...
    assert {(club, key) for key, club in submitted.items()} == {(c, k) for c, ks in keys.items() for k in ks}
    # ... and reaches the federation exactly once, under the club's match UUID
    assert sorted((r.club, r.id) for r in results) == sorted((c, m) for c, ks in keys.items() for m in ks.values())
    assert all(r.event == EVENT and r.length == 1 for r in results)
