"""Club director figures: pairing a round, recomputing standings and ratings.

    .venv/bin/python benchmarks/club_pairing.py [--swiss 1000] [--rounds 9] [--double 256]

Everything runs through :class:`bgboard.club.director.Director` on a real SQLite file (WAL,
synchronous=FULL) in a temporary folder, with random results:

* a Swiss of ``--swiss`` players over ``--rounds`` rounds: the time to pair each round
  (read the event, pair, write the matches) and, at the end, to recompute the standings
  (tie-breaks included) and every rating from the stored results;
* a double elimination with consolation of ``--double`` players: the same figures;
* beside references in the same run: caissify-pairings' FIDE Dutch engine pairing the
  same kind of Swiss round for a field it can handle (64 players), and the
  double-elimination package building and playing through a bracket of the same size.
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from pathlib import Path

from bgboard.club import formats
from bgboard.club.director import Director
from bgboard.club.model import Entrant, EventSpec, Played


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:9.1f} ms"


def _finish(d: Director, event: str, matches, rng: random.Random) -> float:
    t0 = time.perf_counter()
    for m in matches:
        loser = rng.randrange(m.length)
        score = (m.length, loser) if rng.random() < 0.5 else (loser, m.length)
        d.record_result(event, m.id, score)
    return time.perf_counter() - t0


def swiss_event(folder: Path, n: int, rounds: int, rng: random.Random) -> None:
    with Director.create(folder / "swiss.sqlite", "Bench") as d:
        for i in range(n):
            d.add_player(f"S{i:04d}", rating=1500 + rng.gauss(0, 150))
        d.new_event("Swiss", "swiss", 5, rounds=rounds)
        d.enter("Swiss", [f"S{i:04d}" for i in range(n)])
        pair_times, result_time, results = [], 0.0, 0
        for _ in range(rounds):
            t0 = time.perf_counter()
            r = d.pair_round("Swiss")
            pair_times.append(time.perf_counter() - t0)
            result_time += _finish(d, "Swiss", r.matches, rng)
            results += len(r.matches)
        t0 = time.perf_counter()
        table = d.standings("Swiss")
        t_standings = time.perf_counter() - t0
        t0 = time.perf_counter()
        d.recompute_ratings()
        t_ratings = time.perf_counter() - t0
        assert len(table) == n
        print(f"Swiss {n} players, {rounds} rounds ({results} results)")
        print(f"  pair a round (director, SQLite)  median {_ms(statistics.median(pair_times))}, "
              f"slowest {_ms(max(pair_times))}")
        print(f"  enter a result (one transaction) {_ms(result_time / results)}")
        print(f"  standings with tie-breaks        {_ms(t_standings)}")
        print(f"  recompute every rating           {_ms(t_ratings)}")


def double_event(folder: Path, n: int, rng: random.Random) -> float:
    with Director.create(folder / "double.sqlite", "Bench") as d:
        for i in range(n):
            d.add_player(f"D{i:04d}", rating=1500 + rng.gauss(0, 150))
        d.new_event("Double", "double-elimination", 7, consolation_length=5)
        d.enter("Double", [f"D{i:04d}" for i in range(n)])
        pair_times, results = [], 0
        while d.event("Double").status != "finished":
            t0 = time.perf_counter()
            r = d.pair_round("Double")
            pair_times.append(time.perf_counter() - t0)
            _finish(d, "Double", r.matches, rng)
            results += len(r.matches)
        t0 = time.perf_counter()
        d.standings("Double")
        t_standings = time.perf_counter() - t0
        t0 = time.perf_counter()
        d.recompute_ratings()
        t_ratings = time.perf_counter() - t0
        print(f"double elimination {n} players ({results} matches, {len(pair_times)} rounds)")
        print(f"  pair a round (director, SQLite)  median {_ms(statistics.median(pair_times))}, "
              f"slowest {_ms(max(pair_times))}")
        print(f"  standings                        {_ms(t_standings)}")
        print(f"  recompute every rating           {_ms(t_ratings)}")
        return sum(pair_times)


def core_swiss(n: int, rounds: int, rng: random.Random) -> list[float]:
    """Our Swiss pairing alone (pure core), per round, on a field of n."""
    spec = EventSpec("swiss", 5, rounds=rounds)
    entrants = [Entrant(i, i + 1) for i in range(n)]
    played: list[Played] = []
    times = []
    for number in range(1, rounds + 1):
        t0 = time.perf_counter()
        pairings = formats.next_pairings(spec, entrants, played)
        times.append(time.perf_counter() - t0)
        for p in pairings:
            winner = p.a if p.b is None or rng.random() < 0.5 else p.b
            played.append(Played(p.node, p.flight, number, p.a, p.b, winner))
    return times


def dutch_swiss(n: int, rounds: int, rng: random.Random) -> list[float]:
    """caissify-pairings' FIDE Dutch engine on a field of n, per round."""
    from caissify_pairings import generate_pairings

    players = [dict(id=i + 1, name=f"p{i}", score=0.0, rating=2000 - i, starting_number=i + 1,
                    color_hist=[], float_history=[], bye_count=0) for i in range(n)]
    by_id = {p["id"]: p for p in players}
    previous: set[tuple[int, int]] = set()
    times = []
    for number in range(1, rounds + 1):
        t0 = time.perf_counter()
        pairs = generate_pairings("dutch", players, previous, number, rounds)
        times.append(time.perf_counter() - t0)
        for p in players:
            p["float_history"].append("none")
        for m in pairs:
            w, b = m["white_id"], m.get("black_id")
            if b is None:
                by_id[w]["score"] += 1
                by_id[w]["bye_count"] += 1
                continue
            previous.add((w, b))
            by_id[w]["color_hist"].append("white")
            by_id[b]["color_hist"].append("black")
            by_id[w if rng.random() < 0.5 else b]["score"] += 1
    return times


