"""The four formats behind one pure interface.

    check_field(spec, n)                   -> None or InputError (too few players, rounds)
    next_pairings(spec, entrants, played)  -> [Pairing]   every match that can start now
    statuses(spec, entrants, played)       -> {player: status} (elimination formats)
    finished(spec, entrants, played)       -> bool
    rounds_total(spec, n)                  -> int | None  (Swiss, round robin)

``entrants`` carry the seeds (1 = best, by rating); ``played`` is every match and bye made
so far.  Elimination formats pair every node whose two players are known (so a player
with a bye may already meet his next opponent while round 1 is played); Swiss and round
robin pair round by round, the next when the last is finished.

Round robin follows the FIDE Berger tables (caissify-pairings' ``berger_round``, Apache-2.0,
checked against the FIDE Handbook C.05 tables): pairing number = seed, an odd field adds a
phantom whose opponent has the bye.
"""

from __future__ import annotations

from collections.abc import Sequence

from caissify_pairings.engines.round_robin import berger_round  # pyright: ignore[reportMissingTypeStubs] - the library ships no stubs; its source is typed

from bgboard.club import bracket, swiss
from bgboard.club.model import (
    CHAMPION, CONSOLATION_WINNER, DOUBLE, ELIMINATED, ELIMINATION, FORMATS, LAST_CHANCE,
    LAST_CHANCE_WINNER, MAIN, PLAYING,
    ROUND_ROBIN, RUNNER_UP, SINGLE, SWISS, WITHDRAWN, Entrant, EventSpec, Pairing, Played,
)
from bgboard.errors import InputError

MAX_PLAYERS = 4096


def check_field(spec: EventSpec, n: int) -> None:
    """Refuse a field the format cannot be played with (one sentence saying what to do)."""
    if spec.format not in FORMATS:
        raise InputError(f"unknown format {spec.format!r}: use one of {', '.join(FORMATS)}")
    if n < 2:
        raise InputError(f"an event needs at least 2 players, it has {n}: enter more with "
                         "'bgboard club event enter'")
    if n > MAX_PLAYERS:
        raise InputError(f"an event has at most {MAX_PLAYERS} players, it has {n}")
    if spec.format == SWISS:
        top = swiss.max_rounds(n)
        if spec.rounds is not None and spec.rounds > top:
            raise InputError(f"a Swiss of {n} players can have at most {top} rounds without "
                             f"rematches, the event asks for {spec.rounds}: lower --rounds "
                             "or play a round robin")


def rounds_total(spec: EventSpec, n: int) -> int | None:
    if spec.format == SWISS:
        if spec.rounds is not None:
            return spec.rounds
        return min(swiss.max_rounds(n), max(1, (n - 1).bit_length()))
    if spec.format == ROUND_ROBIN:
        return n - 1 if n % 2 == 0 else n
    return None


def nodes(spec: EventSpec, n: int) -> list[bracket.Node]:
    if spec.format == SINGLE:
        return bracket.single_elimination(n)
    return bracket.double_elimination(n, spec.last_chance)


def _seeds(entrants: Sequence[Entrant]) -> list[int]:
    return [e.player for e in sorted(entrants, key=lambda e: e.seed)]


def _outcomes(played: Sequence[Played]) -> dict[str, int | None]:
    return {p.node: p.winner for p in played}


def next_pairings(spec: EventSpec, entrants: Sequence[Entrant],
                  played: Sequence[Played]) -> list[Pairing]:
    """Every match (and bye, and walkover of a withdrawn player) to make now."""
    check_field(spec, len(entrants))
    if spec.format in ELIMINATION:
        return _elimination(spec, entrants, played)
    return _league(spec, entrants, played)


def _walkover(a: int, b: int | None, withdrawn: set[int]) -> int | None:
    if b is None:
        return None
    if b in withdrawn:
        return a
    if a in withdrawn:
        return b
    return None


def _elimination(spec: EventSpec, entrants: Sequence[Entrant],
                 played: Sequence[Played]) -> list[Pairing]:
    tree = nodes(spec, len(entrants))
    seeds = _seeds(entrants)
    withdrawn = {e.player for e in entrants if e.withdrawn}
    outcomes = _outcomes(played)
    made: list[Pairing] = []
    while True:
        slots = bracket.resolve(tree, seeds, outcomes)
        new: list[Pairing] = []
        for node in tree:
            slot = slots[node.key]
            if node.key in outcomes or slot.state not in (bracket.READY, bracket.BYE):
                continue
            a, b = slot.a, slot.b
            if a is None:
                a, b = b, None
            assert isinstance(a, int) and (b is None or isinstance(b, int))
            pairing = Pairing(node.key, node.flight, a, b, spec.length_of(node.flight),
                              _walkover(a, b, withdrawn))
            new.append(pairing)
        if not new:
            return made
        for p in new:
            # a bye or a walkover is decided at once and may open the next node
            outcomes[p.node] = p.a if p.b is None else p.walkover
        made += new


