"""``bgboard club serve --http`` and ``bgboard club director-password`` as a person runs them."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import urllib.request

import pytest

from bgboard.cli import main
from bgboard.club.director import Director
from bgboard.club.web.password import verify
from bgboard.club.web.server import parse_listen


def bgboard(*args: str, stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "bgboard", *args], input=stdin, text=True,
                          capture_output=True, timeout=60)


@pytest.fixture
def db(club_location):
    path = club_location
    Director.create(path, "Riverside").close()
    return path


def test_director_password_is_stored_hashed_and_audited(db, monkeypatch, capsys):
    monkeypatch.setattr("sys.stdin", __import__("io").StringIO("a long secret phrase\n"))
    assert main(["club", "--db", str(db), "director-password", "--password-stdin"]) == 0
    assert "argon2id" in capsys.readouterr().out
    with Director.open(db) as d:
        stored = d.director_password_hash()
        audit = d.audit()[-1]
    assert stored.startswith("$argon2id$") and "secret" not in stored
    assert verify(stored, "a long secret phrase") and not verify(stored, "a long secret phrasE")
    assert audit.action == "director-password" and "argon2" not in repr(audit)


def test_a_short_password_is_one_sentence_and_exit_2(db):
    done = bgboard("club", "--db", str(db), "director-password", "--password-stdin", stdin="short\n")
    assert done.returncode == 2
    assert done.stderr == "bgboard: the director password needs at least 8 characters\n"


@pytest.mark.parametrize("text", ["8080", "host:port", "1.2.3.4:99999", "bad host!:80"])
def test_a_bad_http_address_is_one_sentence_and_exit_2(db, text):
    done = bgboard("club", "--db", str(db), "serve", "--http", text)
    assert done.returncode == 2 and done.stderr.startswith("bgboard: --http") and "\n" == done.stderr[-1]
    assert done.stderr.count("\n") == 1


def test_parse_listen():
    assert parse_listen("127.0.0.1:8080") == ("127.0.0.1", 8080)
    assert parse_listen(":8080") == ("0.0.0.0", 8080)
    assert parse_listen("[::1]:80") == ("::1", 80)
    assert parse_listen("club.local:80") == ("club.local", 80)


def test_serve_needs_a_club_and_something_to_serve(tmp_path, db):
    done = bgboard("club", "--db", str(tmp_path / "none.sqlite"), "serve", "--http", "127.0.0.1:0")
    assert done.returncode == 2 and "no club database" in done.stderr
    done = bgboard("club", "--db", str(db), "serve")
    assert done.returncode == 2 and "--http HOST:PORT" in done.stderr


def test_serve_answers_pages_and_stops_on_ctrl_c(db):
    server = subprocess.Popen([sys.executable, "-m", "bgboard", "club", "--db", str(db), "serve",
                               "--http", "127.0.0.1:0"], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True, env={**os.environ})
    try:
        line = server.stdout.readline()
        url = re.search(r"http://\S+/", line).group(0)
        assert line.startswith("club 'Riverside': web pages on ")
        with urllib.request.urlopen(url + "events", timeout=60) as response:
            assert response.status == 200 and b"No event yet" in response.read()
    finally:
        server.send_signal(signal.SIGINT)
        out, err = server.communicate(timeout=60)
    assert server.returncode in (0, 130) and "Traceback" not in err
