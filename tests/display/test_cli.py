"""``bgboard render`` end to end: files written, exit codes, one-line errors."""

from __future__ import annotations

import subprocess
import sys

import pytest
from PIL import Image

from bgboard.cli import main
from bgboard.display.demos import DEMOS
from bgboard.display.panels import PANELS
from bgboard.display.renderer import render


def test_demo_to_png_matches_the_renderer(tmp_path, capsys):
    out = tmp_path / "a.png"
    assert main(["render", "--demo", "crawford", "--panel", "waveshare-2in9",
                 "--out", str(out)]) == 0
    with Image.open(out) as im:
        assert im.tobytes() == render(DEMOS["crawford"], PANELS["waveshare-2in9"]).tobytes()


def test_state_file_and_scale(tmp_path):
    state = tmp_path / "s.json"
    state.write_text(DEMOS["clock-low"].to_json())
    out = tmp_path / "b.png"
    assert main(["render", "--state", str(state), "--panel", "inky-what", "--out", str(out),
                 "--scale", "2"]) == 0
    with Image.open(out) as im:
        assert im.size == (800, 600) and im.mode == "P"


@pytest.mark.parametrize("args,words", [
    (["--demo", "nope"], "unknown demo 'nope': choose one of opening, cube-offered"),
    (["--demo", "hint", "--panel", "kindle"], "unknown panel 'kindle': choose one of"),
    (["--state", "{missing}.json"], "missing}.json cannot be read (No such file or directory)"),
    (["--demo", "hint", "--scale", "0"], "--scale must be from 1 to 8"),
    ([], "give --demo NAME or --state FILE.json"),
])
def test_bad_input_exits_2_with_one_line(args, words, tmp_path, capsys):
    argv = ["render", *args]
    if "--out" not in argv and args:
        argv += ["--out", str(tmp_path / "x.png")]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert words in err and err.count("\n") == 1
    assert not (tmp_path / "x.png").exists()


def test_bad_json_file_exits_2(tmp_path, capsys):
    state = tmp_path / "bad.json"
    state.write_text('{"score": [1, 2, 3]}')
    assert main(["render", "--state", str(state), "--out", str(tmp_path / "x.png")]) == 2
    assert capsys.readouterr().err == "bgboard: score must be a list of 2 whole numbers\n"


def test_console_script_runs(tmp_path):
    out = tmp_path / "c.png"
    proc = subprocess.run(
        [sys.executable, "-m", "bgboard", "render", "--demo", "nope", "--out", str(out)],
        capture_output=True, text=True,
    )
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert "setup" in proc.stderr
