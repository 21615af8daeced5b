"""The ``bgboard`` command dispatches every subcommand and turns bad input into one line."""

import pytest

from bgboard.cli import COMMANDS, build_parser, main


def test_every_command_is_registered():
    parser = build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    assert sorted(sub.choices) == sorted(COMMANDS)


def test_unknown_command_is_one_line_exit_2(capsys):
    with pytest.raises(SystemExit) as info:
        main(["nonsense"])
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "invalid choice" in err and "Traceback" not in err
