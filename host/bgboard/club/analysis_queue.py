"""Every stored result analysed in the background (adapter; issue 24, docs/club.md).

The queue is the club database's ``analyses`` table (migration 6, :mod:`bgboard.club.db`):
a trigger queues a match in the very transaction that stores or corrects its .mat record,
so the queue survives restarts and a crash loses nothing.  :func:`run_worker` (a task of
``bgboard club serve``) takes the queued matches one by one and analyses each in a child
process (the compiled engines hold the GIL for a whole evaluation: a thread would stall the
loop), with gnubg-nn at 0-ply as ``bgboard analyse`` does, falling back to bgsage when
gnubg-nn is not installed; :func:`drain` does the same in the foreground (``bgboard club
analyse``).  Results stay usable throughout: storing the figures is one short transaction,
and the pages read them (:func:`match_figures`, :func:`pr_table`, :func:`pr_history`).

Figures are stored per player in the club's order (the match's first player first),
whatever the .mat record's column order; a .mat corrected while it was being analysed
is analysed again (the figures are stored only if the record analysed is still the
match's).
"""

from __future__ import annotations

import asyncio
import json
import logging
import sqlite3
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable

from bgboard.club.db import Club
from bgboard.club.checks import mat_key
from bgboard.errors import EnvironmentFailure, InputError

__all__ = ["BACKGROUND_NICE", "ENGINES", "POLL_S", "analyse_record", "analysis_pool", "counts", "drain", "match_figures",
           "next_queued", "pr_history", "pr_table", "queue_all", "run_worker", "store", "write_csv"]

log = logging.getLogger(__name__)

#: The engines tried, in this order (the first installed one analyses): gnubg-nn at 0-ply
#: agrees with gnubg's own analysis (docs/analysis.md).
ENGINES = ("gnubg-nn", "bgsage")
#: How often the worker looks for new results when the queue is empty (another process,
#: such as ``bgboard club result``, may have stored one).
POLL_S = 2.0

_evaluator: Any = None


def _open_evaluator(engines: tuple[str, ...]) -> Any:
    """The first of ``engines`` installed (kept for the process's later records)."""
    global _evaluator
    if _evaluator is not None and _evaluator.name in engines:
        return _evaluator
    from bgboard.analysis.evaluators import open_evaluator

    reasons = []
    for name in engines:
        try:
            _evaluator = open_evaluator(name, 0)
            return _evaluator
        except (InputError, EnvironmentFailure) as exc:
            reasons.append(str(exc))
    raise EnvironmentFailure("no analysis engine is installed (" + "; ".join(reasons)
                     + "): pip install 'bgboard[hints]'")


def analyse_record(mat: str, engines: tuple[str, ...] = ENGINES) -> dict[str, Any]:
    """A .mat record's figures as ``bgboard analyse --json`` gives them for the same file
    (``{"engine", "plies", "length", "players": [...], "problems"}``, players in the file's
    column order), or ``{"problem": sentence}`` when it cannot be analysed (a variant).
    Runs in the worker's child process (or in the foreground for :func:`drain`)."""
    from bgboard.analysis.stats import summarise
    from bgboard.analysis.walk import analyse_match
    from bgboard.match.mat_read import import_mat
    from bgboard.rules.games import variant

    evaluator = _open_evaluator(engines)  # no engine: the EnvironmentFailure goes to the caller (rows stay queued)
    try:
        match = import_mat(mat)
        if not variant(match.variant).analysis:
            raise InputError(f"this is a {match.variant} match: only backgammon is analysed")
        analysis = analyse_match(match, evaluator, plies=0)
    except InputError as exc:
        return {"problem": str(exc)[:500]}
    return {
        "engine": analysis.engine,
        "plies": 0,
        "length": analysis.length,
        "players": [summarise(analysis, p).to_dict() for p in (0, 1)],
        "problems": list(analysis.problems)[:20],
    }


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def next_queued(conn: sqlite3.Connection) -> tuple[int, str] | None:
    """The oldest queued match and its .mat record, or None."""
    row = conn.execute("SELECT a.match_id, m.mat FROM analyses a JOIN matches m ON m.id = a.match_id"
                       " WHERE a.status = 'queued' AND m.mat IS NOT NULL ORDER BY a.queued_at, a.match_id"
                       " LIMIT 1").fetchone()
    return None if row is None else (int(row[0]), str(row[1]))


