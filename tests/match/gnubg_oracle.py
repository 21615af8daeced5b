"""gnubg as an oracle, run in a subprocess (gnubg's embedded module keeps global state and
aborts the process on some inputs).

    python gnubg_oracle.py import FILE...        one JSON line per file: gnubg's games
    python gnubg_oracle.py matchid ID...         one JSON line per Match ID: gnubg's reading
    python gnubg_oracle.py reexport FILE...      gnubg imports each .mat and exports FILE.gnubg
    python gnubg_oracle.py sgf MAT OUT           gnubg imports MAT and saves the match as SGF
    python gnubg_oracle.py play LENGTH SEED OUT  gnubg plays a match (its dice, its 0-ply
                                                 checker play) and exports it to OUT (.mat)
    python gnubg_oracle.py records FILE...       gnubg imports each .mat: its whole match()
                                                 (games, and every record with its Position ID)
    python gnubg_oracle.py session GAMES SEED OUT  gnubg plays a money session (resigning
                                                 hopeless games) and exports it to OUT
    python gnubg_oracle.py headers FILE...       gnubg imports each .mat, sets every match
                                                 info it writes and exports FILE.gnubg

Results go to stdout prefixed by ``@@`` (gnubg prints boards on stdout too).
"""

from __future__ import annotations

import json
import sys

import gnubg  # type: ignore[import-not-found]
import gnubg_nn  # type: ignore[import-not-found]


def _quiet() -> None:
    gnubg.command("set sound enable off")
    gnubg.command("set display off")
    gnubg.command("set confirm new off")
    for p in (0, 1):  # a computer player makes gnubg wait for its own turn forever
        gnubg.command(f"set player {p} human")


def _emit(obj: object) -> None:
    print("@@" + json.dumps(obj), flush=True)


def import_files(files: list[str]) -> None:
    for name in files:
        gnubg.command(f"import mat {name}")
        match = gnubg.match()
        games = []
        for game in match["games"]:
            info = game["info"]
            games.append(
                {
                    "winner": {"X": 0, "O": 1}.get(info["winner"]),
                    "points": info.get("points-won"),
                    "score": [info["score-X"], info["score-O"]],
                    "crawford": bool(info.get("crawford", False)),
                    "resigned": bool(info.get("resigned", False)),
                }
            )
        _emit({"file": name, "length": match["match-info"]["match-length"], "games": games})


def decode_match_ids(ids: list[str]) -> None:
    gnubg.command("new match 1")
    for mid in ids:
        gnubg.command(f"set matchid {mid}")
        cube = gnubg.cubeinfo()
        pos = gnubg.posinfo()
        _emit(
            {
                "id": mid,
                "echo": gnubg.matchid(),
                "cube": cube["cube"],
                "owner": cube["cubeowner"],
                "score": list(cube["score"]),
                "length": cube["matchto"],
                "crawford": bool(cube["crawford"]),
                "dice": list(pos["dice"]),
                "turn": pos["turn"],
                "doubled": pos["doubled"],
            }
        )


def records(files: list[str]) -> None:
    for name in files:
        gnubg.command(f"import mat {name}")
        _emit({"file": name, "match": gnubg.match()})


def headers(files: list[str]) -> None:
    """Every header line gnubg's exporter writes: Site, Event, Round, EventDate,
    Transcriber (its annotator), a comment, and a rating in the names."""
    for k, name in enumerate(files):
        gnubg.command(f"import mat {name}")
        for command in (
            f"set matchinfo event Club Night {k}",
            "set matchinfo place Copenhagen, Denmark",
            f"set matchinfo round Round {k + 1}",
            "set matchinfo annotator Tom Transcriber",
            f"set matchinfo date 2026-11-{10 + k % 15}",
            f"set matchinfo comment bgboard selfplay match {k}",
            "set matchinfo rating 0 1650",
            "set matchinfo rating 1 1720.5",
        ):
            gnubg.command(command)
        gnubg.command(f"export match mat {name}.gnubg")
        _emit({"file": name})


def session(games: int, seed: int, out: str) -> None:
    """A money session played by gnubg: its dice, gnubg-nn's 0-ply plays, a pip-count cube
    rule, and a resignation (single, or gammon when the loser has borne off nothing) by a
    player far behind in the race."""
    gnubg.command(f"set seed {seed}")
    gnubg.command("new session")
    _play(lambda: len(gnubg.match()["games"]) > games, resign=True)
    gnubg.command(f"export match mat {out}")
    _emit({"games": len(gnubg.match()["games"])})


