"""``bgboard federation demo --clubs 3 --out DIR``: a federation evening on this machine.

A private PostgreSQL (in a temporary folder, removed at the end), the federation's Mosquitto
and service, and for each club its own Mosquitto bridged to the federation's, its database
(eight players linked to federation members, some of whom play at two clubs) and its results
feed (:class:`~bgboard.federation.local_rig.LocalFederation`).  Every club plays three Swiss
rounds at once; each result reaches the federation once; the demo prints the one rating list
and the season's standings over every club's evening and writes the federation's CSV files
(members, results, ratings, rating history) into ``DIR/export``.
"""

from __future__ import annotations

import asyncio
import random
import time
from pathlib import Path

from bgboard.errors import InputError

NAMES = ("north", "south", "east", "west", "harbour", "hill", "river", "market", "bridge", "castle")
BOARDS = 4
ROUNDS = 3
LENGTH = 3


def club_names(count: int) -> list[str]:
    return list(NAMES[:count]) + [f"club{i}" for i in range(len(NAMES), count)]


def run_demo(clubs: int, out: Path) -> int:
    from bgboard.federation.ledger import Ledger
    from bgboard.federation.local_rig import LocalFederation
    from bgboard.federation.rating_list import rating_list
    from bgboard.federation.season import season_standings
    from bgboard.net.mosquitto import mosquitto_binary
    from bgboard.store.private_postgres import PrivatePostgres

    out = Path(out)
    if out.exists() and any(out.iterdir()):
        raise InputError(f"{out} is not empty: give the demo a new folder")
    mosquitto_binary()  # one sentence now if Mosquitto is not installed
    names = club_names(clubs)
    players = 2 * BOARDS
    pool = max(players, clubs * players * 3 // 4)
    with PrivatePostgres() as pg:
        url = pg.create_database("federation")
        fed = LocalFederation(out, url, names, BOARDS, name="Demo federation")
        fed.start()
        try:
            for site in fed.sites:
                site.make_club(players, pool, LENGTH, ROUNDS)
        except BaseException:
            fed.stop()
            raise
        print(f"federation broker {fed.home.broker.url}, service running; {clubs} clubs bridged to it, "
              f"{players} players each from {pool} members", flush=True)
        try:
            asyncio.run(_evening(fed))
        finally:
            fed.stop()
        with Ledger(url) as ledger:
            results = ledger.results()
            for name in names:
                ledger.count_event("Demo season", name, "Club night")
            counted = ledger.counted_events("Demo season")
            members = {m["id"]: m["name"] for m in ledger.members()}
            from bgboard.federation.export_files import write_export

            print(write_export(ledger, out / "export"))
    lines, _ = rating_list(results)
    print(f"{len(results)} results from {clubs} clubs, each stored once; one rating list of {len(lines)} members:")
    for rank, line in enumerate(lines[:10], 1):
        print(f"{rank:>3}. {line.member} {members.get(line.member, ''):<12} {line.rating:8.2f} "
              f"({line.matches} matches)")
    season = season_standings(results, counted, {x.member: x.rating for x in lines})
    print("season standings (every club's 'Club night'): " + ", ".join(
        f"{s.rank}. {s.member} {s.points}" for s in season[:5]))
    print(f"everything is in {out}: each club's database and broker, the federation's folder; CSV files in {out / 'export'}")
    return 0


async def _evening(fed: object) -> None:
    from bgboard.federation.local_rig import LocalFederation

    assert isinstance(fed, LocalFederation)
    feeds = [site.start_feed(resend_s=5.0) for site in fed.sites]
    tasks = [asyncio.ensure_future(f.run()) for f in feeds]
    try:
        async def club(i: int) -> None:
            site = fed.sites[i]
            rng = random.Random(36 + i)
            for r in range(1, ROUNDS + 1):
                n = await asyncio.to_thread(site.play_round, rng, None, 0.05)
                print(f"club {site.name}: round {r}, {n} results stored", flush=True)

        await asyncio.gather(*(club(i) for i in range(len(fed.sites))))
        deadline = time.monotonic() + 60
        waiting = 1
        while waiting and time.monotonic() < deadline:
            waiting = sum(await asyncio.gather(*(asyncio.to_thread(s.unanswered) for s in fed.sites)))
            await asyncio.sleep(0 if not waiting else 0.2)
        print("every club has the federation's answer to every result" if not waiting else
              f"{waiting} results still wait for the federation's answer after 60 s (the clubs send them again)",
              flush=True)
    finally:
        for f in feeds:
            f.stop()
        await asyncio.gather(*tasks)


__all__ = ["run_demo"]
