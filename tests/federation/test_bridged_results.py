"""Every result a club stores reaches the federation exactly once, through real Mosquitto
bridges and a real PostgreSQL: while the federation's broker is down (the club's broker
queues, the feed sends again) and across a ``kill -9`` of the federation service (unacked
messages delivered again by its persistent session)."""

from __future__ import annotations

import asyncio
import random
import time

from bgboard.federation.ledger import Ledger
from bgboard.federation.local_rig import LocalFederation, union_ratings
from bgboard.federation.rating_list import rating_list


async def _until(check, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, f"not within {timeout} s: {what}"
        await asyncio.sleep(0.1)


def test_results_reach_the_federation_once_through_an_outage_and_a_kill(tmp_path, postgres_url):
    rng = random.Random(36)
    with LocalFederation(tmp_path, postgres_url, ["north", "south"], boards=2) as fed:
        for site in fed.sites:
            site.make_club(players=6, pool=8, length=3, rounds=3)
        ledger = Ledger(postgres_url)

        def stored() -> set[tuple[str, str]]:
            return {(r.club, r.id) for r in ledger.results()}

        def expected() -> set[tuple[str, str]]:
            return {(s.name, u) for s in fed.sites for u in s.stored_uuids()}

        async def evening() -> None:
            feeds = [s.start_feed(resend_s=2.0) for s in fed.sites]
            tasks = [asyncio.ensure_future(f.run()) for f in feeds]
            try:
                for s in fed.sites:  # round 1: everything up
                    await asyncio.to_thread(s.play_round, rng)
                await _until(lambda: stored() == expected(), 45, "round 1 stored")
                fed.home.broker.kill()  # the bridges go down: the clubs' brokers queue
                for s in fed.sites:
                    await asyncio.to_thread(s.play_round, rng)
                await asyncio.sleep(1.0)
                assert len(stored()) == 6
                fed.home.broker.start()
                await _until(lambda: stored() == expected(), 45, "round 2 stored after the outage")
                fed.kill_service()  # kill -9; the results of round 3 wait at its broker
                for s in fed.sites:
                    await asyncio.to_thread(s.play_round, rng)
                await asyncio.sleep(0.5)
                fed.start_service()
                await _until(lambda: stored() == expected() and all(s.unanswered() == 0 for s in fed.sites), 45,
                             "round 3 stored and answered after the service's kill -9")
            finally:
                for f in feeds:
                    f.stop()
                await asyncio.gather(*tasks)

        asyncio.run(evening())
        results = ledger.results()
        assert len(results) == len(expected()) == 18  # 2 clubs x 3 rounds x 3 matches, each once
        assert len({(r.club, r.id) for r in results}) == len(results)
        lines, _ = rating_list(results)
        union = union_ratings(tmp_path / "union.sqlite", results)
        assert {line.member: round(line.rating, 9) for line in lines} == {m: round(r, 9) for m, r in union.items()}
        assert len(lines) == 8  # the pool of members, some playing at both clubs
        ledger.close()


def test_club_serve_feeds_the_federation(tmp_path, postgres_url):
    """The deployment's path: ``bgboard club serve --broker ... --feed-password-file`` sends what
    the club stores (here by the director's own command line) to the federation."""
    import signal
    import subprocess
    import sys

    from bgboard.cli import main
    from bgboard.net.broker import DIRECTOR, FEED

    with LocalFederation(tmp_path, postgres_url, ["north"], boards=2) as fed:
        club = fed.sites[0]
        club.make_club(players=4, pool=4, length=1, rounds=1)
        serve = subprocess.Popen(
            [sys.executable, "-m", "bgboard", "club", "--db", str(club.db), "serve", "--broker", club.broker.url,
             "--topic", "north", "--password-file", str(club.broker.password_file(DIRECTOR)),
             "--feed-password-file", str(club.broker.password_file(FEED))],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            assert main(["club", "--db", str(club.db), "round", "Club night"]) == 0
            for match in (1, 2):
                assert main(["club", "--db", str(club.db), "result", "Club night", str(match), "--score", "1-0"]) == 0
            with Ledger(postgres_url) as ledger:
                deadline = time.monotonic() + 30
                while ledger.count() < 2:
                    assert serve.poll() is None, serve.stderr.read() if serve.stderr else ""
                    assert time.monotonic() < deadline, "the results did not reach the federation"
                    time.sleep(0.2)
                assert sorted(r.score for r in ledger.results()) == [(1, 0), (1, 0)]
            deadline = time.monotonic() + 20
            while club.unanswered():
                assert time.monotonic() < deadline, "the federation's answers did not reach the club"
                time.sleep(0.2)
        finally:
            serve.send_signal(signal.SIGTERM)
            out, err = serve.communicate(timeout=30)
        assert "every stored result to the federation" in out
        assert serve.returncode == 0, err[-500:]
