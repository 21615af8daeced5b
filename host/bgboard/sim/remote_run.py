"""Remote play in the simulator (``bgboard sim --remote``; docs/remote.md).

``--remote`` starts a private Mosquitto (:class:`~bgboard.net.remotelink.RemoteBroker`: two
board accounts, each allowed only its side of the match) and two simulated boards, each a
process of its own (``bgboard sim --remote-board CONFIG``): White's person at one, Black's at
the other.  Each board is the real app on the real firmware (``--model-firmware``: the
modelled firmware and the controller on a virtual clock), with its own journal, records and
display frames in ``OUT/white`` and ``OUT/black``.  The simulated person decides only their
own side (:class:`~bgboard.sim.driver.Players`); when the other board's person acts, they
wait, and carry the other side's play out on their board as the display and LEDs show it —
now and then (``--illegal-rate``) another legal play first, which the board must catch.

The players' choices and dice are functions of ``(seed, game, turn)`` at both boards, so a
board killed at any moment and started again (same options) resumes and ends the match as
an uninterrupted run does.  The summary lists both boards and says whether their records
(``match.mat``) are the same.
"""

from __future__ import annotations

import asyncio
import logging
import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any, Callable

from bgboard.control.events import Button
from bgboard.sim.driver import Options, SimulationError, play
from bgboard.sim.layout import Layout
from bgboard.sim.modelled_board import ModelledBoard
from bgboard.sim.checker_moves import Move
from bgboard.sim.remote_turns import REMOTE_WAIT_S, remote_decides, remote_script, stopped

__all__ = ["REMOTE_WAIT_S", "play_remote_interactive", "remote_decides", "remote_script", "run_remote_board",
           "run_remote_match"]

log = logging.getLogger(__name__)

SIDES = ("white", "black")
#: The simulated remote match's two board accounts and their sides.
BOARDS = (("board1", "white"), ("board2", "black"))




# ---------------------------------------------------------------------- one board
class SeatedBoard:
    """The modelled board of one side of a remote match (a :class:`~bgboard.sim.ops.Board`):
    after each op the seat sends what the host journalled (``after``), and a wait takes
    real time - the other board's person acts in their own process."""

    def __init__(self, board: ModelledBoard, after: Callable[[], None]) -> None:
        self.board = board
        self.after = after

    async def press(self, player: int, button: Button) -> None:
        await self.board.press(player, button)
        self.after()

    async def roll(self, dice: tuple[int, int]) -> None:
        await self.board.roll(dice)
        self.after()

    async def preload(self, dice: tuple[int, int]) -> None:
        await self.board.preload(dice)
        self.after()

    async def carry(self, moves: tuple[Move, ...]) -> None:
        await self.board.carry(moves)
        self.after()

    async def set_up(self) -> None:
        await self.board.set_up()
        self.after()

    async def lay_out(self, layout: Layout) -> None:
        await self.board.lay_out(layout)
        self.after()

    async def wait(self, test: Callable[[], bool], what: str, timeout_s: float) -> bool:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout_s
        while True:
            self.board.roll_pending()
            self.after()  # (what a journal transaction held back goes out now)
            if test():
                return True
            if loop.time() > deadline:
                return False
            await asyncio.sleep(0.01)


def remote_table(config: Any) -> dict[str, Any]:
    """The ``[remote]`` table of a board's config (what the host's app reads)."""
    r = config.remote
    return {"remote": {"broker": r.broker, "match": r.match, "side": r.side, "invitation": r.invitation,
                       "username": r.username, "password_file": r.password_file, "ca_file": r.ca_file}}


def board_summary(players: Any, seat: Any, out: Path, side: str) -> dict[str, Any]:
    summary: dict[str, Any] = players.summary()
    summary.update({
        "side": side,
        "match": seat.settings.match,
        "mat": str(out / "match.mat"),
        "journal": str(out / "journal.sqlite"),
        "remote_plays": players.tally.engine_plays,
        "remote_rejected": players.tally.engine_rejected,
        "wrong_executions": players.tally.wrong_executions,
        "wrong_caught": players.tally.wrong_caught,
        "moves_published": seat.link.published,
    })
    return summary