def store(club: Club, match_id: int, mat: str, result: dict[str, Any]) -> bool:
    """Keep ``result`` (from :func:`analyse_record`) as match ``match_id``'s analysis, if
    ``mat`` is still its record and it is still queued; whether it was kept."""
    with club.transaction() as db:
        row = db.execute("SELECT m.mat, pa.name AS a, pb.name AS b FROM analyses an"
                         " JOIN matches m ON m.id = an.match_id JOIN players pa ON pa.id = m.player_a"
                         " LEFT JOIN players pb ON pb.id = m.player_b"
                         " WHERE an.match_id = ? AND an.status = 'queued'", (match_id,)).fetchone()
        if row is None or row["mat"] != mat:
            return False   # corrected (queued again) or analysed by another worker meanwhile
        if "problem" in result:
            db.execute("UPDATE analyses SET status = 'failed', analysed_at = ?, problem = ?, figures = NULL"
                       " WHERE match_id = ?", (_now(), str(result["problem"]), match_id))
            return True
        players = list(result["players"])
        if mat_key(players[0]["name"]) != mat_key(row["a"]) and mat_key(players[1]["name"]) == mat_key(row["a"]):
            players.reverse()  # the .mat's columns are the other way round: the club's order
        figures = {"players": players, "length": result["length"], "problems": result["problems"]}
        db.execute("UPDATE analyses SET status = 'done', analysed_at = ?, engine = ?, plies = ?, figures = ?,"
                   " problem = NULL WHERE match_id = ?",
                   (_now(), result["engine"], result["plies"], json.dumps(figures), match_id))
    return True


def queue_all(club: Club) -> int:
    """Queue every stored result with a .mat again (after an engine upgrade, say); how many."""
    with club.transaction() as db:
        if club.postgres:  # SQLite's INSERT OR REPLACE as PostgreSQL's upsert
            from bgboard.club.postgres_store import REQUEUE

            return db.execute(REQUEUE, (_now(),)).rowcount
        return db.execute("INSERT OR REPLACE INTO analyses (match_id, status, queued_at)"
                          " SELECT id, 'queued', ? FROM matches WHERE mat IS NOT NULL", (_now(),)).rowcount


def counts(conn: sqlite3.Connection) -> dict[str, int]:
    """How many matches are queued, done and failed."""
    out = {"queued": 0, "done": 0, "failed": 0}
    for status, n in conn.execute("SELECT status, COUNT(*) FROM analyses GROUP BY status"):
        out[status] = n
    return out


def drain(path: str | Path, engines: tuple[str, ...] = ENGINES,
          on_each: Callable[[int, dict[str, Any]], None] | None = None) -> int:
    """Analyse every queued match of the club at ``path`` in this process (``bgboard club
    analyse``); how many were analysed.  Interrupted, the rest stays queued."""
    done = 0
    club = Club(path)
    try:
        while (item := next_queued(club.conn)) is not None:
            match_id, mat = item
            result = analyse_record(mat, engines)
            if store(club, match_id, mat, result):
                done += 1
                if on_each is not None:
                    on_each(match_id, result)
    finally:
        club.close()
    return done


BACKGROUND_NICE = 10


def analysis_pool() -> ProcessPoolExecutor:
    """The analysis child (one process, spawned): it dies with the director's process
    (bgboard.club.lifeline) and yields the CPU to it (results checked and acked, the pages) —
    an analysis can wait, a board's ack should not (issue 25: with 200 results at once the
    analyses took a core from the checks)."""
    import multiprocessing

    from bgboard.club.lifeline import helper_start

    return ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"),
                               initializer=helper_start, initargs=(BACKGROUND_NICE,))


