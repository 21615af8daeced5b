"""No input ends in a traceback: every command, hostile values, one test per class of input.

Each case runs the CLI in-process (``bgboard.cli.main``) and expects exit code 2 and ONE line
on stderr naming what to do; a few run as real processes (the ones about the process itself:
a missing hardware library, another user's permissions).  Classes:

* files named by the user: not UTF-8, endless (a device), a directory, missing;
* outputs: a full disk (/dev/full), a parent that is a file, a read-only directory, a
  directory where a file is wanted, two options naming one file;
* numbers out of range: match lengths beyond the documented maximum, negative or huge
  counts, NaN and infinity, zero and negative speeds;
* text: a 100,000-character argument (the message stays short), control characters
  (escaped), bytes that are not UTF-8;
* hardware that is not there: ``bgboard run`` without spidev, a journal directory under a file;
* the journal on a full disk mid-match (tests/control/test_journal_full.py);
* batches: bad lines, bytes that are not UTF-8, an endless line (here, and
  tests/rules/test_legal_cli.py, tests/hints/test_cli.py).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bgboard.cli import main
from bgboard.errors import EXIT_ENVIRONMENT

LONG = "Q" * 100_000
START = "4HPwATDgc/ABMA"


@pytest.fixture
def place(tmp_path: Path) -> Path:
    (tmp_path / "afile").write_text("x")
    (tmp_path / "latin1.toml").write_bytes("[match]\nplayers = [\"Jos\xe9\", \"Ana\"]\n".encode("latin-1"))
    (tmp_path / "latin1.json").write_bytes(b'{"names": ["Jos\xe9", "Ana"]}')
    (tmp_path / "adir").mkdir()
    return tmp_path


CASES = [
    # files named by the user
    ("config not UTF-8", ["run", "--check", "--config", "{p}/latin1.toml"], "latin1.toml is not UTF-8 text (byte 24): save it as UTF-8"),
    ("config endless", ["run", "--check", "--config", "/dev/zero"], "is larger than 1 MB: is it the right file?"),
    ("config a directory", ["run", "--check", "--config", "{p}/adir"], "the config file {p}/adir cannot be read (Is a directory)"),
    ("config missing", ["run", "--check", "--config", "{p}/none.toml"], "cannot be read (No such file or directory)"),
    ("config under a file", ["run", "--check", "--config", "{p}/afile/c.toml"], "cannot be read (Not a directory)"),
    ("state not UTF-8", ["render", "--state", "{p}/latin1.json", "--out", "{p}/x.png"], "save it as UTF-8"),
    ("state endless", ["render", "--state", "/dev/zero", "--out", "{p}/x.png"], "is larger than 1 MB"),
    ("firmware source missing", ["firmware", "deploy", "--dry-run", "--port", "/dev/ttyACM0", "--source", "{p}/none"],
     "there is no firmware directory at"),
    ("firmware source not firmware", ["firmware", "deploy", "--dry-run", "--port", "/dev/ttyACM0", "--source", "{p}/adir"],
     "does not hold the firmware"),
    # outputs
    ("record on a full disk", ["selfplay", "--match-length", "1", "--seed", "1", "--out", "/dev/full"],
     "cannot write the match record /dev/full: No space left on device"),
    ("sgf on a full disk", ["selfplay", "--match-length", "1", "--seed", "1", "--out", "{p}/m.mat", "--sgf", "/dev/full"],
     "No space left on device"),
    ("image on a full disk", ["render", "--demo", "hint", "--out", "/dev/full"], "cannot write /dev/full: No space left on device"),
    ("record under a file", ["selfplay", "--match-length", "1", "--seed", "1", "--out", "{p}/afile/m.mat"], "Not a directory"),
    ("image under a file", ["render", "--demo", "hint", "--out", "{p}/afile/x.png"], "cannot write {p}/afile/x.png: Not a directory"),
    ("sim out under a file", ["sim", "--model-firmware", "--match-length", "1", "--seed", "1", "--out", "{p}/afile/run"],
     "a part of the path is a file, not a directory"),
    ("sim out is a file", ["sim", "--model-firmware", "--match-length", "1", "--seed", "1", "--out", "{p}/afile"], "--out {p}/afile is a file, not a directory"),
    ("record is a directory", ["selfplay", "--match-length", "1", "--seed", "1", "--out", "{p}/adir"], "Is a directory"),
    ("out and sgf one file", ["selfplay", "--match-length", "1", "--seed", "1", "--out", "{p}/m.mat", "--sgf", "{p}/./m.mat"],
     "--out and --sgf name the same file"),
    # numbers
    ("selfplay too long", ["selfplay", "--match-length", "65", "--seed", "1", "--out", "{p}/m.mat"],
     "--match-length is at most 64 (gnubg's longest match), not 65"),
    ("selfplay negative", ["selfplay", "--match-length", "-1", "--seed", "1", "--out", "{p}/m.mat"], "1 point or more"),
    ("sim too long", ["sim", "--model-firmware", "--match-length", "100", "--seed", "1", "--out", "{p}/s"], "to 99, not 100"),
    ("sim NaN rate", ["sim", "--model-firmware", "--match-length", "1", "--seed", "1", "--illegal-rate", "nan", "--out", "{p}/s"],
     "--illegal-rate"),
    ("sim infinite rate", ["sim", "--model-firmware", "--match-length", "1", "--seed", "1", "--illegal-rate", "inf", "--out", "{p}/s"],
     "--illegal-rate"),
    ("sim zero speed", ["sim", "--match-length", "1", "--seed", "1", "--speed", "0", "--out", "{p}/s"], "--speed"),
    ("sim negative speed", ["sim", "--match-length", "1", "--seed", "1", "--speed", "-4", "--out", "{p}/s"], "--speed"),
    ("render scale", ["render", "--demo", "hint", "--scale", "100000", "--out", "{p}/x.png"], "--scale must be from 1 to 8"),
    ("hint top negative", ["hint", START, "31", "--engine", "pubeval", "--top", "-1"], "--top"),
    ("dice out of range", ["legal", START, "79"], "dice must be two numbers from 1 to 6"),
    ("not a number", ["selfplay", "--match-length", "x", "--seed", "1", "--out", "{p}/m.mat"], "invalid int value"),
    # text
    ("huge position", ["legal", LONG, "31"], "QQQ... (100002 characters)"),
    ("huge engine name", ["hint", START, "31", "--engine", LONG], "(100003 characters)"),
    ("huge play", ["hint", START, "31", "--engine", "pubeval", "--grade", LONG], "characters)"),
    ("huge match id", ["hint", "--cube", START, "--match-id", LONG, "--engine", "pubeval"], "characters)"),
    ("huge stuck sensor", ["sim", "--model-firmware", "--match-length", "1", "--seed", "1", "--stuck", LONG, "--out", "{p}/s"],
     "characters)"),
    ("control characters", ["legal", "4HP\x1b[2J\x07", "31"], "'4HP\\x1b[2J\\x07'"),
    ("not UTF-8 argument", ["legal", "4HP\udcff\udcfe", "31"], "4HP\\udcff\\udcfe"),
    ("bad port name", ["firmware", "deploy", "--dry-run", "--port", "-rf /"], "is not a serial port name"),
    # match analysis
    ("analyse endless", ["analyse", "/dev/zero"], "the match record /dev/zero is larger than 16 MB"),
    ("analyse not a match", ["analyse", "{p}/afile"], "not a .mat match record"),
    ("analyse no match in a folder", ["analyse", "{p}/adir"], "no .mat file found in the folders named"),
    ("analyse missing", ["analyse", "{p}/none.mat"], "there is no file or folder"),
    ("analyse huge engine name", ["analyse", "{p}/afile", "--engine", LONG], "characters)"),
    ("analyse ply", ["analyse", "{p}/afile", "--ply", "9"], "--ply must be 0, 1 or 2"),
]


@pytest.mark.parametrize("argv, words", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_hostile_input_is_one_line_and_exit_2(argv: list[str], words: str, place: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    argv = [a.replace("{p}", str(place)) for a in argv]
    try:
        code = main(argv)
    except SystemExit as exc:  # argparse's own errors (bad types) exit from the parser
        code = exc.code  # type: ignore[assignment]
    assert code == 2
    err = capsys.readouterr().err
    assert words.replace("{p}", str(place)) in err, err[:500]
    assert err.count("\n") == 1 and err.startswith("bgboard: "), err[:500]
    assert len(err) < 400, "a message stays short whatever the input"
    assert "Traceback" not in err


def _bgboard(*args: str, cwd: Path, prefix: tuple[str, ...] = ()) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*prefix, sys.executable, "-m", "bgboard", *args], cwd=cwd, capture_output=True,
                          text=True, timeout=120)


@pytest.mark.slow
def test_run_on_a_machine_without_spidev_says_what_to_install(tmp_path: Path) -> None:
    # the default config drives a Waveshare panel over spidev; this machine has neither
    config = tmp_path / "config.toml"
    config.write_text(f'[journal]\npath = "{tmp_path / "journal.db"}"\n[board]\nport = "{tmp_path / "tty"}"\n')
    done = _bgboard("run", "--config", str(config), cwd=tmp_path)
    assert done.returncode == EXIT_ENVIRONMENT, done.stderr  # the machine lacks a part: not the user's input
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith("bgboard: the waveshare-2in9 panel needs spidev, which is not installed: "
                           "pip install 'bgboard[pi]'"), done.stderr
    assert "frames_dir" in last and "Traceback" not in done.stderr


def test_run_with_a_journal_under_a_file_names_the_path(tmp_path: Path) -> None:
    (tmp_path / "afile").write_text("x")
    config = tmp_path / "config.toml"
    config.write_text(f'[journal]\npath = "{tmp_path / "afile" / "j.db"}"\n[display]\nframes_dir = "{tmp_path}/f"\n')
    done = _bgboard("run", "--config", str(config), cwd=tmp_path)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.strip().splitlines()[-1] == (
        f"bgboard: cannot use {tmp_path / 'afile'}: it is a file where a directory is needed: choose another path")


def test_a_read_only_output_directory(tmp_path: Path) -> None:
    # root writes anywhere (CAP_DAC_OVERRIDE): as root the command runs without that capability
    caps = "-dac_override,-dac_read_search"
    as_user = ("setpriv", f"--bounding-set={caps}", f"--inh-caps={caps}") if os.geteuid() == 0 else ()
    readonly = tmp_path / "readonly"
    readonly.mkdir()
    readonly.chmod(0o555)
    done = _bgboard("selfplay", "--match-length", "1", "--seed", "1", "--out", str(readonly / "m.mat"),
                    cwd=tmp_path, prefix=as_user)
    assert done.returncode == 2, done.stderr
    assert done.stderr == f"bgboard: cannot write the match record {readonly / 'm.mat'}: Permission denied\n"
    done = _bgboard("render", "--demo", "hint", "--out", str(readonly / "x.png"), cwd=tmp_path, prefix=as_user)
    assert done.returncode == 2 and done.stderr == f"bgboard: cannot write {readonly / 'x.png'}: Permission denied\n"


@pytest.mark.parametrize("command", ["legal", "hint"])
def test_a_batch_with_bytes_that_are_not_utf8_and_an_endless_line_goes_on(command: str, tmp_path: Path) -> None:
    lines = b"4HPwATDgc/ABMA 31\n\xff\xfe 31\n" + b"A" * 2_000_000 + b"\n4HPwATDgc/ABMA 42\n"
    extra = ["--engine", "pubeval"] if command == "hint" else []
    done = subprocess.run([sys.executable, "-m", "bgboard", command, "--batch", *extra], input=lines,
                          capture_output=True, timeout=120, cwd=tmp_path)
    assert done.returncode == 2
    out = done.stdout.decode().splitlines()
    assert len(out) == 4 and '"line": 2' in out[1] and '"line": 3' in out[2] and "1000 characters" in out[2]
    assert "plays" in out[3] and "error" not in out[3]
    err = done.stderr.decode()
    assert "Traceback" not in err and err.endswith("bgboard: 2 of 4 lines could not be answered (see above)\n")
