"""Every stored result analysed in the background (issue 24, "In the club"): the queue in the
club database survives restarts (real SQLite), the worker of ``club serve`` analyses a real
self-played .mat stored as a result and its figures equal ``bgboard analyse --json`` for the
same file, ``bgboard club analyse`` drains the queue, the pages and the export show the figures."""

from __future__ import annotations

import asyncio
import csv
import json

import pytest

from bgboard.cli import main
from bgboard.club import analysis_queue as aq
from bgboard.club.director import Director
from tests.club.conftest import selfplay_mat

WAIT_S = 600.0  # only stops a hang: the wait returns as soon as the analysis is stored


def _one_match(path, names=("Ann", "Bob"), length=3):
    with Director.create(path, "PR Club") as d:
        for n in names:
            d.add_player(n)
        d.new_event("Cup", "single-elimination", length)
        d.enter("Cup", list(names))
        m = d.pair_round("Cup").matches[0]
    return m


def _store(path, m, seed=7, reverse=False):
    players = tuple(reversed(m.players)) if reverse else tuple(m.players)
    mat, score = selfplay_mat(m.length, seed, players)
    score = score[::-1] if reverse else score
    with Director.open(path) as d:
        d.record_result("Cup", m.id, score, mat)
    return mat


def test_a_stored_result_is_queued_and_the_queue_survives_a_restart(club_location):
    path = club_location
    m = _one_match(path)
    with Director.open(path) as d:
        assert aq.counts(d.db) == {"queued": 0, "done": 0, "failed": 0}   # no result yet
        assert aq.match_figures(d.db, m.id) is None
    mat = _store(path, m)
    # a new process: the database opened afresh, the queue is still there
    with Director.open(path) as d:
        assert aq.counts(d.db)["queued"] == 1
        assert aq.next_queued(d.db) == (m.id, mat)
        assert aq.match_figures(d.db, m.id)["status"] == "queued"
        # the result itself is usable while it waits
        assert d.match(m.id).score is not None and d.standings("Cup")[0].status == "champion"


def test_a_corrected_record_is_queued_again_and_a_dropped_one_leaves_the_queue(club_location):
    path = club_location
    m = _one_match(path)
    _store(path, m)
    assert aq.drain(path) == 1
    with Director.open(path) as d:
        assert aq.match_figures(d.db, m.id)["status"] == "done"
        other, score = selfplay_mat(m.length, 99, tuple(m.players))
        d.correct_result("Cup", m.id, score, other, "the other board's record")
        assert aq.match_figures(d.db, m.id)["status"] == "queued"
        assert aq.next_queued(d.db) == (m.id, other)
        d.correct_result("Cup", m.id, score[::-1], None, "the score was the other way round")
        assert d.match_record(m.id) is None
        assert aq.match_figures(d.db, m.id) is None and aq.next_queued(d.db) is None


@pytest.mark.slow
def test_the_worker_analyses_a_stored_result_as_bgboard_analyse_does(tmp_path, capsys):
    path = tmp_path / "club.sqlite"
    m = _one_match(path)
    # the .mat's columns the other way round: the figures are kept in the club's order
    mat = _store(path, m, seed=11, reverse=True)

    async def serve_until_done() -> None:
        stop = asyncio.Event()
        task = asyncio.create_task(aq.run_worker(path, poll_s=0.05, stop=stop))

        def done() -> bool:
            with Director.open(path) as d:
                return aq.counts(d.db)["done"] == 1

        async with asyncio.timeout(WAIT_S):
            while not await asyncio.to_thread(done):
                await asyncio.sleep(0.05)
        stop.set()
        await task

    asyncio.run(serve_until_done())
    file = tmp_path / "match.mat"
    file.write_text(mat, encoding="utf-8")
    capsys.readouterr()
    assert main(["analyse", str(file), "--json", "--engine", "gnubg-nn", "--ply", "0"]) == 0
    expected = json.loads(capsys.readouterr().out)
    with Director.open(path) as d:
        stored = aq.match_figures(d.db, m.id)
    assert stored["status"] == "done" and stored["engine"] == "gnubg-nn"
    # bgboard analyse gives the file's column order (Bob first); the club keeps Ann first
    assert [p["name"] for p in expected["players"]] == ["Bob", "Ann"]
    assert [p["name"] for p in stored["players"]] == ["Ann", "Bob"]
    assert stored["players"] == list(reversed(expected["players"]))
    assert all(p["decisions"] > 0 for p in stored["players"])


@pytest.fixture
def analysed(club_location):
    """A club of four whose three matches were stored with .mat records and analysed by
    ``bgboard club analyse`` (on both stores)."""
    path = club_location
    names = ("Ann", "Bob", "Cleo", "Dan")
    with Director.create(path, "PR Club") as d:
        for n in names:
            d.add_player(n)
        d.new_event("Cup", "single-elimination", 1)
        d.enter("Cup", list(names))
    seed = 3
    while True:
        with Director.open(path) as d:
            pending = [m for m in d.matches("Cup") if m.status == "pending"]
            if not pending:
                try:
                    pending = d.pair_round("Cup").matches
                except Exception:
                    break
        if not pending:
            break
        for m in pending:
            _store(path, m, seed=seed)
            seed += 1
    return path


