"""End to end on a real Mosquitto: 8 simulated boards play a Swiss round for the director;
every result arrives exactly once and the standings equal those computed from the .mat files
— also when the broker is killed mid-round and when a board's network is cut for a whole
match."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bgboard.club.director import Director as Service
from bgboard.net.mosquitto import PrivateBroker
from tests.club.stores import club_database, club_location, store  # noqa: F401  (the club's two stores)
from tests.net.club_harness import Evening, mat_results, new_club, standings_from_mats


def check_exactly_once(evening: Evening, tmp: Path, matches: int) -> dict:
    """Every match finished once, with the board's record; standings from the .mat files."""
    results = mat_results(tmp)
    assert len(results) == matches
    with Service.open(evening.db) as s:
        played = [m for m in s.matches("Friday") if m.status == "finished"]
        assert len(played) == matches and all(m.has_mat for m in played)
        for m in played:
            assert results[(m.players[0], m.players[1])] == tuple(m.score)  # type: ignore[index]
        standings = {st.name: (st.wins, st.losses) for st in s.standings("Friday")}
        results_rows = s.db.execute("SELECT COUNT(*), COUNT(DISTINCT result_key) FROM matches WHERE result_key IS NOT NULL").fetchone()
    assert tuple(results_rows) == (matches, matches)  # one stored result per result UUID
    from_mats = standings_from_mats(results)
    assert {n: v for n, v in standings.items() if v != (0, 0)} == from_mats
    for board in evening.boards.values():
        assert not board.journal_pending()  # every board's outbox was acked
    return results


@pytest.mark.slow
def test_eight_boards_play_a_swiss_round(tmp_path: Path, broker: PrivateBroker, club_location) -> None:
    db = club_location  # on both stores
    matches = new_club(db)
    assert sorted(m.board for m in matches) == list(range(1, 9))

    async def go() -> Evening:
        evening = Evening(tmp_path, broker, db)
        evening.start_director()
        for n in range(1, 9):
            evening.start_board(n, matches=1)
        await evening.until(lambda: len(evening.board_tasks) == 8 and all(t.done() for t in evening.board_tasks.values()))
        for t in evening.board_tasks.values():
            t.result()
        assert evening.director is not None
        counts = dict(evening.director.counts)
        await evening.stop_director()
        assert counts["stored"] == 8 and counts["refused"] == 0 and counts["ignored"] == 0
        assert len(evening.hub.snapshot()) == 8  # the room saw every board
        return evening

    evening = asyncio.run(go())
    check_exactly_once(evening, tmp_path, 8)


@pytest.mark.slow
def test_the_broker_killed_mid_round_and_a_board_cut_off_for_a_whole_match(tmp_path: Path, broker: PrivateBroker) -> None:
    db = tmp_path / "club.sqlite"
    new_club(db)

    async def go() -> Evening:
        evening = Evening(tmp_path, broker, db)
        evening.start_director()
        for n in range(1, 9):
            evening.start_board(n, matches=1, pace_s=0.02)
        cut = evening.boards[8]
        await evening.until(lambda: cut.link.online and cut.taken_count() == 1, 120)
        cut.link.stop()  # board 8's network is cut: it plays its whole match offline
        await evening.until(lambda: any(b.played for b in evening.boards.values()), 120)
        broker.kill()  # mid-round: some results are in, others not yet
        await asyncio.sleep(1.0)
        broker.start()
        await evening.until(lambda: len(cut.played) == 1, 120)
        assert cut.journal_pending()  # its result waits in the outbox
        cut.restore_link()  # the network is back
        await evening.until(lambda: all(t.done() for t in evening.board_tasks.values()), 120)
        await evening.until(lambda: evening.pending() == 0, 120)
        await evening.stop_director()
        return evening

    evening = asyncio.run(go())
    check_exactly_once(evening, tmp_path, 8)


