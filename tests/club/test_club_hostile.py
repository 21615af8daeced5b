"""Issue 25, the web / CLI / files half: the club tried as an attacker and a careless user would.

Each test names its case of the issue.  Where the case involves ``club serve`` it runs as a
real process on a free localhost port (its stderr is the server's log); the CLI runs as a real
process where the process itself matters (a named pipe, /dev/zero on stdin, a lock held by
another process, another user's permissions), in-process otherwise.  Everything else is real:
SQLite files, argon2 hashes, Starlette's app.
"""

from __future__ import annotations

import concurrent.futures
import hashlib
import os
import re
import resource
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path
from urllib.parse import urlencode

import httpx2
import pytest
from starlette.testclient import TestClient

from bgboard.cli import main
from bgboard.club.db import BUSY_TIMEOUT_ENV, Club, ClubDatabaseError, busy_timeout_s
from bgboard.club.director import Director
from bgboard.club.live_boards import LiveHub
from bgboard.club.web import login as auth
from bgboard.club.web.site import create_app
from bgboard.club.web.server import club_site
from bgboard.errors import EXIT_ENVIRONMENT, EXIT_INPUT, InputError
from bgboard.files import PIPE_TIMEOUT_ENV, pipe_timeout_s
from tests.club.conftest import selfplay_mat
from tests.club.webclub import PASSWORD, SWISS, csrf, log_in, make_club

# bounds that only stop a hang (a test returns as soon as its condition holds)
PROCESS_S = 120
HUGE = "99999999999999999999"
# the waits a deployment may shorten, shortened: a test that waits one out proves the same
# refusal in 1 s instead of the product's default 10 s (test_the_waits_default_to_10_s_...)
SHORT_BUSY = {BUSY_TIMEOUT_ENV: "1"}
SHORT_PIPE = {PIPE_TIMEOUT_ENV: "1"}


def bgboard(*args: str, stdin: object = None, prefix: tuple[str, ...] = (), cwd: Path | None = None,
            timeout: float = PROCESS_S, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    """``bgboard ARGS`` as a real process, its memory capped at 2 GiB (so a reader that is not
    bounded fails here instead of filling the machine)."""
    def cap() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))

    return subprocess.run([*prefix, sys.executable, "-m", "bgboard", *args], stdin=stdin, text=True,
                          capture_output=True, timeout=timeout, cwd=cwd, preexec_fn=cap,
                          env={**os.environ, **(env or {})})


def one_sentence(done: subprocess.CompletedProcess | tuple[int, str], *words: str,
                 exit_code: int = EXIT_INPUT) -> str:
    """One line on stderr holding ``words``, and ``exit_code``: 2 for bad input, 69
    (EXIT_ENVIRONMENT) for a machine that fails (a busy database, a port in use)."""
    code, err = (done.returncode, done.stderr) if not isinstance(done, tuple) else done
    assert code == exit_code, err
    assert err.startswith("bgboard: ") and err.count("\n") == 1 and "Traceback" not in err, err
    for word in words:
        assert word in err, err
    return err


@pytest.fixture(scope="session")  # once per worker: read only (module scope made it again each time a worker came back)
def finished_club(tmp_path_factory):
    return make_club(tmp_path_factory.mktemp("club") / "club.sqlite", swiss_rounds=2)


@pytest.fixture
def two_players(tmp_path):
    """A club with one pending 3-point match between Ann and Bob (event E)."""
    path = tmp_path / "small.sqlite"
    with Director.create(path, "Small") as d:
        for name in ("Ann", "Bob", "Cleo"):
            d.add_player(name)
        d.new_event("E", "single-elimination", 3)
        d.enter("E", ["Ann", "Bob"])
        match = d.pair_round("E").matches[0]
    return path, match