def test_club_analyse_drains_the_queue_and_the_export_writes_the_figures(analysed, tmp_path, capsys):
    with Director.open(analysed) as d:
        assert aq.counts(d.db) == {"queued": 3, "done": 0, "failed": 0}
    assert main(["club", "--db", str(analysed), "analyse"]) == 0
    out = capsys.readouterr().out
    assert "3 matches analysed" in out
    with Director.open(analysed) as d:
        assert aq.counts(d.db) == {"queued": 0, "done": 3, "failed": 0}
        table = aq.pr_table(d.db, "Cup")
        history = aq.pr_history(d.db, "Ann")
        figures = {m.id: aq.match_figures(d.db, m.id) for m in d.matches("Cup")}
    # the event's table: each player's decisions are the sum over their matches
    by_name = {r["name"]: r for r in table}
    assert set(by_name) == {"Ann", "Bob", "Cleo", "Dan"}
    for name, row in by_name.items():
        mine = [f["players"][i] for f in figures.values() for i in (0, 1) if f["players"][i]["name"] == name]
        assert row["matches"] == len(mine) and row["decisions"] == sum(f["decisions"] for f in mine)
        err = sum(f["error_emg"] for f in mine)
        assert row["pr"] == pytest.approx(500 * err / row["decisions"])
    assert [r["pr"] for r in table] == sorted(r["pr"] for r in table)
    assert len(history) == by_name["Ann"]["matches"]
    # nothing queued: a second run analyses nothing; --all analyses every record again
    assert main(["club", "--db", str(analysed), "analyse"]) == 0
    assert "0 matches analysed" in capsys.readouterr().out
    # the export holds the stored figures, as --analyse writes them
    out_dir = tmp_path / "export"
    assert main(["club", "--db", str(analysed), "export", "Cup", "--out", str(out_dir)]) == 0
    rows = list(csv.DictReader((out_dir / "analysis.csv").open(encoding="utf-8")))
    assert len(rows) == 6
    first = next(r for r in rows if r["match"] == str(min(figures)))
    f0 = figures[min(figures)]["players"][0]
    assert first["player"] == f0["name"] and float(first["pr"]) == pytest.approx(f0["pr"], abs=1e-4)
    assert int(first["decisions"]) == f0["decisions"]
    assert {p.stem for p in (out_dir / "mat").glob("*.mat")} == {r["match"] for r in rows}


def test_club_analyse_all_queues_every_record_again(analysed, capsys):
    assert main(["club", "--db", str(analysed), "analyse", "--all"]) == 0
    assert "3 matches analysed" in capsys.readouterr().out
    assert main(["club", "--db", str(analysed), "analyse", "--all"]) == 0
    assert "3 matches analysed" in capsys.readouterr().out


def test_the_pages_show_pending_then_the_figures(analysed):
    import html
    import re

    from starlette.testclient import TestClient

    from bgboard.club.live_boards import LiveHub
    from bgboard.club.web.site import create_app
    from bgboard.club.web.server import club_site

    with Director.open(analysed) as d:
        final = max(m.id for m in d.matches("Cup"))
        info = d.match(final)
    with TestClient(create_app(club_site(analysed, LiveHub()))) as client:
        page = client.get(f"/match/{final}").text
        assert "Analysis pending" in page and 'class="num pr"' not in page
        assert "No analysed match yet." in client.get("/events/Cup").text
        assert "No analysed match yet." in client.get("/ratings").text
        assert aq.drain(analysed) == 3
        with Director.open(analysed) as d:
            figures = aq.match_figures(d.db, final)["players"]
            table = aq.pr_table(d.db, "Cup")
            club_table = aq.pr_table(d.db)
            history = aq.pr_history(d.db, info.players[0])
        page = client.get(f"/match/{final}").text
        assert "Analysis pending" not in page
        shown = re.findall(r'<td class="num pr"[^>]*>([^<]+)</td>', page)   # (a label for phones may follow)
        assert shown == [f"{f['pr']:.2f}" for f in figures]
        assert re.findall(r'<td class="num decisions"[^>]*>(\d+)</td>', page) == [str(f["decisions"]) for f in figures]
        assert re.findall(r'<td class="num luck"[^>]*>([^<]+)</td>', page) == [f"{f['luck_emg']:+.3f}" for f in figures]
        for url, rows in (("/events/Cup", table), ("/ratings", club_table)):
            page = html.unescape(client.get(url).text)
            got = re.findall(r'<a href="/players/[^"]+">([^<]+)</a></td><td class="num pr"[^>]*>([^<]+)</td>'
                             r'<td class="num"[^>]*>[^<]+</td><td class="num decisions"[^>]*>(\d+)</td>'
                             r'<td class="num"[^>]*>(\d+)</td>', page)
            assert got == [(r["name"], f"{r['pr']:.2f}", str(r["decisions"]), str(r["matches"])) for r in rows]
        page = client.get(f"/players/{info.players[0]}").text
        assert "PR history" in page
        assert re.findall(r'<td class="num pr"[^>]*>([^<]+)</td>', page) == [f"{h['pr']:.2f}" for h in history]
        assert len(history) >= 1
        mine = next(r for r in club_table if r["name"] == info.players[0])  # the club table's row, over all matches
        assert f"PR {mine['pr']:.2f} over {mine['decisions']} decisions" in page


