"""Swiss pairing (pure): score groups, no rematch, at most one bye per player.

Each round the active players are ranked by score (match wins, a bye counting as a win),
then by seed.  With an odd field the bye goes to the lowest-ranked player who has not had
one and without whom the rest can still be paired.  The others are paired from the top:
the best unpaired player meets, among the players he has not met, first the player half
his score group below him (top half against bottom half, the classic Swiss fold), then the
rest of his group, then the groups below (a "float").  If that leads to a dead end the
search backtracks, so a pairing without rematches is found whenever one exists; a field
with ``rounds <= ceil(n / 2)`` always has one (Dirac's theorem on the graph of unplayed
pairs), which is why events are limited to that many rounds.

Why not a library: caissify-pairings' FIDE Dutch engine (Apache-2.0) pairs correctly but
adds the chess colour rules and took 116 s for round 2 of a 256-player field here (the
issue asks for 1,000 players); cardarena-tournament-core's Swiss (MPL-2.0) falls back to
rematches and has no one-bye rule.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence, Set
from itertools import chain

from bgboard.errors import InputError

STEP_LIMIT = 200_000


class NoPairing(InputError):
    """No pairing without a rematch exists for this round."""


def max_rounds(n: int) -> int:
    """The most Swiss rounds a field of ``n`` is guaranteed to pair without rematches."""
    return (n + 1) // 2


def pair_round(ranked: Sequence[int], score: Mapping[int, float],
               met: Set[frozenset[int]], had_bye: Set[int]) -> tuple[list[tuple[int, int]], int | None]:
    """Pairs (higher-ranked player first) and the bye (``None`` for an even field).

    ``ranked`` is best first; ``met`` holds the pairs that have played each other.
    Raises :class:`NoPairing` when no pairing avoids every rematch and second bye.
    """
    players = list(ranked)
    if len(players) % 2 == 0:
        return _pair(players, score, met), None
    for candidate in reversed(players):
        if candidate in had_bye:
            continue
        rest = [p for p in players if p != candidate]
        try:
            return _pair(rest, score, met), candidate
        except NoPairing:
            continue
    raise NoPairing


def _pair(players: list[int], score: Mapping[int, float],
          met: Set[frozenset[int]]) -> list[tuple[int, int]]:
    """Pair ``players`` (best first) without rematches: a depth-first search with an explicit
    stack (fields of thousands need no recursion limit); networkx past STEP_LIMIT steps."""
    unpaired = list(players)
    pairs: list[tuple[int, int]] = []

    def candidates(p: int) -> Iterator[int]:
        group = [q for q in unpaired if score[q] == score[p]]
        half = len(group) // 2
        rest = [q for q in unpaired if score[q] != score[p]]
        for q in chain(group[half:], group[1:half], rest):
            if q != p and frozenset((p, q)) not in met:
                yield q

    # each frame: (p, its candidates, where q was in unpaired when chosen)
    stack: list[tuple[int, Iterator[int], int]] = []
    steps = 0
    options = candidates(unpaired[0]) if unpaired else iter(())
    while unpaired:
        steps += 1
        if steps > STEP_LIMIT:
            return _matching(players, score, met)
        p = unpaired[0]
        q = next(options, None)
        if q is not None:
            i = unpaired.index(q)
            unpaired.pop(i)
            unpaired.pop(0)
            pairs.append((p, q))
            stack.append((p, options, i))
            if unpaired:
                options = candidates(unpaired[0])
            continue
        # p cannot be paired: undo the last pair and try its next candidate
        if not stack:
            raise NoPairing
        p0, options, i = stack.pop()
        _, q0 = pairs.pop()
        unpaired.insert(0, p0)
        unpaired.insert(i, q0)
    return pairs


def _matching(players: list[int], score: Mapping[int, float],
              met: Set[frozenset[int]]) -> list[tuple[int, int]]:
    """A maximum matching of the unplayed pairs (networkx), closest scores preferred:
    the fallback when the ordered search would take too long."""
    import networkx as nx

    rank = {p: i for i, p in enumerate(players)}
    graph: nx.Graph[int] = nx.Graph()
    graph.add_nodes_from(players)
    top = max(score.values(), default=0) + 1
    for i, p in enumerate(players):
        for q in players[i + 1:]:
            if frozenset((p, q)) not in met:
                graph.add_edge(p, q, weight=top - abs(score[p] - score[q]))
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    if 2 * len(matching) != len(players):
        raise NoPairing
    pairs = [(p, q) if rank[p] < rank[q] else (q, p) for p, q in matching]
    return sorted(pairs, key=lambda pq: rank[pq[0]])
