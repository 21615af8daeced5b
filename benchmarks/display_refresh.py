"""Refresh decisions over simulated games: how many partial and full refreshes.

    .venv/bin/python benchmarks/display_refresh.py [--games N] [--seed S]

Plays seeded random games with the rules engine (random legal plays), turning each moment
into a DisplayState the way the controller would: roll, each checker step as it lands
(bursts ~250 ms apart), a cube offer every few turns, an occasional illegal-move message,
and game end.  Every state goes through the real Screen (renderer + RefreshPolicy) onto a
panel that only counts refreshes.  Side by side: the policy with N = 5, 6, 8 against
the naive reference (a full refresh for every update), per panel kind.
"""

from __future__ import annotations

import argparse
import platform
import random
import sys
import time
from dataclasses import dataclass, replace

from bgboard.display.panels import PANELS, PanelSpec
from bgboard.display.refresh import RefreshConfig
from bgboard.display.screen import Screen
from bgboard.display.display_state import DisplayState
from bgboard.rules import apply_step, game_result, legal_plays, pip_counts, start_position


@dataclass
class CountingPanel:
    """A panel that counts what it is asked to do (and how long the panel would be busy)."""

    caps: PanelSpec
    full: int = 0
    partial: int = 0
    busy_ms: int = 0

    def show(self, image, full: bool) -> None:
        if full or not self.caps.partial:
            self.full += 1
            self.busy_ms += self.caps.full_ms
        else:
            self.partial += 1
            self.busy_ms += self.caps.partial_ms or 0

    def sleep(self) -> None:
        pass

    def close(self) -> None:
        pass


def game_updates(rng: random.Random):
    """Yield ``(ms since the previous update, DisplayState, full)`` for one random game."""
    position = start_position()
    turn = 0
    base = DisplayState(names=("Alice", "Bob"), match_length=7, score=(0, 0))
    cube, owner = 1, None
    yield 0, replace(base, phase="opening", dice=(0, 0), pips=(167, 167)), True
    turns = 0
    while True:
        turns += 1
        mine, theirs = pip_counts(position)
        pips = (mine, theirs) if turn == 0 else (theirs, mine)
        state = replace(base, turn=turn, pips=pips, cube=cube, cube_owner=owner)
        yield 4000, replace(state, phase="rolling"), False
        if turns % 9 == 0 and owner in (None, turn) and cube < 8:
            yield 1500, replace(state, phase="cube-offered"), False
            cube, owner = cube * 2, 1 - turn
            state = replace(state, cube=cube, cube_owner=owner)
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        state = replace(state, phase="moving", dice=dice)
        yield 2000, state, False
        plays = legal_plays(position, dice)
        if plays:
            play = rng.choice(plays)
            if rng.random() < 0.05:  # an illegal try, corrected
                yield 1200, replace(state, severity="error",
                                    message=("Illegal: that point is blocked",)), False
            after = position
            for step in play.steps:
                after = apply_step(after, step)
                m, t = pip_counts(after)
                yield 250 + rng.randint(0, 400), replace(
                    state, pips=(m, t) if turn == 0 else (t, m)), False
            position = play.position
        result = game_result(position)
        if result is not None:
            winner = turn if result.winner == "mine" else 1 - turn
            yield 800, replace(base, phase="game-over", winner=winner, pips=None), True
            return
        position = position.swap()
        turn = 1 - turn


def simulate(spec: PanelSpec, config: RefreshConfig | None, games: int, seed: int):
    panel = CountingPanel(spec)
    updates = 0
    if config is None:  # reference: every update refreshes fully, as soon as it comes
        from bgboard.display.renderer import render

        for g in range(games):
            for _, state, _ in game_updates(random.Random(seed + g)):
                render(state, spec)
                panel.show(None, True)
                updates += 1
        return updates, panel
    screen = Screen(panel, config)
    now = 0
    for g in range(games):
        for gap, state, full in game_updates(random.Random(seed + g)):
            due = screen.policy.due_ms(screen.state)
            while due is not None and due <= now + gap:
                screen.tick(due)
                due = screen.policy.due_ms(screen.state)
            now += gap
            screen.update(state, now, full=full)
            updates += 1
    while (due := screen.policy.due_ms(screen.state)) is not None:
        screen.tick(due)
    return updates, panel


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"# {platform.machine()}, Python {platform.python_version()}, "
          f"{args.games} games, seed {args.seed}")
    print(f"{'panel':16} {'policy':12} {'updates':>8} {'refreshes':>10} {'partial':>8} "
          f"{'full':>6} {'panel busy s':>13} {'vs naive':>9} {'wall s':>7}")
    for name in ("waveshare-2in13", "waveshare-7in5", "inky-what"):
        spec = PANELS[name]
        t0 = time.perf_counter()
        n, naive = simulate(spec, None, args.games, args.seed)
        wall = time.perf_counter() - t0
        print(f"{name:16} {'naive full':12} {n:>8} {naive.full + naive.partial:>10} "
              f"{naive.partial:>8} {naive.full:>6} {naive.busy_ms / 1000:>13.0f} "
              f"{'1.00':>9} {wall:>7.1f}")
        for n_partials in (5, 6, 8):
            t0 = time.perf_counter()
            cfg = RefreshConfig(partials_before_full=n_partials)
            n, counted = simulate(spec, cfg, args.games, args.seed)
            wall = time.perf_counter() - t0
            ratio = counted.busy_ms / naive.busy_ms
            print(f"{name:16} {f'N={n_partials}':12} {n:>8} "
                  f"{counted.full + counted.partial:>10} {counted.partial:>8} "
                  f"{counted.full:>6} {counted.busy_ms / 1000:>13.0f} {ratio:>9.2f} "
                  f"{wall:>7.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