class Serve:
    """``bgboard club --db DB serve --http 127.0.0.1:0`` as a real process."""

    def __init__(self, db: Path, tmp: Path, env: dict[str, str] | None = None) -> None:
        self.log = tmp / "serve.log"
        self.process = subprocess.Popen(
            [sys.executable, "-m", "bgboard", "club", "--db", str(db), "serve", "--http", "127.0.0.1:0"],
            stdout=subprocess.PIPE, stderr=self.log.open("w"), text=True, env={**os.environ, **(env or {})})
        line = self.process.stdout.readline()
        found = re.search(r"http://\S+/", line)
        if not found:
            self.stop()
            pytest.fail(f"club serve did not start: {line!r} {self.log.read_text()}")
        self.url = found.group(0).rstrip("/").replace("localhost", "127.0.0.1")

    def client(self) -> httpx2.Client:
        return httpx2.Client(base_url=self.url, timeout=PROCESS_S, follow_redirects=False)

    def stop(self) -> str:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            self.process.wait(PROCESS_S)
        return self.log.read_text()


def without_queued_analyses(db: Path | str) -> Path | str:
    """``db`` with its analysis queue emptied: the finished club queues every .mat for
    analysis, and a served club analyses them in a child process from its first second —
    CPU that none of these cases is about (tests/club/test_analysis_queue.py tries that)."""
    with Club(db) as club, club.transaction():
        club.conn.execute("DELETE FROM analyses")
    return db


@pytest.fixture
def serve(db, tmp_path):
    server = Serve(without_queued_analyses(db), tmp_path)
    yield server
    server.stop()


# ---------------------------------------------------------------- case 2: a locked database, web
@pytest.fixture
def serve_short_busy(db, tmp_path):
    """``serve`` with a 1 s busy timeout (BGBOARD_BUSY_TIMEOUT_S) instead of 10 s."""
    server = Serve(without_queued_analyses(db), tmp_path, SHORT_BUSY)
    yield server
    server.stop()


@pytest.mark.slow  # a real server process waiting out its busy timeout: the full run, not -m "not slow"
def test_case2_a_director_post_while_the_database_is_locked_is_503_with_one_sentence(serve_short_busy, db):
    serve = serve_short_busy
    with serve.client() as client:
        assert log_in(client).status_code == 303
        token = csrf(client.get("/director").text)
        # another program is changing the club: it holds the write lock (SQLite's BEGIN
        # IMMEDIATE, PostgreSQL's advisory lock), changing nothing
        with Club(db) as holder, holder.transaction():
            response = client.post("/director/pair", data={"csrf": token, "event": SWISS})
        assert response.status_code == 503, response.text[:300]
        assert response.headers["retry-after"].isdigit()
        assert "The club&#39;s database is busy" in response.text and "try again in a moment" in response.text
        assert "Traceback" not in response.text and "sqlite" not in response.text.lower()
        # the lock gone, the same form works: nothing was lost, the server still runs
        response = client.post("/director/pair", data={"csrf": token, "event": SWISS})
        assert response.status_code == 303
    log = serve.stop()
    assert "is busy" in log and "Traceback" not in log


# ---------------------------------------------------------------- case 5: brute force
@pytest.mark.slow
def test_case5_parallel_guesses_are_locked_out_and_every_failure_is_logged(serve):
    def guess(n: int) -> int:
        with serve.client() as client:
            return log_in(client, f"guess number {n}").status_code

    with concurrent.futures.ThreadPoolExecutor(30) as pool:
        codes = list(pool.map(guess, range(30)))
    # CLIENT_FREE passwords checked (the last of them answered with the lockout), the rest refused unchecked
    assert codes.count(401) == auth.CLIENT_FREE - 1 and codes.count(429) == 31 - auth.CLIENT_FREE, codes
    with serve.client() as client:     # locked: even the right password waits
        response = log_in(client)
        assert response.status_code == 429 and int(response.headers["retry-after"]) > 0
        assert "Too many wrong passwords" in response.text
    log = serve.stop()
    assert log.count("director login failed from 127.0.0.1: wrong password") == auth.CLIENT_FREE, log
    assert log.count("director login refused from 127.0.0.1: locked out") >= 30 - auth.CLIENT_FREE


