"""A whole federation on this machine (adapter): for the demo, the benchmark and the tests.

:class:`LocalFederation` makes, in one folder: the federation's folder (``bgboard federation
init``'s) on a given PostgreSQL database, its Mosquitto, the federation service as a child
process (``bgboard federation serve``: so it can be killed with ``kill -9``), and for each club
a :class:`ClubSite` — its own Mosquitto (:class:`~bgboard.net.mosquitto.PrivateBroker`, the
club's files) carrying the bridge ``bgboard federation join`` writes, its SQLite database
with players linked to federation members, and its results feed
(:class:`~bgboard.club.federation_feed.ResultsFeed`, run on the caller's asyncio loop).
Nothing here is simulated but the players: the results are stored by the club's own service
(:meth:`ClubSite.play_round`), or reported by boards to the club's own director process
(:meth:`ClubSite.start_director`: ``bgboard club serve --broker --feed-password-file``), and
every message crosses real brokers and a real bridge.

:func:`union_ratings` is the other side of the rating list's proof: one club database holding
the union of every club's results, rated by the club's own code (``rating_store.recompute``).
"""

from __future__ import annotations

import logging
import os
import random
import subprocess
import sys
import threading
import time
import uuid as uuids
from pathlib import Path

from bgboard.club.db import Club
from bgboard.club.director import Director
from bgboard.club.federation_feed import ClubOutbox, FeedSettings, ResultsFeed
from bgboard.club.member_links import link_member
from bgboard.club import rating_store
from bgboard.federation.bridge_conf import bridge_section
from bgboard.federation.home import Home, Settings
from bgboard.federation.stored_result import StoredResult
from bgboard.federation.rating_list import rateable
from bgboard.net.broker import DIRECTOR, FEED
from bgboard.net.mosquitto import PrivateBroker, free_port
from bgboard.net.protocol import parse_broker_url

log = logging.getLogger(__name__)

EVENT = "Club night"


def member_of(club_index: int, player: int, players: int, pool: int) -> str:
    """The member id of a club's player: clubs overlap (a member plays at two clubs) when the
    pool is smaller than every club's players together."""
    return f"M{(club_index * players + player) % pool:05d}"


class ClubSite:
    """One club: its broker bridged to the federation, its database, its feed."""

    def __init__(self, root: Path, name: str, index: int, boards: int, fed_port: int, fed_password: str) -> None:
        self.root = Path(root)
        self.name = name
        self.index = index
        self.boards = boards
        self.root.mkdir(parents=True, exist_ok=True)
        self.broker = PrivateBroker(self.root / "broker", name, range(1, boards + 1))
        conf_d = self.root / "broker" / "conf.d"
        conf_d.mkdir(exist_ok=True)
        bridge = conf_d / "federation-bridge.conf"
        bridge.write_text(bridge_section(name, "127.0.0.1", fed_port, fed_password))
        os.chmod(bridge, 0o600)
        # the club's machine: Debian's mosquitto.conf includes /etc/mosquitto/conf.d/ the same way
        self.broker.conf.write_text(self.broker.conf.read_text() + f"include_dir {conf_d}\n")
        self.db = self.root / "club.sqlite"
        self.feed: ResultsFeed | None = None
        self.director: subprocess.Popen[str] | None = None

    def make_club(self, players: int, pool: int, length: int, rounds: int) -> None:
        """The club's database: ``players`` linked to members, a Swiss event of ``rounds``."""
        with Director.create(self.db, f"Club {self.name}") as d:
            names = [f"{self.name}-{i:03d}" for i in range(players)]
            for i, name in enumerate(names):
                d.add_player(name)
                link_member(d.club, name, member_of(self.index, i, players, pool))
            d.new_event(EVENT, "swiss", length, rounds=rounds)
            d.enter(EVENT, names)

    def play_round(self, rng: random.Random, on_stored: "dict[str, float] | None" = None,
                   pace_s: float = 0.0) -> int:
        """Pair a round and store a result for every match of it, as the boards would report
        them (a result key each); ``on_stored[uuid]`` = the time each was committed."""
        with Director.open(self.db) as d:
            r = d.pair_round(EVENT)
            for m in r.matches:
                if m.players[1] is None:
                    continue
                n = m.length
                loser = rng.randrange(n) if n > 1 else 0
                score = (n, loser) if rng.random() < 0.5 else (loser, n)
                d.record_result(EVENT, m.id, score, result_key=str(uuids.uuid4()), actor=f"board{m.board or 1}")
                if on_stored is not None:
                    on_stored[m.uuid] = time.time()
                if pace_s:
                    time.sleep(pace_s)
            return len(r.matches)

    def start_feed(self, resend_s: float = 15.0) -> ResultsFeed:
        settings = FeedSettings(parse_broker_url(self.broker.url), self.name, self.broker.password(FEED),
                                resend_s=resend_s)
        self.feed = ResultsFeed(settings, ClubOutbox(self.db, self.name))
        return self.feed

    def start_director(self) -> None:
        """The club's own director process, as a club runs it: ``bgboard club serve --broker``
        on the club's database and broker (the boards' assignments and results) with
        ``--feed-password-file`` (every stored result to the federation through the bridge)."""
        with open(self.root / "director.log", "a") as log_file:
            self.director = subprocess.Popen(
                [sys.executable, "-m", "bgboard", "club", "--db", str(self.db), "serve", "--broker", self.broker.url,
                 "--topic", self.name, "--password-file", str(self.broker.password_file(DIRECTOR)),
                 "--feed-password-file", str(self.broker.password_file(FEED))],
                stdout=subprocess.DEVNULL, stderr=log_file, text=True)

    def stop_director(self) -> None:
        if self.director is not None:
            self.director.terminate()
            try:
                self.director.wait(30)
            except subprocess.TimeoutExpired:
                self.director.kill()
                self.director.wait()
            self.director = None

    def result_keys(self) -> dict[str, str]:
        """The boards' result UUIDs (the club's result keys) -> the club's match UUIDs."""
        with Club(self.db) as club:
            return {r[0]: r[1] for r in club.conn.execute(
                "SELECT result_key, uuid FROM matches WHERE result_key IS NOT NULL")}

    def stored_uuids(self) -> set[str]:
        with Club(self.db) as club:
            return {r[0] for r in club.conn.execute("SELECT uuid FROM matches WHERE status IN ('finished', 'forfeit')")}

    def unanswered(self) -> int:
        with Club(self.db) as club:
            return int(club.conn.execute(
                "SELECT count(*) FROM matches m WHERE m.status IN ('finished', 'forfeit') AND NOT EXISTS "
                "(SELECT 1 FROM federation_acks a WHERE a.match_uuid = m.uuid)").fetchone()[0])