def _play(done, resign: bool = False) -> None:
    for _ in range(20000):
        if done():
            break
        info = gnubg.posinfo()
        if info["gamestate"] != 1:
            gnubg.command("new game")
            continue
        board = gnubg.board()
        me, them = sum((i + 1) * n for i, n in enumerate(board[1])), sum(
            (i + 1) * n for i, n in enumerate(board[0])
        )
        if info["doubled"]:
            gnubg.command("drop" if them - me > 0.25 * them else "take")
            continue
        if info["dice"] == (0, 0):
            if resign and me - them > 70:
                gnubg.command("resign gammon" if sum(board[1]) == 15 and me - them > 110 else "resign normal")
                gnubg.command("accept")
                continue
            cube = gnubg.cubeinfo()
            may = not cube["crawford"] and cube["cubeowner"] in (-1, info["turn"])
            if may and them - me > 0.12 * them and cube["cube"] < 8:
                gnubg.command("double")
            else:
                gnubg.command("roll")
            continue
        move = gnubg_nn.best_move(board, info["dice"][0], info["dice"][1], 0)
        text = " ".join(f"{'bar' if a == 25 else a}/{'off' if b == 0 else b}" for a, b in move)
        gnubg.command(f"move {text}" if text else "move")


def play(length: int, seed: int, out: str) -> None:
    """gnubg rolls and records; checker plays are gnubg's 0-ply choice (gnubg-nn, since
    the embedded module's findbestmove drops bear-off steps); the cube follows a fixed
    pip-count rule so that doubles, takes and drops appear."""
    gnubg.command(f"set seed {seed}")
    gnubg.command(f"new match {length}")
    for _ in range(20000):
        match = gnubg.match()
        if match["match-info"].get("result"):
            break
        info = gnubg.posinfo()
        if info["gamestate"] != 1:
            gnubg.command("new game")
            continue
        board = gnubg.board()
        me, them = sum((i + 1) * n for i, n in enumerate(board[1])), sum(
            (i + 1) * n for i, n in enumerate(board[0])
        )
        if info["doubled"]:
            # The decision is the opponent's: `board` is seen by the doubler.
            gnubg.command("drop" if them - me > 0.25 * them else "take")
            continue
        if info["dice"] == (0, 0):
            cube = gnubg.cubeinfo()
            may = not cube["crawford"] and cube["cubeowner"] in (-1, info["turn"])
            if may and them - me > 0.12 * them and cube["cube"] < 8:
                gnubg.command("double")
            else:
                gnubg.command("roll")
            continue
        move = gnubg_nn.best_move(board, info["dice"][0], info["dice"][1], 0)
        text = " ".join(f"{'bar' if a == 25 else a}/{'off' if b == 0 else b}" for a, b in move)
        gnubg.command(f"move {text}" if text else "move")
    gnubg.command(f"export match mat {out}")
    match = gnubg.match()
    _emit(
        {
            "length": match["match-info"]["match-length"],
            "games": [
                {
                    "winner": {"X": 0, "O": 1}.get(g["info"]["winner"]),
                    "points": g["info"].get("points-won"),
                }
                for g in match["games"]
            ],
        }
    )


def mat_to_sgf(mat: str, out: str) -> None:
    """gnubg imports a .mat file and saves the match as SGF."""
    gnubg.command(f"import mat {mat}")
    gnubg.command(f"save match {out}")
    _emit({"sgf": out})


def reexport(files: list[str]) -> None:
    """gnubg imports each .mat file and exports it again to FILE.gnubg."""
    for name in files:
        gnubg.command(f"import mat {name}")
        gnubg.command(f"export match mat {name}.gnubg")
        _emit({"file": name})


def main(argv: list[str]) -> None:
    _quiet()
    if argv[0] == "import":
        import_files(argv[1:])
    elif argv[0] == "matchid":
        decode_match_ids(argv[1:])
    elif argv[0] == "reexport":
        reexport(argv[1:])
    elif argv[0] == "sgf":
        mat_to_sgf(argv[1], argv[2])
    elif argv[0] == "play":
        play(int(argv[1]), int(argv[2]), argv[3])
    elif argv[0] == "records":
        records(argv[1:])
    elif argv[0] == "headers":
        headers(argv[1:])
    elif argv[0] == "session":
        session(int(argv[1]), int(argv[2]), argv[3])
    else:
        raise SystemExit(f"unknown mode {argv[0]}")


if __name__ == "__main__":
    main(sys.argv[1:])