async def run_worker(path: str | Path, *, engines: tuple[str, ...] = ENGINES, poll_s: float = POLL_S,
                     stop: asyncio.Event | None = None) -> None:
    """``bgboard club serve``'s analysis task: analyse queued matches in a child process, one
    at a time, until cancelled (or ``stop`` is set).  The loop only waits: the database is
    read and written on a thread, the engine runs in the child.  No engine installed: said
    once in the log, the matches stay queued."""
    loop = asyncio.get_running_loop()
    new_pool = analysis_pool
    pool = new_pool()
    database = _ClubThread(path)
    told = False
    try:
        while stop is None or not stop.is_set():
            try:
                item = await database.run(lambda c: next_queued(c.conn))
            except (InputError, EnvironmentFailure, sqlite3.Error) as exc:  # busy, moved, damaged: the pages say so; try later
                log.warning("the analysis queue cannot be read just now: %s", exc)
                await _wait(stop, 10 * poll_s)
                continue
            if item is None:
                await _wait(stop, poll_s)
                continue
            match_id, mat = item
            try:
                result = await loop.run_in_executor(pool, analyse_record, mat, engines)
            except EnvironmentFailure as exc:  # no engine installed
                if not told:
                    log.warning("the results are not analysed: %s", exc)
                    told = True
                await _wait(stop, 30 * poll_s)
                continue
            except BrokenProcessPool:  # the child died (killed, out of memory): a new one, the match stays queued
                log.warning("the analysis process ended unexpectedly; starting another")
                pool.shutdown(wait=False, cancel_futures=True)
                pool = new_pool()
                await _wait(stop, poll_s)
                continue
            except Exception as exc:  # a fault in the analysis of this record: it is marked, the queue goes on
                log.exception("match %d could not be analysed", match_id)
                result = {"problem": f"the analysis failed ({type(exc).__name__}: {str(exc)[:200]})"}
            try:
                if await database.run(lambda c: store(c, match_id, mat, result)):
                    log.info("match %d analysed", match_id)
            except (InputError, EnvironmentFailure, sqlite3.Error) as exc:
                log.warning("match %d's analysis could not be stored just now: %s", match_id, exc)
                await _wait(stop, 10 * poll_s)
    finally:
        pool.shutdown(wait=False, cancel_futures=True)
        await database.close()


class _ClubThread:
    """The worker's club, opened once on a thread of its own (an SQLite connection stays on
    the thread that made it) and used for every poll and store; a database error closes it,
    and the next call opens it again."""

    def __init__(self, path: str | Path) -> None:
        self.path = path
        self.club: Any = None
        self.thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="club-analysis")

    def _call(self, work: Callable[[Any], Any]) -> Any:
        if self.club is None:
            self.club = Club(self.path)
        try:
            return work(self.club)
        except sqlite3.Error:
            self._close()
            raise

    def _close(self) -> None:
        if self.club is not None:
            self.club.close()
            self.club = None

    async def run(self, work: Callable[[Any], Any]) -> Any:
        return await asyncio.get_running_loop().run_in_executor(self.thread, self._call, work)

    async def close(self) -> None:
        await asyncio.get_running_loop().run_in_executor(self.thread, self._close)
        self.thread.shutdown(wait=False)


async def _wait(stop: asyncio.Event | None, seconds: float) -> None:
    if stop is None:
        await asyncio.sleep(seconds)
        return
    try:
        await asyncio.wait_for(stop.wait(), seconds)
    except asyncio.TimeoutError:
        pass


# ---------------------------------------------------------------------- for the pages and the export
def match_figures(conn: sqlite3.Connection, match_id: int) -> dict[str, Any] | None:
    """``{"status", "engine", "players": [a's figures, b's] or None, "problem"}`` of a match
    whose result has a .mat, or None (no record to analyse)."""
    row = conn.execute("SELECT * FROM analyses WHERE match_id = ?", (match_id,)).fetchone()
    if row is None:
        return None
    figures = json.loads(row["figures"]) if row["figures"] else None
    return {"status": row["status"], "engine": row["engine"], "problem": row["problem"],
            "players": figures["players"] if figures else None}


def _done(conn: sqlite3.Connection, event_id: int | None, player_id: int | None = None) -> list[sqlite3.Row]:
    sql = ("SELECT m.id, m.number, m.event_id, m.player_a, m.player_b, e.name AS event, a.figures, a.analysed_at"
           " FROM analyses a JOIN matches m ON m.id = a.match_id JOIN events e ON e.id = m.event_id"
           " WHERE a.status = 'done'")
    args: list[Any] = []
    if event_id is not None:
        sql += " AND m.event_id = ?"
        args.append(event_id)
    if player_id is not None:
        sql += " AND (m.player_a = ? OR m.player_b = ?)"
        args += [player_id, player_id]
    return conn.execute(sql + " ORDER BY m.id", args).fetchall()