def _league(spec: EventSpec, entrants: Sequence[Entrant],
            played: Sequence[Played]) -> list[Pairing]:
    n = len(entrants)
    last = max((p.round for p in played), default=0)
    if any(p.winner is None for p in played):
        return []
    total = rounds_total(spec, n)
    assert total is not None
    if last >= total:
        return []
    number = last + 1
    withdrawn = {e.player for e in entrants if e.withdrawn}
    flight = spec.format
    if spec.format == ROUND_ROBIN:
        seeds = _seeds(entrants)
        size = n if n % 2 == 0 else n + 1
        out: list[Pairing] = []
        for table, (x, y) in enumerate(berger_round(size, number), start=1):
            a = seeds[x - 1] if x <= n else None
            b = seeds[y - 1] if y <= n else None
            if a is None:
                a, b = b, None
            assert a is not None
            if b is None and a in withdrawn:
                continue
            out.append(Pairing(f"RR{number}-{table}", flight, a, b, spec.length,
                               _walkover(a, b, withdrawn)))
        return out
    score = league_scores(entrants, played)
    seed = {e.player: e.seed for e in entrants}
    active = [e.player for e in entrants if not e.withdrawn]
    ranked = sorted(active, key=lambda p: (-score[p], seed[p]))
    met = {frozenset((p.a, p.b)) for p in played if p.b is not None}
    had_bye = {p.a for p in played if p.b is None}
    try:
        pairs, bye = swiss.pair_round(ranked, score, met, had_bye)
    except swiss.NoPairing:
        raise InputError(f"round {number} cannot be paired without a rematch or a second "
                         "bye: end the event here") from None
    out = [Pairing(f"S{number}-{t}", flight, a, b, spec.length)
           for t, (a, b) in enumerate(pairs, start=1)]
    if bye is not None:
        out.append(Pairing(f"S{number}-bye", flight, bye, None, spec.length))
    return out


def league_scores(entrants: Sequence[Entrant], played: Sequence[Played]) -> dict[int, float]:
    """Swiss / round-robin score: one point a match won, a bye counting as a win, plus a late
    entrant's starting score."""
    score = {e.player: e.start_score for e in entrants}
    for p in played:
        if p.winner is not None:
            score[p.winner] = score.get(p.winner, 0.0) + 1.0
    return score


def losses(played: Sequence[Played]) -> dict[int, int]:
    out: dict[int, int] = {}
    for p in played:
        if p.loser is not None:
            out[p.loser] = out.get(p.loser, 0) + 1
    return out


def finished(spec: EventSpec, entrants: Sequence[Entrant], played: Sequence[Played]) -> bool:
    """Whether the event is over (every match it will have has a winner)."""
    if any(p.winner is None for p in played):
        return False
    if spec.format in ELIMINATION:
        tree = nodes(spec, len(entrants))
        slots = bracket.resolve(tree, _seeds(entrants), _outcomes(played))
        finals = [bracket.main_final(tree), bracket.consolation_final(tree),
                  bracket.last_chance_final(tree)]
        return all(slots[k].state in (bracket.DECIDED, bracket.BYE, bracket.EMPTY)
                   for k in finals if k is not None)
    total = rounds_total(spec, len(entrants))
    return max((p.round for p in played), default=0) >= (total or 0)


def statuses(spec: EventSpec, entrants: Sequence[Entrant],
             played: Sequence[Played]) -> dict[int, str]:
    """Each player's status in an elimination event: champion, consolation-winner,
    last-chance-winner, runner-up (two players), eliminated (at the loss the format allows:
    the first in single elimination, the second in double elimination, the third for the
    players of a last-chance flight), playing, withdrawn."""
    lost = losses(played)
    limit = 2 if spec.format == DOUBLE else 1
    # the players who go on to the last chance after their second loss
    out: dict[int, str] = {}
    tree = nodes(spec, len(entrants))
    third = {p.loser for p in played if p.node.startswith("L1-") and p.loser is not None
             and bracket.last_chance_final(tree) is not None}
    slots = bracket.resolve(tree, _seeds(entrants), _outcomes(played))

    def won(key: str | None) -> object:
        if key is None or slots[key].state not in (bracket.DECIDED, bracket.BYE):
            return ...
        return slots[key].winner

    champion = won(bracket.main_final(tree))
    consolation = won(bracket.consolation_final(tree))
    last = won(bracket.last_chance_final(tree))
    final = slots[bracket.main_final(tree)]
    for e in entrants:
        p = e.player
        if p == champion:
            out[p] = CHAMPION
        elif p == consolation:
            out[p] = CONSOLATION_WINNER
        elif p == last:
            out[p] = LAST_CHANCE_WINNER
        elif lost.get(p, 0) >= limit + (p in third):
            out[p] = ELIMINATED
        elif e.withdrawn:
            out[p] = WITHDRAWN
        elif final.state == bracket.DECIDED and final.loser == p and not _still_in(p, slots):
            out[p] = RUNNER_UP      # no consolation final left to play for him
        else:
            out[p] = PLAYING
    return out


def _still_in(player: int, slots: dict[str, bracket.Slot]) -> bool:
    """Whether ``player`` has a match still to play or waiting for him (the main final's
    loser going on to the consolation final is still playing, not the runner-up)."""
    return any(s.state in (bracket.READY, bracket.WAITING) and player in (s.a, s.b)
               for s in slots.values())


def reach(spec: EventSpec, entrants: Sequence[Entrant], played: Sequence[Played]) -> dict[int, int]:
    """How far each player went in an elimination event: the highest bracket stage of the
    main and consolation flights in which he played a match (a bye counts); the last-chance
    flight, played by the early losers, does not count.  The standings rank eliminated
    players by it before their wins (a player knocked out later ranks above one knocked out
    earlier)."""
    stage = {n.key: n.stage for n in nodes(spec, len(entrants)) if n.flight != LAST_CHANCE}
    out = {e.player: 0 for e in entrants}
    for p in played:
        s = stage.get(p.node)
        if s is None:
            continue
        for who in (p.a, p.b):
            if who is not None and s > out.get(who, 0):
                out[who] = s
    return out


__all__ = ["check_field", "reach", "next_pairings", "statuses", "finished", "rounds_total",
           "league_scores", "losses", "nodes", "MAIN", "LAST_CHANCE"]