def test_case5_the_guard_backs_off_per_address_and_for_everyone():
    now = [1000.0]
    guard = auth.LoginGuard(clock=lambda: now[0])
    for _ in range(auth.CLIENT_FREE - 1):
        guard.failed("10.0.0.1")
    assert guard.wait_s("10.0.0.1") == 0
    guard.failed("10.0.0.1")
    assert guard.wait_s("10.0.0.1") == auth.LOCK_BASE_S and guard.wait_s("10.0.0.2") == 0
    now[0] += auth.LOCK_BASE_S
    guard.failed("10.0.0.1")                     # one more after the lockout: twice as long
    assert guard.wait_s("10.0.0.1") == 2 * auth.LOCK_BASE_S
    guard.succeeded("10.0.0.1")
    assert guard.wait_s("10.0.0.1") == 0
    # many addresses, a few guesses each: the login locks for everyone
    for n in range(auth.GLOBAL_FREE):
        guard.failed(f"10.1.0.{n}")
    assert guard.wait_s("10.9.9.9") > 0 and guard.wait_s("10.0.0.1") > 0
    now[0] += auth.LOCK_MAX_S + auth.GLOBAL_WINDOW_S
    assert guard.wait_s("10.9.9.9") == 0


# ---------------------------------------------------------------- case 6: sessions end on the server
@pytest.mark.slow
def test_case6_logout_ends_the_session_a_saved_cookie_no_longer_works(serve, db):
    with serve.client() as client:
        assert log_in(client).status_code == 303
        saved = client.cookies["bgboard_club"]
        token = csrf(client.get("/director").text)
        assert client.post("/director/logout", data={"csrf": token}).status_code == 303
    with serve.client() as thief:
        thief.cookies.set("bgboard_club", saved)
        # the saved cookie's own CSRF token, as a thief who copied the page would send it
        response = thief.post("/director/pair", data={"csrf": token, "event": SWISS})
        assert response.status_code == 403 and "Log in as the director first" in response.text
    with serve.client() as thief:
        thief.cookies.set("bgboard_club", saved)
        assert thief.get("/director").status_code == 303          # to the login page
    for page in ("/director/setup", "/director/checkin/" + SWISS.replace(" ", "%20")):  # the evening's pages too
        with serve.client() as thief:
            thief.cookies.set("bgboard_club", saved)
            assert thief.get(page).status_code == 303, page
    with serve.client() as thief:
        thief.cookies.set("bgboard_club", saved)
        added = thief.post("/director/evening/player", data={"csrf": token, "name": "Zed"})
        assert added.status_code == 403 and "Log in as the director first" in added.text
    with Director.open(db) as d:
        assert not [r for r in d.rounds(SWISS) if r.round == 3]     # nothing was paired
        assert "Zed" not in {p.name for p in d.players()}          # and nobody added


@pytest.mark.slow
def test_case6_a_new_director_password_ends_every_session(serve, db):
    with serve.client() as client:
        assert log_in(client).status_code == 303
        assert client.get("/director").status_code == 200
        done = subprocess.run(
            [sys.executable, "-m", "bgboard", "club", "--db", str(db), "director-password", "--password-stdin"],
            input="a brand new passphrase\n", text=True, capture_output=True, timeout=PROCESS_S)
        assert done.returncode == 0, done.stderr
        assert client.get("/director").status_code == 303
        assert log_in(client, "a brand new passphrase").status_code == 303


# ---------------------------------------------------------------- case 7: bounded reads
def test_case7_devices_are_refused_by_the_bytes_read(two_players, tmp_path):
    # real processes with their memory capped: a reader that is not bounded fails, never fills the machine
    path, match = two_players
    done = bgboard("club", "--db", str(path), "result", "E", str(match.id), "--score", "3-0", "--mat", "/dev/zero")
    one_sentence(done, "the .mat file /dev/zero is larger than")
    done = bgboard("club", "--db", str(path), "serve", "--broker", "mqtt://127.0.0.1:1", "--password-file", "/dev/zero")
    one_sentence(done, "the password file /dev/zero is larger than 64 kB")
    with open("/dev/zero") as zero:
        done = bgboard("club", "--db", str(path), "director-password", "--password-stdin", stdin=zero)
    one_sentence(done, "standard input has no line end")
    done = bgboard("import", "/dev/zero")
    assert done.returncode == 2 and "/dev/zero: it is larger than 16 MB" in done.stderr
    with Director.open(path) as d:
        assert d.match(match.id).status == "pending" and d.director_password_hash() is None