async def _acked(seat: Any, timeout: float = REMOTE_WAIT_S) -> None:
    """Stay on the link until the other board has every move of this one (its last ones)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    seat.after()
    while seat.link.pending and loop.time() < deadline:
        await asyncio.sleep(0.02)


def run_remote_board(options: Options, out: Path, config: Any, *, model: bool, speed: int | None = None) -> dict[str, Any]:
    """Play (or resume) this board's side of the remote match of ``config``'s ``[remote]``."""
    from bgboard.config import remote_place

    side = remote_place(config.remote)[1]
    if options.remote != side:
        raise SimulationError(f"the board's options say {options.remote}, its [remote] table {side}")
    out = Path(out)
    if model:
        return asyncio.run(_model_board(options, out, config, side))
    return _firmware_board(options, out, config, side, speed)


async def _model_board(options: Options, out: Path, config: Any, side: str) -> dict[str, Any]:
    from bgboard.config import remote_settings
    from bgboard.net.remotelink import open_remote
    from bgboard.sim.modelled_board import Simulation
    from bgboard.sim.records import write_mat, write_sgf

    holder: list[Any] = []

    def post(event: Any) -> None:
        sim = holder[0] if holder else None
        if sim is not None and getattr(sim, "controller", None) is not None:
            sim.controller.handle(event)
            seat.after()

    def clock() -> int:
        return holder[0].clock if holder else 0

    seats: list[Any] = []

    def make(journal: Any) -> Any:
        seats.append(open_remote(remote_settings(config), config.match.players, journal, post, clock))
        return seats[0]

    sim = Simulation(options, out, opponent=make)
    holder.append(sim)
    seat = seats[0]

    async def between() -> None:
        stopped(sim.controller)

    try:
        await play(SeatedBoard(sim.board, seat.after), sim.players, between=between)
        await _acked(seat)
        write_mat(sim.actions, out / "match.mat")
        write_sgf(sim.actions, out / "match.sgf")
        summary = board_summary(sim.players, seat, out, side)
    finally:
        await seat.close()
        sim.close()
    (out / "summary.json").write_text(json.dumps(summary, indent=2) + "\n")
    return summary


def _firmware_board(options: Options, out: Path, config: Any, side: str, speed: int | None) -> dict[str, Any]:
    from bgboard.sim.firmware_board import SPEED, LiveRun
    from bgboard.sim.records import write_mat, write_sgf
    from bgboard.sim.match_run import write_gif

    async def players(board: LiveRun) -> None:  # the match, then on the link until the other board has it all
        await board.play_match()
        await _acked(board.app.opponent)

    live = LiveRun(options, out, speed=SPEED if speed is None else speed, more_config=remote_table(config),
                   players=players)
    asyncio.run(live.run())
    write_mat(live.controller.actions, out / "match.mat")
    write_sgf(live.controller.actions, out / "match.sgf")
    write_gif([p for p, _ in live.panel.frames], out / "display.gif")
    summary = board_summary(live.players, live.app.opponent, out, side)
    (out / "summary.json").write_text(json.dumps(summary, indent=2) + "\n")
    return summary


# ---------------------------------------------------------------------- both boards and the broker
def board_config(out: Path, broker: Any, match: str, side: str, user: str, length: int) -> Path:
    """A board's config file for a remote match on ``broker``."""
    path = out / f"{side}.toml"
    path.write_text(
        f'[match]\nlength = {length}\n\n[remote]\nbroker = "{broker.url}"\nmatch = "{match}"\nside = "{side}"\n'
        f'username = "{user}"\npassword_file = "{broker.password_file(user)}"\n')
    return path


def board_command(config: Path, out: Path, options: Options, *, model: bool, speed: int | None) -> list[str]:
    """The command line of one simulated board of a remote match."""
    command = [sys.executable, "-m", "bgboard", "sim", "--remote-board", str(config), "--out", str(out), "--seed", str(options.seed), "--match-length", str(options.match_length),
               "--illegal-rate", repr(options.illegal_rate), "--noise", repr(options.noise), "--rules", options.rules,
               "--json"]
    if model:
        command.append("--model-firmware")
    if speed is not None and not model:
        command += ["--speed", str(speed)]
    return command


