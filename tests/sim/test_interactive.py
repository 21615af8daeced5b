"""bgboard sim --interactive, tried as a person would: scripted input lines, and the real
command on a pseudo-terminal."""

from __future__ import annotations

import os
import pty
import re
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bgboard.sim.interactive import keyed, play_interactive
from bgboard.sim.modelled_board import Options


def _session(tmp_path: Path, lines: list[str], opponent: str | None = None, length: int = 1) -> list[str]:
    said: list[str] = []
    feed = iter(lines)

    def read(prompt: str) -> str:
        said.append(prompt)
        try:
            return next(feed)
        except StopIteration:
            raise EOFError from None

    play_interactive(Options(length, seed=4, opponent=opponent), tmp_path, read=read, write=said.append)
    return said


@pytest.mark.slow
def test_a_wrong_play_is_refused_with_its_reason_and_a_right_one_taken(tmp_path: Path) -> None:
    # seed 4: black wins the opening roll and plays; white then rolls 5-4
    said = _session(tmp_path, ["r", "r", "13/7", "r", "zz/1", "7/13", "13/8", "13/9", "r", "b", "q"])
    text = "\n".join(said)
    # an illegal single step is refused as an illegal whole play is: nothing is placed
    assert "13/7 moves 6 pips: the roll 5-4 cannot play that: nothing moved" in text
    assert "display: move your checkers first" in text  # (r pressed with nothing moved)
    assert "display: 13/9 13/8: press done (r)" in text  # the display's word and its key
    assert "'zz/1' is not a move like '13/7', 'bar/22*', '6/off' or '24/18(2)': nothing moved" in text
    assert list((tmp_path / "frames").glob("frame-*.png"))
    assert (tmp_path / "match.mat").read_text().count("54: 13/8 13/9") == 1


def test_the_other_side_is_narrated_in_whites_numbering_and_the_board_redrawn(tmp_path: Path) -> None:
    said = _session(tmp_path, ["r", "q"])
    # black opens 6-2 with 13/5 in its own numbering: 12/20 in white's (the person's)
    assert "opening roll: White 2, Black 6" in said
    assert "Black plays 12/20" in said
    after = said[said.index("Black plays 12/20") + 1]
    assert after.splitlines()[2].split()[-13:] == ["B4", ".", ".", ".", "W3", ".", "W5", ".", ".", ".", ".", "B2"]
    assert not any(s.startswith("display: 13/5") for s in said)  # black's own display line is not the person's


def test_p_with_no_double_offered_says_so_and_resign_is_its_own_word(tmp_path: Path) -> None:
    said = _session(tmp_path, ["r", "p", "resign", "p", "q"])
    assert "no double is offered: p passes one. To resign, type resign" in said
    resign = next(s for s in said if s.startswith("display: Resign a single game"))
    assert "double (d): resign more, roll (r): offer it, drop (p): cancel" in resign
    assert "display: resignation cancelled: play on" in said


def test_keys_are_listed_and_named_beside_the_displays_words() -> None:
    assert keyed("13/8 13/9: press done") == "13/8 13/9: press done (r)"
    assert keyed("Black doubles to 2: White, take or pass?") == "Black doubles to 2: White, take (d) or pass (p)?"


def test_quitting_and_coming_back_resumes_the_match(tmp_path: Path) -> None:
    _session(tmp_path, ["r", "q"])
    said = _session(tmp_path, ["b", "q"])
    assert any("[turn White] White 0 Black 0" in s for s in said)


def test_playing_the_engine_its_play_is_shown_checked_and_a_wrong_one_put_back(tmp_path: Path) -> None:
    # seed 4: the engine (black) wins the opening 6-2; gnubg-nn plays 24/18 13/11 = 1/7 12/14 for white
    said = _session(tmp_path, ["r", "1/3", "u", "1/7 12/14", "d", "q"], opponent="gnubg-nn")
    assert "display: gnubg-nn (expert) plays 1/7 12/14: move 1/7 (1 of 2)" in said
    assert "display: that is not gnubg-nn (expert)'s play 1/7 12/14: put back: 3→1" in said
    assert "gnubg-nn (expert) plays 1/7 12/14" in said
    assert any(s.startswith("[turn White] White 0 gnubg-nn (expert) 0") for s in said)
    assert "gnubg-nn (expert)" in (tmp_path / "match.mat").read_text()
    # after doubling the terminal says what happened: the double and the engine's answer
    assert said.index("White doubles to 2") < said.index("gnubg-nn (expert) takes the 2")


def test_a_game_over_gets_its_own_frame_between_games(tmp_path: Path) -> None:
    said = _session(tmp_path, ["r", "1/7 12/14", "resign", "r", "q"], opponent="gnubg-nn", length=3)
    assert "White resigns (1 × the cube)" in said and "gnubg-nn (expert) accepts the resignation" in said
    frame = next(s for s in said if "game over:" in s)
    assert "game over: gnubg-nn (expert) wins (resign, 1 point); score White 0, gnubg-nn (expert) 1" in frame
    assert "r = the next game" in frame
    assert any(s.startswith("[game over] White 0 gnubg-nn (expert) 1") for s in said)  # the prompt waits for the next game


