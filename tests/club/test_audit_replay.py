"""Standings and ratings are a function of the changes: replaying a club's audit log into a
new database gives the same standings, ratings and rating history (hypothesis, real SQLite)."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from bgboard.club.director import Director
from bgboard.club.operations import replay_audit
from bgboard.errors import InputError
from tests.support import parse_module


def run_evening(d: Director, fmt: str, n: int, rng: random.Random) -> None:
    names = [f"P{i}" for i in range(n)]
    for name in names:
        d.add_player(name, rating=round(rng.uniform(1300, 1800), 2), experience=rng.choice([0, 120, 600]))
    d.new_event("E", fmt, rng.choice([1, 3, 5]), consolation_length=1 if fmt == "double-elimination" else None,
                last_chance=fmt == "double-elimination" and rng.random() < 0.5)
    d.enter("E", names)
    for _ in range(500):
        if d.event("E").status == "finished":
            return
        try:
            r = d.pair_round("E", actor=rng.choice(["Tom", "Web"]))
        except InputError as exc:
            if "rematch" in str(exc):      # withdrawals left a Swiss that cannot go on
                return
            r = None
        for m in d.assignments("E"):
            roll = rng.random()
            if roll < 0.06:
                d.forfeit("E", m.id, rng.choice(m.players), "no-show")
            elif roll < 0.08:
                d.withdraw("E", rng.choice(m.players), "went home")
            else:
                a = rng.randrange(m.length)
                score = (m.length, a) if rng.random() < 0.5 else (a, m.length)
                d.record_result("E", m.id, score, result_key=f"k{m.id}")
                if rng.random() < 0.1:
                    d.record_result("E", m.id, score, result_key=f"k{m.id}")   # a resend
                if rng.random() < 0.1:
                    d.correct_result("E", m.id, (score[0] + 1, score[1]) if score[0] > score[1]
                                     else (score[0], score[1] + 1), reason="typo")
            if rng.random() < 0.05:
                d.penalty("E", rng.choice(m.players), 1, "late")
        if r is None and not d.assignments("E"):
            break
    raise AssertionError("the evening never ended")


@pytest.mark.slow
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(fmt=st.sampled_from(["double-elimination", "single-elimination", "swiss", "round-robin"]),
       n=st.integers(min_value=2, max_value=10), seed=st.integers(0, 2**32))
def test_replaying_the_audit_log_gives_the_same_club(tmp_path_factory, fmt, n, seed):
    folder = tmp_path_factory.mktemp("club")
    with Director.create(folder / "club.sqlite", "C", at="2026-11-23T19:00:00+00:00") as d:
        run_evening(d, fmt, n, random.Random(seed))
        with replay_audit(d.audit(), folder / "copy.sqlite") as copy:
            assert copy.standings("E") == d.standings("E")
            assert copy.ratings() == d.ratings()
            assert [copy.rating_history(p.name) for p in copy.players()] == \
                [d.rating_history(p.name) for p in d.players()]
            assert [(m.node, m.status, m.score, m.winner) for m in copy.matches("E")] == \
                [(m.node, m.status, m.score, m.winner) for m in d.matches("E")]


def _audited_actions() -> set[str]:
    """Every action name the package writes to the audit log (``audit.write(conn, "action", ...)``
    and the evening's ``_audit(d, "action", ...)``), read from the source."""
    import ast
    from pathlib import Path

    import bgboard

    found: set[str] = set()
    for path in Path(bgboard.__file__).parent.rglob("*.py"):
        for node in ast.walk(parse_module(path)):
            if not isinstance(node, ast.Call) or len(node.args) < 2:
                continue
            f = node.func
            writes = (isinstance(f, ast.Attribute) and f.attr == "write" and isinstance(f.value, ast.Name)
                      and f.value.id == "audit") or (isinstance(f, ast.Name) and f.id == "_audit")
            if writes and isinstance(node.args[1], ast.Constant) and isinstance(node.args[1].value, str):
                found.add(node.args[1].value)
    return found


@pytest.mark.slow
def test_every_audited_action_has_its_row_in_the_table_of_operations():
    from bgboard.club.operations import OPERATIONS

    written = _audited_actions()
    assert {"init", "result", "event_settings", "result_held"} <= written   # the scan finds them
    assert written - {"init"} <= set(OPERATIONS), "an audited action replay_audit cannot re-run"
    assert set(OPERATIONS) <= written, "a row of the table no operation writes"


def test_an_unknown_action_is_one_sentence(tmp_path):
    from bgboard.club.views import AuditEntry

    init = AuditEntry(1, "2026-01-01T00:00:00+00:00", "director", "init", None, None, {"name": "C"}, None, None)
    odd = AuditEntry(2, "2026-01-01T00:00:00+00:00", "director", "no_such", None, None, {}, None, None)
    with pytest.raises(InputError, match="unknown audit action 'no_such'"):
        replay_audit([init, odd], tmp_path / "c.sqlite")