@pytest.mark.slow  # a process waiting out the pipe time-out (1 s here): the full run, not -m "not slow"
@pytest.mark.parametrize("command", ["import", "result", "analyse"])
def test_case7_a_named_pipe_nobody_writes_to_is_refused_in_time(two_players, tmp_path, command):
    path, match = two_players
    fifo = tmp_path / "record.mat"
    os.mkfifo(fifo)
    args = [command, str(fifo)] if command in ("import", "analyse") else [
        "club", "--db", str(path), "result", "E", str(match.id), "--score", "3-0", "--mat", str(fifo)]
    done = bgboard(*args, env=SHORT_PIPE)   # the bound only stops a hang: it ends after 1 s
    assert done.returncode == 2 and "did not end within 1 s" in done.stderr, done.stderr
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr


def test_case7_a_named_pipe_that_is_written_is_read(two_players, tmp_path):
    path, match = two_players
    mat, (a, b) = selfplay_mat(3, 7, tuple(match.players))
    fifo = tmp_path / "record.mat"
    os.mkfifo(fifo)
    writer = threading.Thread(target=lambda: fifo.write_text(mat), daemon=True)
    writer.start()
    done = bgboard("club", "--db", str(path), "result", "E", str(match.id), "--score", f"{a}-{b}",
                   "--mat", str(fifo))
    writer.join(PROCESS_S)
    assert done.returncode == 0 and ".mat checked" in done.stdout, done.stderr


# ---------------------------------------------------------------- case 8: another match's .mat
def test_case8_a_mat_of_other_players_is_refused_from_the_cli_and_from_a_board(two_players, tmp_path, capsys):
    path, match = two_players
    mat, (a, b) = selfplay_mat(3, 7, ("Cleo", match.players[1]))   # Cleo did not play this match
    (tmp_path / "other.mat").write_text(mat)
    assert main(["club", "--db", str(path), "result", "E", str(match.id), "--score", f"{a}-{b}",
                 "--mat", str(tmp_path / "other.mat")]) == 2
    one_sentence((2, capsys.readouterr().err), "the .mat record is a match of 'Cleo' v",
                 f"match {match.id} is 'Ann' v 'Bob'", "not stored")
    with Director.open(path) as d:        # the boards' path: a result with its result key
        with pytest.raises(InputError, match="is a match of 'Cleo'"):
            d.record_result("E", match.id, (a, b), mat, result_key=match.uuid, actor="board 1")
        assert d.match(match.id).status == "pending"
        right, (a, b) = selfplay_mat(3, 7, tuple(reversed(match.players)))   # either order
        info = d.record_result("E", match.id, (b, a), right, result_key=match.uuid, actor="board 1")
        assert info.status == "finished" and info.has_mat


def test_case8_length_and_final_score_are_checked_too(two_players):
    path, match = two_players
    with Director.open(path) as d:
        mat, (a, b) = selfplay_mat(5, 3, tuple(match.players))
        with pytest.raises(InputError, match="is a 5-point match, match .* is 3 points"):
            d.record_result("E", match.id, (3, 0), mat)
        mat, (a, b) = selfplay_mat(3, 7, tuple(match.players))
        with pytest.raises(InputError, match=f"ends {a}-{b}, not {b}-{a}"):
            d.record_result("E", match.id, (b, a), mat)