class _Output(threading.Thread):
    """A board process's stdout, read to its end beside it (a full pipe would stop the board)."""

    def __init__(self, process: "subprocess.Popen[bytes]") -> None:
        super().__init__(daemon=True)
        self.process = process
        self.text = ""

    def run(self) -> None:
        assert self.process.stdout is not None
        self.text = self.process.stdout.read().decode(errors="replace")


def _reader(process: "subprocess.Popen[bytes]") -> _Output:
    reader = _Output(process)
    reader.start()
    return reader


def _private_broker(out: Path, options: Options) -> tuple[Path, Any, str]:
    """The simulator's private Mosquitto, started, with the two boards' accounts (board1 White,
    board2 Black) for the match of ``options.seed``; returns the made ``out``, it and the match."""
    from bgboard.net.remotelink import RemoteBroker

    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    match = f"sim-{options.seed}"
    broker = RemoteBroker(out / "broker", [(user, match, side) for user, side in BOARDS])
    broker.start()
    return out, broker, match


def run_remote_match(options: Options, out: Path, *, model: bool, speed: int | None = None,
                     timeout_s: float = 3600.0) -> dict[str, Any]:
    """``bgboard sim --remote``: a private broker and two board processes play one match."""
    out, broker, match = _private_broker(out, options)
    processes = []
    try:
        for user, side in BOARDS:
            config = board_config(out, broker, match, side, user, options.match_length)
            command = board_command(config, out / side, options, model=model, speed=speed)
            board_log = open(out / f"{side}.log", "wb")
            processes.append((side, subprocess.Popen(command, stdout=subprocess.PIPE, stderr=board_log,
                                                     env=os.environ | {"PYTHONUNBUFFERED": "1"}), board_log))
            log.info("the %s board started (pid %d), its log %s", side, processes[-1][1].pid, out / f"{side}.log")
        outputs = {side: _reader(process) for side, process, _ in processes}
        deadline = time.monotonic() + timeout_s
        while any(process.poll() is None for _, process, _ in processes):
            for side, process, _ in processes:
                if process.poll() not in (None, 0):  # one board failed: the other would wait for ever
                    tail = (out / f"{side}.log").read_text(errors="replace").strip().splitlines()[-1:] or ["no message"]
                    raise SimulationError(f"the {side} board stopped ({tail[0][:300]}); see {out / (side + '.log')}")
            if time.monotonic() > deadline:
                raise SimulationError(f"the remote match did not end within {timeout_s:.0f} s; see {out}/*.log")
            time.sleep(0.1)
        boards = []
        for side, process, _ in processes:
            outputs[side].join()
            if process.returncode != 0:
                tail = (out / f"{side}.log").read_text(errors="replace").strip().splitlines()[-1:] or ["no message"]
                raise SimulationError(f"the {side} board stopped ({tail[0][:300]}); see {out / (side + '.log')}")
            boards.append(json.loads(outputs[side].text.strip().splitlines()[-1]))
    finally:
        for side, process, board_log in processes:
            if process.poll() is None:
                log.warning("the %s board (pid %d) was still running: killed", side, process.pid)
                process.kill()
                process.wait()
            board_log.close()
        broker.stop()
        log.info("the remote match's broker stopped")
    mats = [Path(b["mat"]).read_text() for b in boards]
    summary = {"match": match, "match_length": options.match_length, "boards": boards,
               "same_record": mats[0] == mats[1], "broker": broker.url}
    (out / "summary.json").write_text(json.dumps(summary, indent=2) + "\n")
    return summary


# ---------------------------------------------------------------------- you at one board
def play_remote_interactive(options: Options, out: Path, read: Callable[[str], str] = input,
                            write: Callable[[str], None] = print) -> int:
    """``bgboard sim --interactive --remote``: you play White at the terminal board, a simulated
    person Black at another board (a process of its own, the modelled firmware) through a
    private Mosquitto; Black's plays are named in your numbering for you to carry out."""
    out, broker, match = _private_broker(out, options)
    black = board_command(board_config(out, broker, match, "black", "board2", options.match_length), out / "black",
                          options, model=True, speed=None)
    white = board_config(out, broker, match, "white", "board1", options.match_length)
    board_log = open(out / "black.log", "ab")
    process = subprocess.Popen(black, stdout=subprocess.DEVNULL, stderr=board_log)
    board_log.close()
    log.info("the black board started (pid %d), its log %s", process.pid, out / "black.log")
    try:
        from dataclasses import replace

        from bgboard.config import load_config

        return asyncio.run(_terminal_board(replace(options, remote="white"), out / "white", load_config(white), read,
                                           write))
    finally:
        if process.poll() is None:
            log.info("the black board (pid %d) is stopped", process.pid)
            process.terminate()  # (it resumes from its journal with the same command)
            process.wait()
        broker.stop()


