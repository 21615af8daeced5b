"""Every exception class of bgboard is one of two kinds (bgboard.errors): the person's input
was bad (:class:`InputError`, exit 2) or the machine around bgboard failed
(:class:`EnvironmentFailure`, exit 69) — never both, never neither.

The table below is the classification, one row per class: a new exception class fails
:func:`test_every_exception_class_is_in_the_table` until it is given a kind here.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import pytest

import bgboard
from bgboard.errors import EXIT_ENVIRONMENT, EXIT_INPUT, BgboardError, EnvironmentFailure, InputError

INPUT, ENVIRONMENT, SIGNAL = "input", "environment", "signal"

#: class name → its kind.  Input: what was given is wrong (an ID, a play, a config key, a
#: file, a frame or network message from a device or a peer).  Environment: what was given
#: is fine but the machine failed (missing, lost, busy).  Signal: not an error at all.
KINDS = {
    # the roots' own subclasses
    "RuleError": INPUT,
    # rules, match, sense, link, display: what a user, a file or a device gave
    "InvalidPositionError": INPUT, "InvalidIdError": INPUT, "InvalidDiceError": INPUT,
    "IllegalStepError": INPUT, "NotationError": INPUT, "IllegalPlayError": INPUT, "AmbiguousPlayError": INPUT,
    "UnknownVariantError": INPUT, "UnknownRuleSetError": INPUT,
    "MatchRecordError": INPUT, "RecordFileError": INPUT, "ClockSettingError": INPUT,
    "SensorFaultError": INPUT,  # a reading that cannot be a real board: bad data from the device
    "FrameError": INPUT, "MessageError": INPUT, "ProtocolError": INPUT, "_Refused": INPUT,
    "InvalidDisplayStateError": INPUT, "UnknownPanelError": INPUT, "UnknownDemoError": INPUT,
    "UnknownLanguageError": INPUT,
    # configuration and files
    "ConfigError": INPUT, "FileProblemError": INPUT, "HardwareError": INPUT, "DesignError": INPUT, "FitError": INPUT,
    "PinConfigError": INPUT, "JournalError": INPUT, "ClubDatabaseError": INPUT, "SeatsFileError": INPUT,
    # commands' arguments
    "OutputFileError": INPUT, "SimArgumentError": INPUT, "HintArgumentError": INPUT,
    "DeployError": INPUT, "StepTextError": INPUT, "SimulationError": INPUT,
    # hints: a question an engine does not answer, names that are not engines or levels
    "UnsupportedError": INPUT, "UnknownEngineError": INPUT, "UnknownLevelError": INPUT, "DrillError": INPUT,
    # club: forms, numbers, pairings the entries do not allow, refused web requests
    "PasswordRuleError": INPUT, "BadBoardError": INPUT, "NoPairing": INPUT, "Refused": INPUT, "BodyTooLarge": INPUT,
    "ListenAddressError": INPUT,
    # the machine: ports, programs, devices, engines, a busy database, a port in use
    "PortUnavailableError": ENVIRONMENT, "PortLostError": ENVIRONMENT,
    "BrokerMissingError": ENVIRONMENT, "BrokerStartError": ENVIRONMENT,
    "EngineUnavailableError": ENVIRONMENT, "MissingExtraError": ENVIRONMENT, "RemoteLoginError": ENVIRONMENT, "FirmwareUnavailableError": ENVIRONMENT,
    "ButtonsUnavailableError": ENVIRONMENT, "PanelError": ENVIRONMENT,
    "BoardUnreachableError": ENVIRONMENT, "ListenUnavailableError": ENVIRONMENT,
    "ClubDatabaseUnavailableError": ENVIRONMENT, "JournalWriteError": ENVIRONMENT,
    "PostgresMissingError": ENVIRONMENT, "PostgresStartError": ENVIRONMENT, "LedgerUnavailableError": ENVIRONMENT,
    "UnknownLanguageError": INPUT,
    # a hint that will not come because the board changed or its budget ran out: control
    # flow between the hint worker and its caller, which always catches it (never shown)
    "Cancelled": SIGNAL, "HintCancelled": SIGNAL,
}
ROOTS = {"BgboardError", "InputError", "EnvironmentFailure"}


def _exception_classes() -> dict[str, type[BaseException]]:
    found: dict[str, type[BaseException]] = {}
    for info in pkgutil.walk_packages(bgboard.__path__, "bgboard."):
        if info.name.endswith("__main__"):
            continue
        module = importlib.import_module(info.name)
        for value in vars(module).values():
            if (inspect.isclass(value) and issubclass(value, BaseException)
                    and value.__module__ == module.__name__):
                other = found.setdefault(value.__name__, value)
                assert other is value, f"two exception classes are called {value.__name__}"
    return found


CLASSES = _exception_classes()


def test_every_exception_class_is_in_the_table():
    assert set(CLASSES) - ROOTS == set(KINDS)


@pytest.mark.parametrize("name", sorted(KINDS))
def test_each_class_is_under_exactly_the_root_of_its_kind(name: str):
    cls = CLASSES[name]
    under = (issubclass(cls, InputError), issubclass(cls, EnvironmentFailure))
    assert under == {INPUT: (True, False), ENVIRONMENT: (False, True), SIGNAL: (False, False)}[KINDS[name]]
    assert issubclass(cls, BgboardError) == (KINDS[name] != SIGNAL)


def test_the_two_roots_are_apart_and_keep_their_builtin_kinds():
    assert not issubclass(InputError, EnvironmentFailure) and not issubclass(EnvironmentFailure, InputError)
    assert issubclass(InputError, ValueError) and not issubclass(EnvironmentFailure, ValueError)
    assert issubclass(EnvironmentFailure, RuntimeError)
    assert (EXIT_INPUT, EXIT_ENVIRONMENT) == (2, 69)


@pytest.mark.parametrize("failure, status", [
    (EnvironmentFailure("the gnubg-nn engine is not installed: pip install 'bgboard[hints]'"), 503),
    (InputError("there is no event 'Friday'"), 400),
])
def test_a_club_page_answers_the_environment_with_503_and_input_with_400(failure: BgboardError, status: int) -> None:
    from starlette.testclient import TestClient

    from bgboard.club.live_boards import LiveHub
    from bgboard.club.web.site import Site, create_app

    def club() -> None:
        raise failure

    with TestClient(create_app(Site(LiveHub(), club=club))) as client:
        response = client.get("/ratings")
    assert response.status_code == status
    assert str(failure).replace("'", "&#39;") in response.text and "Traceback" not in response.text


def test_the_cli_says_an_environment_failure_in_one_line_with_its_exit_code(capsys: pytest.CaptureFixture[str]) -> None:
    from bgboard.cli import main

    # a serial port that is not there: the board is unplugged (the machine, not the input)
    assert main(["firmware", "stop", "--port", "/dev/bgboard-unplugged"]) == EXIT_ENVIRONMENT
    err = capsys.readouterr().err
    assert err == "bgboard: there is no serial port /dev/bgboard-unplugged: is the board plugged in?\n", err
    assert "Traceback" not in err
    # and a port name with a space in it is the user's input
    assert main(["firmware", "deploy", "--port", "bad port", "--dry-run"]) == EXIT_INPUT
    assert capsys.readouterr().err.count("\n") == 1