# ---------------------------------------------------------------- case 10: huge ids
@pytest.mark.slow
def test_case10_huge_ids_are_no_match_never_an_overflow(serve, db, capsys):
    with serve.client() as client:
        for url in (f"/match/{HUGE}", f"/match/{HUGE}/mat", "/match/9223372036854775808", f"/board/{HUGE}"):
            response = client.get(url)
            assert response.status_code == 404, (url, response.status_code)
            assert "Traceback" not in response.text
        assert client.get("/match/1").status_code == 200        # the server still serves
    assert main(["club", "--db", str(db), "result", SWISS, HUGE, "--score", "3-0"]) == 2
    one_sentence((2, capsys.readouterr().err), f"has no match {HUGE}")
    assert main(["club", "--db", str(db), "forfeit", SWISS, HUGE, "--winner", "Ann", "--reason", "x"]) == 2
    one_sentence((2, capsys.readouterr().err), f"has no match {HUGE}")


# ---------------------------------------------------------------- case 11: SQLite errors a user meets
@pytest.mark.slow  # waits out the busy timeout (1 s here): the full run, not -m "not slow"
def test_case11_a_locked_database_names_who_holds_it(two_players):
    path, _ = two_players
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        done = bgboard("club", "--db", str(path), "player", "add", "Dora", env=SHORT_BUSY)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    one_sentence(done, "is busy: another program is changing it", f"process {os.getpid()} (",
                 "did not finish within 1 s", "try again in a moment", exit_code=EXIT_ENVIRONMENT)
    assert bgboard("club", "--db", str(path), "player", "add", "Dora").returncode == 0  # the retry works


def test_the_waits_default_to_10_s_and_a_bad_setting_is_one_sentence(two_players, monkeypatch, capsys):
    """The product keeps its documented 10 s waits unless a deployment sets them (the tests
    above set 1 s); a setting that is not seconds is refused with one sentence, exit 2."""
    monkeypatch.delenv(BUSY_TIMEOUT_ENV, raising=False)
    monkeypatch.delenv(PIPE_TIMEOUT_ENV, raising=False)
    assert busy_timeout_s() == 10.0 and pipe_timeout_s() == 10.0
    with Club(two_players[0]) as club:
        assert club.busy_timeout_ms == 10_000
    monkeypatch.setenv(BUSY_TIMEOUT_ENV, "2.5")
    monkeypatch.setenv(PIPE_TIMEOUT_ENV, "0.5")
    assert busy_timeout_s() == 2.5 and pipe_timeout_s() == 0.5
    for bad in ("ten", "0", "-1", "nan", "1e9"):
        monkeypatch.setenv(BUSY_TIMEOUT_ENV, bad)
        assert main(["club", "--db", str(two_players[0]), "player", "list"]) == EXIT_INPUT
        err = capsys.readouterr().err
        assert err.startswith(f"bgboard: {BUSY_TIMEOUT_ENV}=") and err.count("\n") == 1, err
        assert "is not a number of seconds from 0.1 to 3600" in err and "Traceback" not in err


def test_case11_a_read_only_database_file(two_players):
    path, _ = two_players
    # root writes anywhere (CAP_DAC_OVERRIDE): as root the command runs without that capability
    caps = "-dac_override,-dac_read_search"
    as_user = ("setpriv", f"--bounding-set={caps}", f"--inh-caps={caps}") if os.geteuid() == 0 else ()
    path.chmod(0o444)
    try:
        done = bgboard("club", "--db", str(path), "player", "add", "Dora", prefix=as_user)
        listed = bgboard("club", "--db", str(path), "player", "list", prefix=as_user)
    finally:
        path.chmod(0o644)
    one_sentence(done, f"the club database {path} is read-only: nothing was changed", exit_code=EXIT_ENVIRONMENT)
    assert listed.returncode == 0 and "Ann" in listed.stdout     # reading still works