@pytest.mark.slow
@pytest.mark.parametrize("store", ["sqlite"])  # the page is the same on both stores: one browser run
def test_chromium_shows_the_match_page_pending_then_with_pr(analysed, tmp_path):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    from bgboard.club.live_boards import LiveHub
    from bgboard.club.web.server import club_site
    from tests.club.webrun import PAGE_WAIT_S, ServedSite, chromium

    with Director.open(analysed) as d:
        final = max(m.id for m in d.matches("Cup"))
        names = d.match(final).players
    served = ServedSite(club_site(analysed, LiveHub()))
    browser = chromium()
    try:
        browser.get(f"{served.url}/match/{final}")
        assert "Analysis pending" in browser.find_element(By.ID, "analysis").text
        assert aq.drain(analysed) == 3
        browser.get(f"{served.url}/match/{final}")
        WebDriverWait(browser, PAGE_WAIT_S).until(lambda b: b.find_elements(By.CSS_SELECTOR, "td.pr"))
        with Director.open(analysed) as d:
            figures = aq.match_figures(d.db, final)["players"]
        heads = [e.text for e in browser.find_elements(By.CSS_SELECTOR, "table.analysis th.num")]
        assert heads == list(names)
        assert [e.text for e in browser.find_elements(By.CSS_SELECTOR, "table.analysis td.pr")] == \
            [f"{f['pr']:.2f}" for f in figures]
        assert [e.text for e in browser.find_elements(By.CSS_SELECTOR, "table.analysis td.luck")] == \
            [f"{f['luck_emg']:+.3f}" for f in figures]
        # the event's PR table, as a phone shows it: every player's row visible (a wrapped row of
        # labelled figures: the heads become the labels), nothing wider than the screen
        browser.set_window_size(390, 844)
        browser.get(f"{served.url}/events/Cup")
        rows = browser.find_elements(By.CSS_SELECTOR, "table.pr tr")
        assert len(rows) == 1 + 4 and all(r.is_displayed() for r in rows[1:])
        width = browser.execute_script("return document.documentElement.scrollWidth")
        assert width <= 390
    finally:
        browser.quit()
        served.close()


@pytest.mark.slow
def test_club_serve_analyses_the_queue_in_the_background_and_a_restart_goes_on(analysed):
    """``bgboard club serve`` as a person runs it: stopped (Ctrl-C) and started again, it
    analyses every queued result and its pages answer meanwhile."""
    import os
    import re
    import signal
    import subprocess
    import sys
    import time
    import urllib.request

    def serve() -> tuple[subprocess.Popen, str]:
        server = subprocess.Popen([sys.executable, "-m", "bgboard", "club", "--db", str(analysed), "serve",
                                   "--http", "127.0.0.1:0"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                  text=True, env={**os.environ})
        return server, re.search(r"http://\S+/", server.stdout.readline()).group(0)

    def stop(server: subprocess.Popen) -> None:
        server.send_signal(signal.SIGINT)
        _, err = server.communicate(timeout=120)
        assert "Traceback" not in err

    server, url = serve()
    stop(server)   # stopped at once: whatever was not analysed is still queued
    with Director.open(analysed) as d:
        assert sum(aq.counts(d.db).values()) == 3
    server, url = serve()
    try:
        with urllib.request.urlopen(url + "events/Cup", timeout=60) as response:
            assert response.status == 200   # the pages answer while the analysis runs
        deadline = time.monotonic() + WAIT_S
        while True:
            with Director.open(analysed) as d:
                if aq.counts(d.db)["done"] == 3:
                    break
            assert time.monotonic() < deadline and server.poll() is None
            time.sleep(0.2)
        with urllib.request.urlopen(url + "events/Cup", timeout=60) as response:
            assert b"No analysed match yet" not in response.read()
    finally:
        stop(server)


def test_the_analysis_child_runs_at_a_lower_cpu_priority_than_club_serve():
    """The analyses yield the CPU to the director's result checks and acks (issue 25)."""
    import os

    pool = aq.analysis_pool()
    try:
        child = pool.submit(os.nice, 0).result(timeout=120)
    finally:
        pool.shutdown()
    assert child == min(19, os.nice(0) + aq.BACKGROUND_NICE)