@pytest.mark.slow
def test_the_director_ignores_a_result_from_the_wrong_boards_topic(tmp_path: Path, broker: PrivateBroker) -> None:
    """Board 5 (its own topic: the ACL allows nothing else) reports match X, which is board 2's:
    the director neither stores it nor acks it; board 2's own result is stored."""
    from bgboard.match import read_mat, replay
    from bgboard.match.selfplay import selfplay
    from bgboard.net.boardlink import ClubLink
    from bgboard.net.protocol import Game, Result
    from bgboard.match.mat import export_mat
    from bgboard.store.journal import Journal
    from tests.net.club_harness import board_settings

    db = tmp_path / "club.sqlite"
    matches = new_club(db)
    m = next(x for x in matches if x.board == 2)
    actions = selfplay(1, seed=3, players=(m.players[0], m.players[1]))
    mat = export_mat(actions)
    state = replay(read_mat(mat))

    def result(board: int, uid: str) -> Result:
        return Result(uid, board, "Friday", m.id, state.players, 1, state.score, state.winner or 0,
                      tuple(Game(g.winner, g.points, g.result) for g in state.games), mat, len(actions), 1)

    async def go() -> tuple[dict, list, list]:
        evening = Evening(tmp_path, broker, db)
        evening.start_director()
        j5, j2 = Journal(tmp_path / "b5.sqlite"), Journal(tmp_path / "b2.sqlite")
        l5, l2 = ClubLink(board_settings(broker, 5), j5), ClubLink(board_settings(broker, 2), j2)
        tasks = [asyncio.create_task(l5.run()), asyncio.create_task(l2.run())]
        l5.submit_result(result(5, "00000000-0000-4000-8000-000000000005"))
        await evening.until(lambda: evening.director is not None and evening.director.counts["ignored"] >= 1, 120)
        l2.submit_result(result(2, "00000000-0000-4000-8000-000000000002"))
        await evening.until(lambda: not j2.outbox_pending(), 120)
        # board 5 re-sends (every 1 s): ignored again, never acked
        await evening.until(lambda: evening.director.counts["ignored"] >= 2, 120)
        pending5 = [o.uuid for o in j5.outbox_pending()]
        for link in (l5, l2):
            link.stop()
        await asyncio.gather(*tasks)
        assert evening.director is not None
        counts = dict(evening.director.counts)
        await evening.stop_director()
        j5.close()
        j2.close()
        return counts, pending5, [o.status for o in Journal(tmp_path / "b2.sqlite").outbox()]

    counts, pending5, statuses2 = asyncio.run(go())
    assert counts["stored"] == 1 and counts["ignored"] >= 2 and pending5 == ["00000000-0000-4000-8000-000000000005"]
    assert statuses2 == ["stored"]
    with Service.open(db) as s:
        info = s.match(m.id)
        assert info.status == "finished" and info.reported_by == "board 2"


@pytest.mark.slow
def test_a_duplicate_is_acked_and_a_conflicting_result_refused(tmp_path: Path, broker: PrivateBroker) -> None:
    """The assigned board sends its result, then the same UUID again (acked ``duplicate``,
    nothing changes), then a different result for the same match (refused, with the
    sentence on the board's display)."""
    from bgboard.match import replay
    from bgboard.match.mat import export_mat
    from bgboard.match.selfplay import selfplay
    from bgboard.net.boardlink import ClubLink
    from bgboard.net.protocol import Game, Result
    from bgboard.store.journal import Journal
    from tests.net.club_harness import board_settings

    db = tmp_path / "club.sqlite"
    m = next(x for x in new_club(db) if x.board == 4)

    def result(seed: int, uid: str) -> Result:
        actions = selfplay(1, seed=seed, players=(m.players[0], m.players[1]))
        s = replay(actions)
        return Result(uid, 4, "Friday", m.id, s.players, 1, s.score, s.winner or 0,
                      tuple(Game(g.winner, g.points, g.result) for g in s.games), export_mat(actions), len(actions), 1)

    first = result(1, "00000000-0000-4000-8000-0000000000a1")
    other = next(r for r in (result(k, "00000000-0000-4000-8000-0000000000a2") for k in range(2, 30)) if r.score != first.score)

    async def go() -> tuple[dict, list, tuple]:
        evening = Evening(tmp_path, broker, db)
        evening.start_director()
        journal = Journal(tmp_path / "b4.sqlite")
        link = ClubLink(board_settings(broker, 4), journal)
        task = asyncio.create_task(link.run())
        link.submit_result(first)
        await evening.until(lambda: not journal.outbox_pending(), 120)
        journal._live().execute("UPDATE outbox SET status = NULL")  # the board never saw that ack: it sends again
        await evening.until(lambda: not journal.outbox_pending(), 120)
        link.submit_result(other)
        await evening.until(lambda: not journal.outbox_pending(), 120)
        link.stop()
        await task
        statuses = [(o.uuid, o.status) for o in journal.outbox()]
        journal.close()
        assert evening.director is not None
        counts = dict(evening.director.counts)
        await evening.stop_director()
        return counts, statuses, link.note()

    counts, statuses, note = asyncio.run(go())
    assert counts["stored"] == 1 and counts["duplicate"] == 1 and counts["refused"] == 1
    assert statuses == [(first.uuid, "duplicate"), (other.uuid, "refused")]
    assert note[0].startswith("the director refused the result: match") and note[1] == "result refused"
    with Service.open(db) as s:
        info = s.match(m.id)
    assert tuple(info.score) == first.score  # the first result stands