@pytest.mark.slow
def test_case11_a_damaged_page_points_at_the_backup(two_players):
    path, _ = two_players
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        root = conn.execute("SELECT rootpage FROM sqlite_master WHERE name = 'players'").fetchone()[0]
        size = conn.execute("PRAGMA page_size").fetchone()[0]
    with open(path, "r+b") as f:
        f.seek((root - 1) * size)
        f.write(b"\xff" * 200)
    for args in (("player", "list"), ("player", "add", "Dora"), ("standings", "E")):
        done = bgboard("club", "--db", str(path), *args)
        one_sentence(done, f"the club database {path} is damaged", "bgboard club restore FILE")


# ---------------------------------------------------------------- case 12: serve --http problems
@pytest.mark.slow
def test_case12_a_port_in_use_and_an_address_this_machine_lacks(db):
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    port = taken.getsockname()[1]
    try:
        done = bgboard("club", "--db", str(db), "serve", "--http", f"127.0.0.1:{port}")
    finally:
        taken.close()
    one_sentence(done, f"--http 127.0.0.1:{port}: cannot listen there, port {port} is in use",
                 exit_code=EXIT_ENVIRONMENT)
    done = bgboard("club", "--db", str(db), "serve", "--http", "192.0.2.1:8080")   # TEST-NET-1
    one_sentence(done, "this machine has no address 192.0.2.1")
    done = bgboard("club", "--db", str(db), "serve", "--http", "no-such-host.invalid:8080")
    one_sentence(done, "cannot find the host 'no-such-host.invalid'")


# ---------------------------------------------------------------- case 13: nothing half-built, nothing foreign touched
@pytest.mark.slow
def test_case13_a_refused_demo_leaves_nothing_and_the_corrected_rerun_plays(tmp_path):
    out = tmp_path / "evening"
    one_sentence(bgboard("club", "demo", "--length", "0", "--out", str(out)), "--length must be 1..99")
    assert not out.exists()
    # refused after the database was made (too few boards for the first round): undone too
    out.mkdir()
    one_sentence(bgboard("club", "demo", "--boards", "1", "--players", "4", "--out", str(out)),
                 "the first round needs 2 boards")
    assert list(out.iterdir()) == []
    done = bgboard("club", "demo", "--boards", "2", "--players", "4", "--out", str(out), timeout=600)
    assert done.returncode == 0 and "champion: " in done.stdout, done.stderr


@pytest.mark.parametrize("version", [0, 2])
def test_case13_a_foreign_sqlite_file_is_refused_untouched(tmp_path, version, capsys):
    path = tmp_path / "notes.db"
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE notes (text TEXT)")
        conn.execute("INSERT INTO notes VALUES ('milk')")
        conn.execute(f"PRAGMA user_version = {version}")   # another program's own schema number
    conn.close()
    before = hashlib.sha256(path.read_bytes()).hexdigest()
    for args in (("player", "list"), ("player", "add", "Ann"), ("ratings",)):
        assert main(["club", "--db", str(path), *args]) == 2
        one_sentence((2, capsys.readouterr().err), "is not a bgboard club database (it was left as it is)")
    with pytest.raises(ClubDatabaseError):
        Club(path)
    assert hashlib.sha256(path.read_bytes()).hexdigest() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.db"]     # no -wal, no -shm
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
    conn.close()


# ---------------------------------------------------------------- fuzzing the web forms
from hypothesis import HealthCheck, given, settings, strategies as st  # noqa: E402

TEXT = st.one_of(
    st.text(max_size=40),
    st.sampled_from(["", " ", HUGE, "-1", "0", "1", "3-0", "3-1", f"{HUGE}-0", "١٢", "1e9", "0x10", "NaN",
                     "\x00", "\ud800", "<script>alert(1)</script>", "' OR 1=1 --", "Ann", "Bob", SWISS,
                     "Friday Double", "x" * 1001, "../../etc/passwd", "%00"]),
)
ACTIONS = st.sampled_from(["pair", "result", "correct", "forfeit", "withdraw", "penalty", "login", "nothing", HUGE, "..%2f"])
FIELDS = st.fixed_dictionaries({}, optional={k: TEXT for k in ("event", "match", "score", "winner", "player",
                                                             "reason", "points")})


