"""Properties of the four formats for random fields and random results (hypothesis)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings, strategies as st

from bgboard.club import bracket, formats, swiss
from bgboard.club.model import (
    CHAMPION, CONSOLATION_WINNER, DOUBLE, ELIMINATED, ROUND_ROBIN, SINGLE, SWISS,
    Entrant, EventSpec, Played,
)
from bgboard.club.standings import standings


def play_out(spec: EventSpec, n: int, seed: int, checks=None) -> list[Played]:
    """Pair and play an event to its end with random results; returns what was played."""
    rng = random.Random(seed)
    entrants = [Entrant(100 + i, i + 1) for i in range(n)]
    played: list[Played] = []
    number = 0
    for _ in range(10_000):
        pairings = formats.next_pairings(spec, entrants, played)
        if not pairings:
            pending = [p for p in played if p.winner is None]
            if not pending:
                break
            # finish some (at least one) of the matches being played, in random order
            done = set(rng.sample(range(len(pending)), rng.randint(1, len(pending))))
            finished = {}
            for i, p in enumerate(pending):
                if i in done:
                    winner = rng.choice((p.a, p.b))
                    length = spec.length_of(p.flight)
                    loser_points = rng.randrange(length)
                    forfeit = rng.random() < 0.05
                    score = None if forfeit else ((length, loser_points) if winner == p.a else (loser_points, length))
                    finished[id(p)] = Played(p.node, p.flight, p.round, p.a, p.b, winner, score, forfeit)
            played = [finished.get(id(p), p) for p in played]
            continue
        number += 1
        busy = {x for p in played if p.winner is None for x in (p.a, p.b)}
        seen: set[int] = set()
        byes: set[int] = set()
        for p in pairings:
            if p.b is None:
                # a bye is no match: an elimination bracket may pair his next match (or pass
                # him through the next empty place) at once
                assert p.a not in busy and p.a not in seen
                byes.add(p.a)
                continue
            for x in (p.a, p.b):
                assert x not in seen, f"player {x} paired twice in round {number}"
                assert x not in busy, f"player {x} paired while still playing"
                seen.add(x)
        if checks:
            checks(entrants, played, pairings)
        for p in pairings:
            played.append(Played(p.node, p.flight, number, p.a, p.b,
                                 p.a if p.b is None else None))
    else:
        raise AssertionError("the event never ended")
    assert formats.finished(spec, entrants, played)
    return played


fields = st.integers(min_value=2, max_value=64)
seeds = st.integers(min_value=0, max_value=2**32)


def _entrants(n):
    return [Entrant(100 + i, i + 1) for i in range(n)]


@settings(max_examples=40, deadline=None)
@given(n=fields, seed=seeds)
def test_single_elimination(n, seed):
    spec = EventSpec(SINGLE, 5)
    played = play_out(spec, n, seed)
    real = [p for p in played if p.b is not None]
    assert len(real) == n - 1
    size = bracket.bracket_size(n)
    byes = {p.a for p in played if p.b is None}
    assert byes == {100 + s - 1 for s in range(1, size - n + 1)}   # the top seeds, in round 1
    status = formats.statuses(spec, _entrants(n), played)
    assert list(status.values()).count(CHAMPION) == 1
    lost = formats.losses(played)
    assert all(status[p] == (ELIMINATED if lost.get(p) == 1 else CHAMPION) for p in status)


@settings(max_examples=40, deadline=None)
@given(n=fields, seed=seeds)
def test_double_elimination_with_consolation(n, seed):
    spec = EventSpec(DOUBLE, 7, consolation_length=5)
    played = play_out(spec, n, seed)
    real = [p for p in played if p.b is not None]
    assert len(real) == 2 * n - 3
    assert all(p.flight == "main" or formats.EventSpec.length_of(spec, p.flight) == 5 for p in real)
    status = formats.statuses(spec, _entrants(n), played)
    assert list(status.values()).count(CHAMPION) == 1
    lost = formats.losses(played)
    for p, s in status.items():
        assert lost.get(p, 0) <= 2
        assert (s == ELIMINATED) == (lost.get(p, 0) == 2)     # out exactly at the second loss
    if n >= 3:
        assert list(status.values()).count(CONSOLATION_WINNER) == 1
    # each player's matches are in time order: a second loss is his last match
    for p in status:
        mine = [m for m in real if p in (m.a, m.b)]
        losses_at = [i for i, m in enumerate(mine) if m.loser == p]
        if len(losses_at) == 2:
            assert losses_at[1] == len(mine) - 1


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(data=st.data(), n=fields, seed=seeds)
def test_swiss(data, n, seed):
    rounds = data.draw(st.integers(min_value=1, max_value=swiss.max_rounds(n)))
    spec = EventSpec(SWISS, 5, rounds=rounds)

    def bye_rule(entrants, played, pairings):
        byes = [p.a for p in pairings if p.b is None]
        assert len(byes) == n % 2
        if not byes:
            return
        had = {p.a for p in played if p.b is None}
        assert byes[0] not in had                            # at most one bye each
        score = formats.league_scores(entrants, played)
        ranked = sorted((e.player for e in entrants), key=lambda x: (-score[x], x))
        met = {frozenset((p.a, p.b)) for p in played if p.b is not None}
        below = ranked[ranked.index(byes[0]) + 1:]
        for lower in below:                                  # a lower-ranked player without a
            if lower not in had:                             # bye could not have taken it
                rest = [x for x in ranked if x != lower]
                try:
                    swiss._pair(rest, score, met)
                except swiss.NoPairing:
                    continue
                raise AssertionError(f"the bye went to {byes[0]}, not to lower-ranked {lower}")

    played = play_out(spec, n, seed, bye_rule)
    real = [p for p in played if p.b is not None]
    assert len(real) == rounds * (n // 2)
    pairs = [frozenset((p.a, p.b)) for p in real]
    assert len(pairs) == len(set(pairs)), "a Swiss rematch"
    byes = [p.a for p in played if p.b is None]
    assert len(byes) == len(set(byes)) == rounds * (n % 2)


@settings(max_examples=25, deadline=None)
@given(n=st.integers(min_value=2, max_value=24), seed=seeds)
def test_round_robin(n, seed):
    spec = EventSpec(ROUND_ROBIN, 3)
    played = play_out(spec, n, seed)
    real = [p for p in played if p.b is not None]
    assert len(real) == n * (n - 1) // 2
    assert {frozenset((p.a, p.b)) for p in real} == {
        frozenset((100 + i, 100 + j)) for i in range(n) for j in range(i + 1, n)}
    byes = [p.a for p in played if p.b is None]
    assert sorted(byes) == ([100 + i for i in range(n)] if n % 2 else [])


@settings(max_examples=30, deadline=None)
@given(fmt=st.sampled_from([SINGLE, DOUBLE, SWISS, ROUND_ROBIN]),
       n=st.integers(min_value=2, max_value=20), seed=seeds)
def test_standings_are_a_function_of_the_results(fmt, n, seed):
    spec = EventSpec(fmt, 5, rounds=None)
    played = play_out(spec, n, seed)
    entrants = _entrants(n)
    once = standings(spec, entrants, played)
    shuffled = list(played)
    random.Random(seed).shuffle(shuffled)
    assert standings(spec, entrants, shuffled) == once
    assert [r.rank for r in once] == list(range(1, n + 1))
    assert sorted(r.player for r in once) == [e.player for e in entrants]
    assert sum(1 for r in once if r.status == CHAMPION) == 1


@pytest.mark.slow
@settings(max_examples=30, deadline=None)
@given(n=fields, seed=seeds)
def test_double_elimination_with_last_chance(n, seed):
    spec = EventSpec(DOUBLE, 7, consolation_length=5, last_chance=True)
    played = play_out(spec, n, seed)
    real = [p for p in played if p.b is not None]
    early = {p.loser for p in real if p.node.startswith("L1-")}     # out of the consolation at once
    last = [p for p in real if p.flight == "last-chance"]
    size = bracket.bracket_size(n)
    expected = max(len(early) - 1, 0) if size >= 8 else 0
    assert len(real) == 2 * n - 3 + expected
    assert {x for p in last for x in (p.a, p.b)} <= early
    status = formats.statuses(spec, _entrants(n), played)
    assert list(status.values()).count(CHAMPION) == 1
    lost = formats.losses(played)
    for p, s in status.items():
        out_at = 3 if (p in early and size >= 8) else 2
        assert (s == ELIMINATED) == (lost.get(p, 0) == out_at), (p, s, lost.get(p))
    if expected:
        assert list(status.values()).count("last-chance-winner") == 1


@settings(max_examples=60, deadline=None)
@given(n=st.integers(min_value=2, max_value=12), data=st.data())
def test_swiss_search_finds_a_pairing_whenever_one_exists(n, data):
    # random histories of met pairs, checked against brute force
    import itertools

    players = list(range(n - n % 2))
    all_pairs = [frozenset(p) for p in itertools.combinations(players, 2)]
    met = set(data.draw(st.lists(st.sampled_from(all_pairs), max_size=len(all_pairs)))) if all_pairs else set()
    score = {p: float(data.draw(st.integers(0, 3))) for p in players}

    def exists(rest):
        if not rest:
            return True
        p = rest[0]
        return any(frozenset((p, q)) not in met and exists([x for x in rest[1:] if x != q])
                   for q in rest[1:])

    try:
        pairs = swiss._pair(players, score, met)
    except swiss.NoPairing:
        assert not exists(players)
        return
    assert sorted(x for pq in pairs for x in pq) == players
    assert not any(frozenset(pq) in met for pq in pairs)


@pytest.mark.slow
def test_a_large_swiss_pairs_without_recursion():
    # 3,000 players: deeper than Python's recursion limit if the search recursed
    spec = EventSpec(SWISS, 5, rounds=2)
    played = play_out(spec, 3000, 1)
    assert len([p for p in played if p.b is not None]) == 3000