class LocalFederation:
    """The federation's side and its clubs (see the module docstring)."""

    def __init__(self, root: Path, db_url: str, clubs: list[str], boards: int, *, name: str = "Federation") -> None:
        self.root = Path(root)
        self.root.mkdir(parents=True, exist_ok=True)
        self.home = Home.create(self.root / "federation", Settings(name, db_url, free_port()))
        self.service: subprocess.Popen[str] | None = None
        self.service_log = self.root / "federation-service.log"
        self.sites = []
        for i, club in enumerate(clubs):
            _, password = self.home.join(club, f"Club {club}")
            self.sites.append(ClubSite(self.root / club, club, i, boards, self.home.settings.port, password))

    def start(self) -> None:
        self.home.broker.start()
        self.start_service()
        for site in self.sites:
            site.broker.start()

    def start_service(self, timeout: float = 30.0) -> None:
        """``bgboard federation serve`` as a child; returns once it has subscribed."""
        log_file = open(self.service_log, "a")
        self.service = subprocess.Popen(
            [sys.executable, "-m", "bgboard", "federation", "--dir", str(self.home.folder), "serve"],
            stdout=subprocess.PIPE, stderr=log_file, text=True)
        log_file.close()
        deadline = time.monotonic() + timeout
        assert self.service.stdout is not None
        while time.monotonic() < deadline:
            line = self.service.stdout.readline()
            if not line:
                raise RuntimeError(f"the federation service ended: {self.service_log.read_text()[-600:]}")
            if "subscribed" in line:
                # what it prints later (a reconnection) is read too: a full pipe would stop it
                out = self.service.stdout
                threading.Thread(target=lambda: (out.read(), out.close()), name="service-output", daemon=True).start()
                return
        raise RuntimeError("the federation service did not subscribe in time")

    def kill_service(self) -> None:
        """``kill -9`` the federation service."""
        if self.service is not None:
            self.service.kill()
            self.service.wait()  # its output is read to the end and closed by its reader
            self.service = None

    def stop_service(self) -> None:
        if self.service is not None:
            self.service.terminate()
            try:
                self.service.wait(20)
            except subprocess.TimeoutExpired:
                self.service.kill()
                self.service.wait()
            self.service = None

    def stop(self) -> None:
        for site in self.sites:
            site.stop_director()
        self.stop_service()
        for site in self.sites:
            site.broker.stop()
        self.home.broker.stop()

    def __enter__(self) -> "LocalFederation":
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def union_ratings(path: Path, results: list[StoredResult]) -> dict[str, float]:
    """Every member's rating computed by one club from the union of ``results`` (in the given
    order: the federation's order played): a club database with one player per member and
    the rateable results as its finished matches, rated by the club's own
    :func:`bgboard.club.rating_store.recompute`."""
    with Director.create(path, "Union") as d:
        members = sorted({m for r in results if rateable(r) for m in r.members if m})
        for member in members:
            d.add_player(member)
        d.new_event("Union", "round-robin", 1)
        with d.club.transaction() as db:
            ids = {r["name"]: r["id"] for r in db.execute("SELECT id, name FROM players")}
            event = db.execute("SELECT id FROM events").fetchone()[0]
            rnd = db.execute("INSERT INTO rounds (event_id, number, paired_at) VALUES (?, 1, '2026-01-01')"
                             " RETURNING id", (event,)).fetchone()[0]
            seq = 0
            for r in results:
                if not rateable(r):
                    continue
                seq += 1
                a, b = ids[str(r.members[0])], ids[str(r.members[1])]
                score = r.score or ((r.length, 0) if r.winner == 0 else (0, r.length))
                db.execute("INSERT INTO matches (uuid, event_id, round_id, node, flight, player_a, player_b, length,"
                           " status, score_a, score_b, winner, rated_seq) VALUES (?, ?, ?, ?, 'main', ?, ?, ?,"
                           " 'finished', ?, ?, ?, ?)",
                           (f"{r.club}/{r.id}", event, rnd, f"u{seq}", a, b, r.length, score[0], score[1],
                            a if r.winner == 0 else b, seq))
        rating_store.recompute(d.club)
        return {p.name: p.rating for p in d.ratings()}


__all__ = ["EVENT", "member_of", "ClubSite", "LocalFederation", "union_ratings"]