@pytest.fixture(scope="module")
def fuzz_client(finished_club, tmp_path_factory):
    path = tmp_path_factory.mktemp("fuzz") / "club.sqlite"
    shutil.copy(finished_club, path)
    with TestClient(create_app(club_site(path, LiveHub()))) as client:   # server errors raise here
        assert log_in(client).status_code == 303
        yield client, csrf(client.get("/director").text)


@pytest.mark.slow
@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(action=ACTIONS, fields=FIELDS, with_token=st.booleans())
def test_fuzz_director_forms_never_500(fuzz_client, action, fields, with_token):
    client, token = fuzz_client
    data = {**fields, **({"csrf": token} if with_token else {})}
    # encoded here: a lone surrogate goes out as the bytes a hostile client would send
    body = urlencode(data, encoding="utf-8", errors="surrogatepass")
    response = client.post(f"/director/{action}", content=body, follow_redirects=False,
                           headers={"content-type": "application/x-www-form-urlencoded"})
    assert response.status_code < 500, (action, data, response.status_code)
    assert "Traceback" not in response.text
    if response.status_code == 400:       # refused with its sentence, on the director's page
        assert 'role="alert"' in response.text


@pytest.mark.parametrize("method, url, body, headers", [
    ("GET", "/match/-1", None, {}),
    ("GET", "/match/0", None, {}),
    ("GET", f"/match/{HUGE}/mat", None, {}),
    ("GET", "/events/%00", None, {}),
    ("GET", "/events/" + "x" * 5000, None, {}),
    ("GET", "/standings/%ff%fe", None, {}),
    ("GET", f"/live?board=3&since=7&view=../../x", None, {}),
    ("GET", f"/live?board={HUGE}&since={HUGE}", None, {}),
    ("POST", "/director/login", b"csrf=a&" * 60, {"content-type": "application/x-www-form-urlencoded"}),
    ("POST", "/director/login", b"--x\r\nContent-Disposition: form-data; name=\"f\"; filename=\"a\"\r\n\r\nzz\r\n--x--\r\n",
     {"content-type": "multipart/form-data; boundary=x"}),
    ("POST", "/director/login", b"\xff\xfe\x00", {"content-type": "application/x-www-form-urlencoded"}),
    ("POST", "/director/pair", b"{\"event\": 1}", {"content-type": "application/json"}),
    ("POST", "/director/logout", b"", {}),
])
def test_hostile_requests_are_answered_without_a_500(db, method, url, body, headers):
    with TestClient(create_app(club_site(db, LiveHub()))) as client:
        if url.startswith("/live") and HUGE not in url:
            with client.stream(method, url) as response:   # an event stream: its headers are the answer
                assert response.status_code == 200
            return
        response = client.request(method, url, content=body, headers=headers, follow_redirects=False)
        assert response.status_code < 500, (url, response.status_code, response.text[:300])


@pytest.mark.parametrize("store", ["sqlite"])  # a damaged file is SQLite's
def test_case11_a_damaged_database_is_a_503_page_never_a_500(db):
    with sqlite3.connect(db) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        root = conn.execute("SELECT rootpage FROM sqlite_master WHERE name = 'players'").fetchone()[0]
        size = conn.execute("PRAGMA page_size").fetchone()[0]
    conn.close()
    with TestClient(create_app(club_site(db, LiveHub()))) as client:
        with open(db, "r+b") as f:
            f.seek((root - 1) * size)
            f.write(b"\xff" * 200)
        response = client.get("/ratings")
        assert response.status_code == 503 and "cannot be used just now" in response.text
        assert "malformed" not in response.text        # the detail is for the server's log only


def test_case13_a_file_that_is_not_sqlite_is_refused_untouched(tmp_path, capsys):
    path = tmp_path / "notes.txt"
    path.write_text("milk, eggs\n" * 500)
    before = path.read_bytes()
    assert main(["club", "--db", str(path), "player", "add", "Ann"]) == 2
    one_sentence((2, capsys.readouterr().err), "is not a club database, not even an SQLite file")
    assert path.read_bytes() == before and sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]
