"""Numbers are ASCII digits (issue 35, defect 5): '²', '①' and '١٢' pass ``str.isdigit()`` or
``int()``, and crashed a public page, the director's forms and the commands with a traceback.
One parser (bgboard.digits) now reads every number a person or a board sends; anything else is
one sentence (exit 2 on the command line, 400 on a page, a refused topic on MQTT)."""

from __future__ import annotations

import re

import httpx2
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from bgboard.cli import main
from bgboard.club.live_boards import LiveHub
from bgboard.club.web.server import club_site
from bgboard.digits import decimal_number, whole_number
from bgboard.errors import InputError
from bgboard.net.protocol import ProtocolError, parse_topic
from tests.club.webclub import DOUBLE, SWISS, csrf, log_in
from tests.club.webrun import ServedSite

# Values a person may type that are not ASCII digits, each accepted by isdigit() or int().
UNICODE_DIGITS = ["²", "①", "١٢", "٣", "𝟕", "７", "߂", "¹0", "1²"]
NOT_PLAIN = ["+5", "-0", " 1_000", "1e3", "0x10", "٣-٠", "nan", "inf", "", " ", "\u200b7", "7\u00a0"]
NUMBER_TEXT = st.one_of(
    st.sampled_from(UNICODE_DIGITS + NOT_PLAIN),
    st.text(st.characters(categories=("Nd", "No", "Zs", "Pd", "Sm")), max_size=8),
    st.integers(-10**30, 10**30).map(str),
    st.from_regex(r"[0-9]{1,40}", fullmatch=True),
)
PLAIN = re.compile(r"[ \t]*[0-9]+[ \t]*")


@given(NUMBER_TEXT)
def test_the_parser_takes_ascii_digits_and_refuses_the_rest_with_a_sentence(text):
    try:
        value = whole_number(text, "a number", 0, 10**9)
    except InputError as exc:
        assert "\n" not in str(exc) and str(exc).startswith("a number is")
        assert not PLAIN.fullmatch(text) or int(text) > 10**9
    else:
        assert PLAIN.fullmatch(text) and value == int(text) and 0 <= value <= 10**9


@given(NUMBER_TEXT)
def test_an_amount_is_ascii_too(text):
    try:
        decimal_number(text, "--rake")
    except InputError:
        pass
    else:
        assert text.strip(" \t").isascii() and text.strip(" \t").replace(".", "", 1).isdigit()


@pytest.mark.parametrize("text", UNICODE_DIGITS)
def test_a_board_topic_with_a_unicode_digit_is_refused(text):
    with pytest.raises(ProtocolError):
        parse_topic(f"bgboard/club/board/{text}/result", "club")
    assert parse_topic("bgboard/club/board/12/result", "club") == (12, "result")


def _run(argv: list[str], capsys) -> tuple[int, str]:
    try:
        code = main(argv)
    except SystemExit as exc:  # argparse's own refusal: exit 2 and its usage line
        code = int(exc.code or 0)
    return code, capsys.readouterr().err


def _one_sentence(code: int, err: str) -> None:
    assert code == 2, err
    assert "Traceback" not in err and err.strip().splitlines()[-1].startswith(("bgboard: ", "bgboard club")), err


@pytest.mark.parametrize("argv", [
    ["result", DOUBLE, "2", "--score", "²-0"],
    ["result", DOUBLE, "²", "--score", "1-0"],
    ["correct", DOUBLE, "1", "--score", "①-0", "--reason", "typo"],
    ["held", "--decide", "²", "--score", "1-0"],
    ["held", "--accept", "①"],
    ["event", "new", "X", "--format", "swiss", "--length", "²"],
    ["event", "new", "X", "--format", "swiss", "--length", "١٢"],
    ["event", "set", SWISS, "--rake", "٣"],
    ["event", "set", SWISS, "--entry-fee", "٣"],
    ["penalty", SWISS, "Ann", "--points", "²", "--reason", "late"],
    ["player", "add", "Zed", "--rating", "١٥٠٠"],
])
def test_commands_refuse_unicode_digits_with_one_sentence(db, capsys, argv):
    code, err = _run(["club", "--db", str(db), *argv], capsys)
    _one_sentence(code, err)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=NUMBER_TEXT, which=st.integers(0, 4))
def test_commands_never_trace_back_on_any_number(db, capsys, text, which):
    argv = [["result", DOUBLE, text, "--score", "1-0"],
            ["result", DOUBLE, "1", "--score", f"{text}-0"],
            ["held", "--decide", text, "--score", "1-0"],
            ["event", "new", "Y", "--format", "swiss", "--length", text],
            ["penalty", SWISS, "Ann", "--points", text, "--reason", "late"]][which]
    code, err = _run(["club", "--db", str(db), *argv], capsys)
    assert code in (0, 2) and "Traceback" not in err, err
    if not PLAIN.fullmatch(text):
        _one_sentence(code, err)


@pytest.fixture(scope="module")
def served(finished_club, tmp_path_factory):
    import shutil

    path = tmp_path_factory.mktemp("served") / "club.sqlite"
    shutil.copy(finished_club, path)
    site = ServedSite(club_site(path, LiveHub()))
    try:
        yield site
    finally:
        site.close()


def test_live_since_with_a_unicode_digit_is_a_400_on_the_real_server(served):
    with httpx2.Client(base_url=served.url, timeout=10) as client:
        for query in ("since=%C2%B2", "since=%E2%91%A0", "board=%D9%A3", "since=%2B5"):
            response = client.get(f"/live?{query}")
            assert response.status_code == 400, (query, response.status_code)
            assert "digits 0-9" in response.text and "Traceback" not in response.text


@pytest.mark.parametrize("path, fields", [
    ("/director/result", {"event": DOUBLE, "match": "²", "score": "1-0"}),
    ("/director/result", {"event": DOUBLE, "match": "1", "score": "²-0"}),
    ("/director/correct", {"event": DOUBLE, "match": "①", "score": "1-0", "reason": "x"}),
    ("/director/correct", {"event": DOUBLE, "match": "1", "score": "1-①", "reason": "x"}),
    ("/director/penalty", {"event": SWISS, "player": "Ann", "points": "²", "reason": "x"}),
    ("/director/decide", {"held": "²", "score": "1-0"}),
    ("/director/evening/event", {"name": "N", "format": "swiss", "length": "²"}),
    ("/director/evening/event", {"name": "N", "format": "swiss", "length": "3", "rounds": "١٢"}),
    ("/director/evening/player", {"name": "Q", "rating": "١٥٠٠"}),
    ("/director/evening/mat", {"event": DOUBLE, "match": "²"}),
])
def test_director_forms_refuse_unicode_digits_with_a_400(served, path, fields):
    with httpx2.Client(base_url=served.url, timeout=10) as client:
        assert log_in(client).status_code == 303
        token = csrf(client.get("/director").text)
        files = {"mat": ("a.mat", b" 1 point match\n", "text/plain")} if path.endswith("/mat") else None
        response = client.post(path, data={**fields, "csrf": token}, files=files, follow_redirects=False)
        assert response.status_code == 400, (path, fields, response.status_code, response.text[:300])
        assert 'role="alert"' in response.text and "Traceback" not in response.text
