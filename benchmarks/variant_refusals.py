"""How many refused seed-variant plays get only a generic sentence (no rule named).

Not a timing: a count.  Random games of each variant (random legal plays, the same seeds
every run); at each turn a few wrong plays a hand could make — random single steps of the
dice (each of my checkers moved a die's pips, or off, whatever the rules say), in random
order, using all or some of the dice — that no legal play gives.  Each is refused two
ways: as text through ``Game.parse_play`` (the CLI's ``bgboard legal --variant`` path: a
move that cannot be made, or a result no play gives) and as a board through
``Game.explain`` (the board's path).  A reason is *generic* when it names no rule.

    .venv/bin/python benchmarks/variant_refusals.py [--games 20] [--seed 16]

Figures: docs/rules.md, "Why a variant play is refused".
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import Counter

from bgboard.rules.board import Board
from bgboard.rules.games import GAMES, SEED_GAMES
from bgboard.rules.notation import IllegalPlayError
from bgboard.rules.position import BAR, OFF

#: Sentences that name no rule (the fallbacks before and after issue 16's follow-up).
GENERIC = ("not allowed here", "that is not a play of", "shows no legal play", "in any order",
           "in this order")


def generic(reason: str) -> bool:
    return any(g in reason for g in GENERIC)


def hand_step(name: str, board: Board, frm: int, die: int) -> tuple[Board, int]:
    """My checker on ``frm`` moved ``die`` pips whatever the rules say (hits where the game
    hits), and where it lands."""
    m = list(board.mine)
    reserve = board.reserve
    if frm == BAR and not m[BAR]:
        reserve = (reserve[0] - 1, reserve[1])
    else:
        m[frm] -= 1
    to = max(frm - die, OFF)
    m[to] += 1
    th = board.theirs
    if to != OFF and name in ("race", "anti") and th[BAR - to] == 1:
        t = list(th)
        t[BAR - to] = 0
        t[BAR] += 1
        th = tuple(t)
    return Board(tuple(m), th, (board.pins[0] & ~(1 << frm), board.pins[1]), reserve), to


def wrong_play(name: str, board: Board, dice: tuple[int, int], rng: random.Random):
    rolled = [dice[0]] * 4 if dice[0] == dice[1] else list(dice)
    rng.shuffle(rolled)
    rolled = rolled[: rng.randint(1, len(rolled))]
    moves = []
    for die in rolled:
        sources = [p for p in range(1, 25) if board.mine[p]]
        if board.mine[BAR] or board.reserve[0]:
            sources.append(BAR)
        if not sources:
            break
        frm = rng.choice(sources)
        board, to = hand_step(name, board, frm, die)
        moves.append((frm, to))
    return board, moves


def text_of(moves) -> str:
    return " ".join(f"{'bar' if a == BAR else a}/{'off' if b == OFF else b}" for a, b in moves)


def key(board: Board):
    return board.mine, board.theirs, board.reserve[0]


def measure(games: int, seed: int, per_turn: int = 3) -> dict[str, dict[str, Counter]]:
    out: dict[str, dict[str, Counter]] = {}
    for name, game in ((n, GAMES[n]) for n in SEED_GAMES):
        rng = random.Random(f"{seed}-{name}")
        tally = {"text": Counter(), "board": Counter()}
        for _ in range(games):
            board = game.start()
            for _turn in range(400):
                dice = (rng.randint(1, 6), rng.randint(1, 6))
                plays = game.plays(board, dice)
                legal = {key(p.position) for p in plays}
                if plays:
                    for _k in range(per_turn):
                        result, moves = wrong_play(name, board, dice, rng)
                        if key(result) in legal or not moves:
                            continue
                        try:
                            game.parse_play(text_of(moves), board, dice)
                            reason = "(accepted)"
                        except IllegalPlayError as exc:
                            reason = str(exc)
                        tally["text"]["generic" if generic(reason) else "named"] += 1
                        tally["text"]["all"] += 1
                        why = game.explain(board, dice, result)
                        tally["board"]["generic" if generic(why) else "named"] += 1
                        tally["board"]["all"] += 1
                        if generic(why):
                            tally["board"][f"e.g. {why[:60]}"] += 1
                        if generic(reason):
                            tally["text"][f"e.g. {reason.split(':', 1)[-1][:60]}"] += 1
                chosen = rng.choice(plays) if plays else None
                after = chosen.position if chosen else board
                if game.outcome(after) is not None:
                    break
                board = after.swap()
        out[name] = tally
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=16)
    args = parser.parse_args(argv)
    for name, tally in measure(args.games, args.seed).items():
        for path, c in tally.items():
            print(f"{name:8} {path:5} wrong plays {c['all']:6}  generic {c['generic']:6}"
                  f"  ({100 * c['generic'] / max(c['all'], 1):.1f} %)")
            for k, n in sorted(((k, n) for k, n in c.items() if k.startswith("e.g.")), key=lambda kn: -kn[1])[:4]:
                print(f"{'':16}{n:6}  {k}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