async def _terminal_board(options: Options, out: Path, config: Any, read: Callable[[str], str],
                          write: Callable[[str], None]) -> int:
    from bgboard.sim.interactive import HELP, _Session
    from bgboard.sim.terminal_board import uses_colour
    from bgboard.sim.match_run import write_gif, write_records

    sim, seat, panel = _terminal_simulation(options, out, config, write)
    c: Any = sim.controller  # the match room, its other side a RemotePlayer
    session = _Session(sim, write, uses_colour(sys.stdout, os.environ) if write is print else False)
    write(HELP)
    write(session.board())
    try:
        failed = await _terminal_turns(c, sim, seat, session, read, write)
        if failed is not None:
            return failed
        await _acked(seat, 30.0)
    finally:
        await seat.close()
        write_records(sim, out)
        sim.close()
        write_gif([p for p, _ in panel.frames], out / "display.gif")
    if c.over:
        a, b = c.state.score
        write(f"match over: white {a}, black {b}")
    return 0


def _terminal_simulation(options: Options, out: Path, config: Any, write: Callable[[str], None]) -> tuple[Any, Any, Any]:
    """The modelled board of a terminal player's remote match, its remote seat and the
    display's panel: the display's new lines written as they change, the other board's
    events handed to the match room."""
    from bgboard.config import remote_settings
    from bgboard.display.panel import FilePanel
    from bgboard.display.panels import panel_spec
    from bgboard.display.screen import Screen
    from bgboard.net.remotelink import open_remote
    from bgboard.sim.interactive import keyed
    from bgboard.sim.modelled_board import Simulation
    from bgboard.sim.match_run import PANEL

    out.mkdir(parents=True, exist_ok=True)
    panel = FilePanel(panel_spec(PANEL), out / "frames")
    screen = Screen(panel)
    last = [""]
    holder: list[Any] = []
    seats: list[Any] = []

    def on_show(state: Any, now: int) -> None:
        due = screen.update(state, now, full=state.phase in ("game-over", "match-over"))
        if due is not None:
            screen.tick(max(due, now))
        text = (getattr(state, "message", ()) or ("",))[0]
        if text and text != last[0]:
            write(f"display: {keyed(text)}")
        last[0] = text

    def post(event: Any) -> None:
        if holder:
            holder[0].controller.handle(event)
            seats[0].after()

    def make(journal: Any) -> Any:
        seats.append(open_remote(remote_settings(config), config.match.players, journal, post,
                                 lambda: holder[0].clock if holder else 0))
        return seats[0]

    sim = Simulation(options, out, on_show=on_show, opponent=make)
    holder.append(sim)
    return sim, seats[0], panel


async def _terminal_turns(c: Any, sim: Any, seat: Any, session: Any, read: Callable[[str], str],
                          write: Callable[[str], None]) -> int | None:
    """The terminal player's turns until the match is over or the input ends (None), or
    the exit status of a problem with the other board (69 refused, else 2)."""
    while not c.over:
        if c.other.peer.problem is not None:
            write(f"bgboard: {c.other.peer.problem}")
            return 69 if c.other.peer.refused else 2
        session.announce()
        if not session.human_acts():  # the other board's person acts: say what they did
            before, n, layout = c.state, len(c.actions), sim.table.layout
            while len(c.actions) == n and not session.human_acts() and c.other.peer.problem is None:
                seat.after()
                await asyncio.sleep(0.05)
            session.report(before, n, layout)
            continue
        try:
            line = (await asyncio.to_thread(read, session.prompt())).strip()
        except EOFError:
            break
        if not session.obey(line):
            break
        seat.after()
    return None
