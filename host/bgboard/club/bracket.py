"""Elimination brackets (pure): single elimination and double elimination with consolation.

A bracket is a list of :class:`Node` s, each a match between two :class:`Source` s: the
entrant of a seed, or the winner or loser of an earlier node.  Byes are sources that hold
nobody: a node with one player and nobody is a bye (the player goes through), a node
with nobody on both sides is empty.  :func:`resolve` fills the bracket from the outcomes
known so far, so byes anywhere (odd fields, a consolation fed by byes) need no special case.

Main flight: a bracket of ``S = 2**k >= n`` places in the standard seeding order (1 v S,
... so seeds 1 and 2 can meet only in the final; the top ``S - n`` seeds get byes).

Double elimination (the backgammon club form, REFERENCE.md "Club formats"): a first loss
drops the player into the consolation flight, a second loss eliminates him.  The
consolation is *progressive*: the losers of main round 1 meet each other (stage ``L1``);
the losers of each later main round ``r`` come in later, against the survivors
(``D{r}``: the byes of the later losers), and the survivors are halved between
two drop-ins (``R{r}``).  The loser of the main final meets the last consolation survivor
in the consolation final.  The main winner is the champion, the consolation final's winner
the consolation winner; every other player is eliminated at exactly his second loss,
and the event has ``2n - 3`` matches.

Last chance (optional): the players who lose their first consolation match (stage ``L1``:
two losses, both early) play a single-elimination third flight (``X{r}``) for its own
winner.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from bgboard.club.model import CONSOLATION, LAST_CHANCE, MAIN

SEED, WINNER, LOSER = "seed", "winner", "loser"

# node states
WAITING, READY, BYE, EMPTY, DECIDED = "waiting", "ready", "bye", "empty", "decided"


@dataclass(frozen=True, slots=True)
class Source:
    kind: str   # seed / winner / loser
    ref: str    # the seed number (as text) or a node key


@dataclass(frozen=True, slots=True)
class Node:
    key: str
    flight: str
    stage: int
    sources: tuple[Source, Source]


@dataclass(frozen=True, slots=True)
class Slot:
    """A node filled from the outcomes: ``a``/``b`` player ids, ``None`` = nobody,
    ``...`` (Ellipsis) = not known yet."""

    state: str
    a: object
    b: object
    winner: object
    loser: object


def seed_order(size: int) -> list[int]:
    """Seeds by bracket place for a bracket of ``size`` (a power of two): 1, size, ..."""
    order = [1]
    while len(order) < size:
        m = 2 * len(order) + 1
        order = [x for s in order for x in (s, m - s)]
    return order


def bracket_size(n: int) -> int:
    size = 1
    while size < n:
        size *= 2
    return size


def _halve(sources: Sequence[Source], prefix: str, flight: str, stage: int,
           nodes: list[Node]) -> list[Source]:
    """Pair neighbouring sources in new nodes ``{prefix}-1``, ``{prefix}-2``, ...; their winners."""
    winners: list[Source] = []
    for i in range(len(sources) // 2):
        key = f"{prefix}-{i + 1}"
        nodes.append(Node(key, flight, stage, (sources[2 * i], sources[2 * i + 1])))
        winners.append(Source(WINNER, key))
    return winners


def _main(size: int) -> tuple[list[Node], list[list[str]]]:
    """Main-flight nodes and the node keys of each main round."""
    nodes: list[Node] = []
    rounds: list[list[str]] = []
    prev = [Source(SEED, str(s)) for s in seed_order(size)]
    r = 1
    while len(prev) > 1:
        prev = _halve(prev, f"W{r}", MAIN, r, nodes)
        rounds.append([s.ref for s in prev])
        r += 1
    return nodes, rounds


def single_elimination(n: int) -> list[Node]:
    """The nodes of a single-elimination bracket for ``n >= 2`` players."""
    return _main(bracket_size(n))[0]


def double_elimination(n: int, last_chance: bool = False) -> list[Node]:
    """The nodes of a double elimination with a progressive consolation, and the optional
    last-chance flight (module doc)."""
    size = bracket_size(n)
    nodes, rounds = _main(size)
    k = len(rounds)
    if k < 2:
        return nodes            # two players: the final's loser has nobody left to meet
    stage = k + 1
    first = rounds[0]
    survivors = _halve([Source(LOSER, key) for key in first], "L1", CONSOLATION, stage, nodes)
    for r in range(2, k + 1):
        stage += 1
        dropping = rounds[r - 1]
        # alternate the order the losers drop in, so that players from the same part of
        # the main bracket do not meet again at once
        if r % 2 == 0:
            dropping = dropping[::-1]
        drop: list[Source] = []
        for i, (survivor, main_key) in enumerate(zip(survivors, dropping)):
            key = f"D{r}-{i + 1}"
            nodes.append(Node(key, CONSOLATION, stage, (survivor, Source(LOSER, main_key))))
            drop.append(Source(WINNER, key))
        if r == k:
            break
        stage += 1
        survivors = _halve(drop, f"R{r}", CONSOLATION, stage, nodes)
    if last_chance and len(first) >= 4:
        entrants = [Source(LOSER, f"L1-{i + 1}") for i in range(len(first) // 2)]
        r = 1
        while len(entrants) > 1:
            stage += 1
            entrants = _halve(entrants, f"X{r}", LAST_CHANCE, stage, nodes)
            r += 1
    return nodes


def main_final(nodes: Sequence[Node]) -> str:
    return [n.key for n in nodes if n.flight == MAIN][-1]


def consolation_final(nodes: Sequence[Node]) -> str | None:
    keys = [n.key for n in nodes if n.flight == CONSOLATION]
    return keys[-1] if keys else None


def last_chance_final(nodes: Sequence[Node]) -> str | None:
    keys = [n.key for n in nodes if n.flight == LAST_CHANCE]
    return keys[-1] if keys else None


def resolve(nodes: Sequence[Node], seeds: Sequence[int],
            outcomes: Mapping[str, int | None]) -> dict[str, Slot]:
    """Fill every node: ``seeds[i]`` is the player of seed ``i + 1``; ``outcomes`` maps a
    node's key to its winner (``None`` while it is being played)."""
    slots: dict[str, Slot] = {}

    def who(src: Source) -> object:
        if src.kind == SEED:
            s = int(src.ref)
            return seeds[s - 1] if s <= len(seeds) else None
        slot = slots[src.ref]
        return slot.winner if src.kind == WINNER else slot.loser

    for node in nodes:
        a, b = who(node.sources[0]), who(node.sources[1])
        if a is ... or b is ...:
            slots[node.key] = Slot(WAITING, a, b, ..., ...)
        elif a is None and b is None:
            slots[node.key] = Slot(EMPTY, None, None, None, None)
        elif a is None or b is None:
            slots[node.key] = Slot(BYE, a, b, a if b is None else b, None)
        elif node.key in outcomes and outcomes[node.key] is not None:
            w = outcomes[node.key]
            slots[node.key] = Slot(DECIDED, a, b, w, b if w == a else a)
        else:
            slots[node.key] = Slot(READY, a, b, ..., ...)
    return slots