def core_double(n: int, rng: random.Random) -> float:
    """Our double elimination alone (pure core): every pairing of an event of n, played through."""
    spec = EventSpec("double-elimination", 7, consolation_length=5)
    entrants = [Entrant(i, i + 1) for i in range(n)]
    played: list[Played] = []
    spent = 0.0
    number = 0
    while True:
        t0 = time.perf_counter()
        pairings = formats.next_pairings(spec, entrants, played)
        spent += time.perf_counter() - t0
        if not pairings:
            break
        number += 1
        for p in pairings:
            winner = p.a if p.b is None or rng.random() < 0.5 else p.b
            played.append(Played(p.node, p.flight, number, p.a, p.b, winner))
    return spent


def library_double(n: int, rng: random.Random) -> float:
    """The double-elimination package: build a bracket of n and play it through."""
    from double_elimination import Tournament

    t0 = time.perf_counter()
    t = Tournament(list(range(n)))
    while t.get_active_matches():
        for match in t.get_active_matches():
            t.add_win(match, rng.choice(match.get_participants()).get_competitor())
    return time.perf_counter() - t0


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--swiss", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--double", type=int, default=256)
    parser.add_argument("--reference-field", type=int, default=64)
    args = parser.parse_args()
    rng = random.Random(1)

    m = args.reference_field
    ours = core_swiss(m, 5, rng)
    dutch = dutch_swiss(m, 5, rng)
    print(f"Swiss pairing, {m} players, rounds 2-5 (pure core beside caissify-pairings' Dutch)")
    print(f"  bgboard.club.swiss     median {_ms(statistics.median(ours[1:]))}")
    print(f"  caissify Dutch         median {_ms(statistics.median(dutch[1:]))}   "
          f"ratio {statistics.median(dutch[1:]) / statistics.median(ours[1:]):.0f}x")
    big = core_swiss(args.swiss, args.rounds, rng)
    print(f"Swiss pairing, {args.swiss} players, {args.rounds} rounds (pure core)  "
          f"median {_ms(statistics.median(big))}, slowest {_ms(max(big))}")

    with tempfile.TemporaryDirectory() as tmp:
        swiss_event(Path(tmp), args.swiss, args.rounds, rng)
        ours_de = double_event(Path(tmp), args.double, rng)
    core = core_double(args.double, rng)
    ref = library_double(args.double, rng)
    print(f"  every pairing of the event, pure core {_ms(core)}; through the director {_ms(ours_de)}")
    print(f"  the double-elimination package building and playing through its bracket "
          f"{_ms(ref)} (pure core / package: {core / ref:.1f}x)")


if __name__ == "__main__":
    main()
