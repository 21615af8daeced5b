"""A club database with a finished evening, for the web pages' tests: a double elimination
with consolation and a Swiss, every result from a self-played match with its .mat."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from bgboard.club.director import Director
from bgboard.club.web.password import hash_password
from bgboard.match import export_mat, replay
from bgboard.match.selfplay import selfplay

PASSWORD = "correct horse battery"
HOSTILE = "<img src=x onerror=alert(1)>"
PLAYERS = ("Ann", "Bob", "Cleo", "Dev", "Eli", "Fay", "Gus", HOSTILE)
DOUBLE = "Friday Double"
SWISS = "Tuesday Swiss"


def play_round(club: Director, event: str, seed: int) -> int:
    """Pair every playable match of ``event`` and report each with a self-played .mat."""
    paired = club.pair_round(event, actor="director")
    for k, m in enumerate(paired.matches):
        actions = selfplay(m.length, seed=seed + k, players=(m.players[0], m.players[1]))
        club.record_result(event, m.id, tuple(replay(actions).score), export_mat(actions),
                           result_key=m.uuid, actor=f"board {m.board}")
    return len(paired.matches)


def make_club(path: Path, *, finish_double: bool = True, swiss_rounds: int = 3) -> Path:
    with Director.create(path, "Riverside Backgammon Club") as club:
        for i, name in enumerate(PLAYERS):
            club.add_player(name, rating=1600 - 15 * i, experience=100 * i)
        club.new_event(DOUBLE, "double-elimination", 3, consolation_length=1)
        club.enter(DOUBLE, list(PLAYERS))
        club.new_event(SWISS, "swiss", 3, rounds=3)
        club.enter(SWISS, list(PLAYERS[:6]))
        seed = 100
        while finish_double and club.event(DOUBLE).status != "finished":
            seed += 10
            if not play_round(club, DOUBLE, seed):
                raise AssertionError("the double elimination stalled")
        for _ in range(swiss_rounds):
            seed += 10
            play_round(club, SWISS, seed)
        club.set_director_password_hash(hash_password(PASSWORD))
    return path


def copy_club(club: Path, tmp_path: Path) -> Path:
    """A test's own copy of a club made once for a module (the pages may change it)."""
    path = tmp_path / "club.sqlite"
    shutil.copy(club, path)
    return path


def csrf(html: str) -> str:
    """The CSRF token of a page's form."""
    match = re.search(r'name="csrf" value="([^"]+)"', html)
    assert match is not None, "the page has no form with a CSRF token"
    return match.group(1)


def log_in(client, password: str = PASSWORD):
    """Log the director in (a Starlette/httpx client): the login form's answer."""
    token = csrf(client.get("/director/login").text)
    return client.post("/director/login", data={"csrf": token, "password": password}, follow_redirects=False)


def director_token(client) -> str:
    """Log the director in, check it worked, and give the director page's CSRF token."""
    response = log_in(client)
    assert response.status_code == 303 and response.headers["location"] == "/director", response.status_code
    return csrf(client.get("/director").text)