def pr_table(conn: sqlite3.Connection, event: str | None = None, player: str | None = None) -> list[dict[str, Any]]:
    """Each analysed player's PR over the matches of ``event`` (or of the whole club), best
    first: ``{"name", "pr", "error_rate_memg", "decisions", "matches", "luck_emg"}``
    (``player``: that player's row alone, from their matches only).  Over several matches PR
    is 500 × the total error ÷ the total decisions (each decision weighs the same, as XG and
    the BMAB add matches up), not the mean of the matches' PRs."""
    event_id = None
    if event is not None:
        row = conn.execute("SELECT id FROM events WHERE name = ?", (event,)).fetchone()
        if row is None:
            return []
        event_id = row[0]
    me = None
    if player is not None:
        found = conn.execute("SELECT id FROM players WHERE name = ?", (" ".join(player.split()),)).fetchone()
        if found is None:
            return []
        me = found[0]
    names = {r[0]: r[1] for r in conn.execute("SELECT id, name FROM players")}
    totals: dict[int, dict[str, Any]] = {}
    for r in _done(conn, event_id, me):
        players = json.loads(r["figures"])["players"]
        for pid, f in zip((r["player_a"], r["player_b"]), players):
            if pid is None or (me is not None and pid != me):
                continue
            t = totals.setdefault(pid, {"error": 0.0, "decisions": 0, "matches": 0, "luck": 0.0})
            t["error"] += f["error_emg"]
            t["decisions"] += f["decisions"]
            t["matches"] += 1
            t["luck"] += f["luck_emg"]
    rows = []
    for pid, t in totals.items():
        rate = t["error"] / t["decisions"] if t["decisions"] else 0.0
        rows.append({"name": names[pid], "pr": 500.0 * rate, "error_rate_memg": 1000.0 * rate,
                     "decisions": t["decisions"], "matches": t["matches"], "luck_emg": t["luck"]})
    rows.sort(key=lambda r: (r["decisions"] == 0, r["pr"], r["name"].casefold()))
    return rows


def pr_history(conn: sqlite3.Connection, name: str) -> list[dict[str, Any]]:
    """A player's analysed matches, oldest first: ``{"match_id", "number", "event",
    "opponent", "pr", "pr_low", "pr_high", "decisions", "error_rate_memg", "luck_emg",
    "opponent_pr"}``."""
    row = conn.execute("SELECT id FROM players WHERE name = ?", (" ".join(name.split()),)).fetchone()
    if row is None:
        return []
    me = row[0]
    names = {r[0]: r[1] for r in conn.execute("SELECT id, name FROM players")}
    out = []
    for r in _done(conn, None, me):
        players = json.loads(r["figures"])["players"]
        side = 0 if r["player_a"] == me else 1
        f, other = players[side], players[1 - side]
        out.append({"match_id": r["id"], "number": r["number"], "event": r["event"],
                    "opponent": names.get((r["player_b"], r["player_a"])[side]),
                    "pr": f["pr"], "pr_low": f["pr_low"], "pr_high": f["pr_high"], "decisions": f["decisions"],
                    "error_rate_memg": f["error_rate_memg"], "luck_emg": f["luck_emg"], "opponent_pr": other["pr"]})
    return out


def write_csv(conn: sqlite3.Connection, event: str, out: Path) -> int:
    """The event's stored figures as ``out`` (``analysis.csv``, written by
    :func:`bgboard.analysis.file_batch.figures_csv`: one row per analysed match and player, matches
    by their id as the export's ``mat/ID.mat`` files are named); the number of rows."""
    from bgboard.analysis.file_batch import figures_csv

    row = conn.execute("SELECT id FROM events WHERE name = ?", (event,)).fetchone()
    done = _done(conn, row[0]) if row is not None else []
    return figures_csv(((str(r["id"]), f) for r in done for f in json.loads(r["figures"])["players"]), out)