# ---------------------------------------------------------------------- the real command on a terminal
class Terminal:
    """``bgboard sim --interactive`` on a pseudo-terminal, read as the person reads it."""

    def __init__(self, args: list[str], env: dict[str, str] | None = None) -> None:
        master, slave = pty.openpty()
        self.master = master
        self.proc = subprocess.Popen([sys.executable, "-m", "bgboard", "sim", "--interactive", "--model-firmware", *args],
                                     stdin=slave, stdout=slave, stderr=slave, close_fds=True,
                                     env={**os.environ, **(env or {})})
        os.close(slave)
        self.seen = ""

    def expect(self, pattern: str, bound_s: float = 120.0) -> str:
        """Read until ``pattern`` shows (the bound only stops a hang)."""
        end = time.monotonic() + bound_s
        while not re.search(pattern, self.seen):
            assert time.monotonic() < end, f"{pattern!r} never came:\n{self.seen[-2000:]}"
            ready, _, _ = select.select([self.master], [], [], 1.0)
            if ready:
                try:
                    self.seen += os.read(self.master, 65536).decode(errors="replace")
                except OSError:
                    assert False, f"the terminal closed before {pattern!r}:\n{self.seen[-2000:]}"
        return self.seen

    def send(self, line: str) -> None:
        self.seen = ""
        os.write(self.master, (line + "\n").encode())

    def close(self) -> int:
        try:
            return self.proc.wait(60)
        finally:
            os.close(self.master)

    def __enter__(self) -> "Terminal":
        return self

    def __exit__(self, *exc: object) -> None:
        if self.proc.poll() is None:  # a test that failed half-way: the game ends with it
            self.proc.kill()


def test_the_terminal_board_on_a_real_terminal(tmp_path: Path) -> None:
    with Terminal(["--opponent", "gnubg-nn:expert", "--match-length", "1", "--seed", "4", "--out", str(tmp_path)]) as term:
        term.expect(r"keys: r = roll the dice")
        term.expect(r"\[opening\] White 0 gnubg-nn \(expert\) 0 \(\? = keys\)> ")
        term.send("r")
        term.expect(r"move 1/7 \(1 of 2\)")
        term.expect(r"\[move gnubg-nn \(expert\)'s checkers dice 6-2\]")
        term.send("1/7 12/14")
        term.expect(r"gnubg-nn \(expert\) plays 1/7 12/14\r?\n 13  14")  # narrated, then the board drawn
        term.expect(r"\[turn White\]")
        term.send("q")
        assert term.close() == 0


def test_the_issues_own_command_takes_13_10_for_a_two_one(tmp_path: Path) -> None:
    # `printf 'r\n13/10\n' | bgboard sim --interactive --opponent gnubg-nn:intermediate --out o`:
    # white opens 2-1 and plays one checker over both dice, written as everyone writes it
    done = subprocess.run([sys.executable, "-m", "bgboard", "sim", "--interactive", "--opponent",
                           "gnubg-nn:intermediate", "--out", str(tmp_path / "o")],
                          input="r\n13/10\n", capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "[play White dice 2-1]" in done.stdout
    assert "display: 13/10: press done (r)" in done.stdout
    assert "not a legal" not in done.stdout and "FROM/TO" not in done.stdout


def test_the_engines_play_is_typed_as_the_display_names_it_or_in_its_own_numbering(tmp_path: Path) -> None:
    # seed 7: gnubg-nn opens 6-4 running one checker, 24/14 in its numbering, 1/11 on the display
    with Terminal(["--opponent", "gnubg-nn:expert", "--match-length", "1", "--seed", "7", "--out", str(tmp_path / "a")]) as term:
        term.expect(r"\(\? = keys\)> ")
        term.send("r")
        term.expect(r"plays 1/11: move 1/7 \(1 of 2\)")
        term.expect(r"\[move gnubg-nn \(expert\)'s checkers dice 6-4\]")
        term.send("1/11")
        term.expect(r"gnubg-nn \(expert\) plays 1/11\r?\n 13  14")
        term.send("q")
        assert term.close() == 0


def test_a_wrong_play_is_explained_in_the_text_the_person_typed(tmp_path: Path) -> None:
    # seed 4: gnubg-nn opens 6-2 with 24/18 13/11 (1/7 12/14 on the display); the person
    # types a wrong play in the engine's own numbering, then the right one
    with Terminal(["--opponent", "gnubg-nn:expert", "--match-length", "1", "--seed", "4", "--out", str(tmp_path / "b")]) as term:
        term.expect(r"\(\? = keys\)> ")
        term.send("r")
        term.expect(r"\[move gnubg-nn \(expert\)'s checkers dice 6-2\]")
        term.send("24/23 13/11")
        seen = term.expect(r"nothing moved")
        assert "bgboard: 24/23 13/11 is not legal: " in seen
        assert "'1/2'" not in seen and "1/2 12/14" not in seen  # never text the person did not type
        term.send("24/18 13/11")
        term.expect(r"gnubg-nn \(expert\) plays 1/7 12/14\r?\n 13  14")
        term.send("q")
        assert term.close() == 0


def test_at_a_remote_board_the_other_persons_play_is_shown_when_it_comes(tmp_path: Path) -> None:
    # `bgboard sim --interactive --remote --model-firmware`: a real Mosquitto, Black's board a
    # process of its own; seed 4: Black opens 6-2 there, White then rolls 5-4 here
    with Terminal(["--remote", "--match-length", "1", "--seed", "4", "--out", str(tmp_path / "r")], {"NO_COLOR": "1"}) as term:
        term.expect(r"\(\? = keys\)> ")
        term.send("r")
        term.expect(r"Black plays 12/20 \(6-2\): carry it out on the board, from the points marked \^ to those marked \+")
        term.expect(r"\[move Black's checkers dice 6-2\]")
        term.send("12/20")
        term.expect(r"\[turn White\]")
        term.send("r")
        term.expect(r"\[play White dice 5-4\]")
        term.send("13/8 13/9")
        term.expect(r"press done \(r\)")
        term.send("r")
        # nothing more is typed: Black's roll and play are shown as they come, the board marked
        seen = term.expect(r"\[move Black's checkers dice \d-\d\]")
        assert re.search(r"Black rolls \d-\d", seen)
        shown = re.search(r"Black plays [^\n]+ \(\d-\d\): carry it out on the board, from the points marked", seen)
        assert shown, seen
        board = seen[shown.end():].splitlines()[1:7]
        assert any("^" in row for row in board[1:3]) and any("+" in row for row in board[1:3])
        assert board[4].startswith("bar W0 B0   off W0 B0   pips W") and board[5].startswith("cube 1 (centred)")
        term.send("q")
        assert term.close() == 0


@pytest.mark.parametrize("no_color", [False, True])
def test_the_engines_play_shown_with_the_board_in_colour_unless_no_color(tmp_path: Path, no_color: bool) -> None:
    env = {"NO_COLOR": "1"} if no_color else {"NO_COLOR": "", "TERM": "xterm-256color"}
    with Terminal(["--opponent", "gnubg-nn:expert", "--match-length", "3", "--seed", "4", "--out", str(tmp_path / "c")], env) as term:
        first = term.expect(r"\(\? = keys\)> ")
        # the board says the pips, the cube and the match (length and score)
        assert "pips W167 B167" in first and "cube 1 (centred)   match to 3: White 0, gnubg-nn (expert) 0" in first
        term.send("r")
        seen = term.expect(r"\[move gnubg-nn \(expert\)'s checkers dice 6-2\]")
        assert "gnubg-nn (expert) plays 1/7 12/14 (6-2): carry it out on the board" in seen
        if no_color:
            assert "\x1b[" not in seen
            rows = seen[seen.index("carry it out"):].splitlines()[1:4]
            assert rows[2].split()[0] == "B5^" and rows[2].split()[-1] == "B2^"  # (the 12- and 1-points, lifted)
            assert rows[1].split()[1] == ".+" and rows[2].split()[5] == ".+"  # (14 and 7, landed on)
        else:
            assert "\x1b[7mB2\x1b[0m" in seen and "\x1b[4m.\x1b[0m" in seen  # lifted and landed points
            assert "\x1b[36mB3\x1b[0m" in seen and "\x1b[1mW5\x1b[0m" in seen  # both colours' checkers
        term.send("q")
        assert term.close() == 0


def test_a_learner_at_the_terminal_is_told_each_grade_and_gets_the_report(tmp_path: Path) -> None:
    out = tmp_path / "t"
    with Terminal(["--teach", "--opponent", "gnubg-nn:expert", "--match-length", "1", "--seed", "4", "--out", str(out)],
                    {"NO_COLOR": "1"}) as term:
        term.expect(r"\(\? = keys\)> ")
        term.send("r")
        term.expect(r"\[move gnubg-nn \(expert\)'s checkers dice 6-2\]")
        term.send("1/7 12/14")
        term.expect(r"\[turn White\]")
        term.send("r")
        term.expect(r"\[play White dice 5-4\]")
        term.send("13/8 13/9")
        term.expect(r"press done \(r\)")
        term.send("r")
        seen = term.expect(r"\[move gnubg-nn \(expert\)'s checkers dice")
        assert re.search(r"grade \(White\): 13/9 13/8: (good|doubtful|bad|very bad)", seen), seen  # as it is given
        engine = re.search(r"gnubg-nn \(expert\) plays ([^\n]+) \(\d-\d\): carry it out", seen)
        assert engine, seen
        term.send(engine.group(1))
        term.expect(r"\[turn White\]")
        term.send("resign")
        term.expect(r"\(\? = keys\)> ")
        term.send("r")  # the engine accepts: the match is over
        end = term.expect(r"learner report: \S+learner-report.html")
        assert "match over: white 0, black 1" in end and "graded by " in end
        assert term.close() == 0
    html = (out / "learner-report.html").read_text()
    assert '<span class="mv">13/9</span> <span class="mv">13/8</span>' in html  # (each move kept whole)
