"""Shared test configuration.

Tests that need gnubg, gnubg-nn or bgsage skip (saying why) only where those wheels cannot
be imported, i.e. off x86-64 Linux. In CI (``CI=true``) on x86-64 Linux every one of them
installs, so there a skipped test means a broken install and fails the run.
"""

from __future__ import annotations

import os
import platform
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

# Hypothesis's two wall-clock checks would make a property test fail on a loaded machine
# (CI, or this one shared by several runs): its per-example deadline (200 ms by default)
# and its "data generation is too slow" health check. Neither is a property of the code;
# speed is measured in benchmarks/. Every test's own @settings inherits this profile.
settings.register_profile("bgboard", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("bgboard")


def _on_tmpfs(path: str) -> bool:
    try:
        with open("/proc/mounts") as mounts:
            return any(line.split()[1:3] == [path, "tmpfs"] for line in mounts) and os.access(path, os.W_OK)
    except OSError:
        return False


def pytest_configure(config: pytest.Config) -> None:
    # Temporary directories (tmp_path, tmp_path_factory, shared_run) in memory where Linux has
    # /dev/shm: the journals, club databases and match files the tests write are fsynced after
    # every action, and on this machine's disk those waits were most of many tests' time (a
    # property test of 100 club databases: 21 s on disk, 4 s in memory, the same CPU).  What the
    # tests prove does not change: a kill -9 loses no page-cache data, in memory or on disk, and
    # power loss is not what they test.  --basetemp or PYTEST_DEBUG_TEMPROOT still choose.
    # xdist's workers inherit the variable; the controller makes their directories.
    if config.option.basetemp is None and "PYTEST_DEBUG_TEMPROOT" not in os.environ and _on_tmpfs("/dev/shm"):
        os.environ["PYTEST_DEBUG_TEMPROOT"] = "/dev/shm"
    # A machine that sets PYTHONDONTWRITEBYTECODE (this one does) makes every process the suite
    # starts - the xdist workers, each `bgboard` and engine process - compile bgboard's modules
    # and pytest rewrite the test modules again from source (0.1 s of CPU per `bgboard` process,
    # 3 s per worker).  The tests' processes keep their bytecode in a cache outside the checkout
    # instead (PYTHONPYCACHEPREFIX, keyed by each source's full path and checked against its
    # time stamp as always), so the source tree stays as clean as the variable keeps it.
    if os.environ.get("PYTHONDONTWRITEBYTECODE") and "PYTHONPYCACHEPREFIX" not in os.environ:
        os.environ["PYTHONPYCACHEPREFIX"] = os.path.join(tempfile.gettempdir(), f"bgboard-tests-pycache-{os.getuid()}")
        del os.environ["PYTHONDONTWRITEBYTECODE"]


@pytest.hookimpl(tryfirst=True)
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    """``-n auto`` (pyproject's addopts): two workers more than the cores.  A large part of the
    suite's wall time is waiting, not computing - real-time runs before a kill -9, the busy and
    pipe timeouts the hostile-input tests wait out, brokers, browsers and ``bgboard`` processes
    starting - and a core left idle by a waiting worker is taken by an extra one: on the 2-core machine
    the whole suite took 446 s with three workers and 393 s with four, the cores 94 % busy
    (docs/performance.md, "test suite").  Tests never depend on the machine's speed, so sharing
    two cores among four workers only changes when they finish.  PYTEST_XDIST_AUTO_NUM_WORKERS still decides when set; ``-n N`` as given."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS") or config.option.numprocesses != "auto":
        return None  # pytest-xdist's own answer
    return len(os.sched_getaffinity(0)) + 2


def _skips_forbidden() -> bool:
    return (
        os.environ.get("CI", "").lower() == "true"
        and sys.platform == "linux"
        and platform.machine() == "x86_64"
    )


#: Tests (node-id prefixes) that take longest, longest first: whole matches on the firmware,
#: kill -9 campaigns, pyright.  They start first so that, with the suite spread over the
#: cores by pytest-xdist (pyproject's addopts: one test at a time to the next free worker, in
#: this order), no worker is left running one of them alone at the end; the rest keep their
#: order.  A test that makes a set-up others read (tests.support.shared_run) comes well before
#: its readers, so that no worker waits for another's set-up.  ``python
#: benchmarks/quick_tests.py --full`` lists the slowest tests when this list needs a look.
FIRST = (
    "tests/hardware/test_kicad.py::test_build_exits_0_with_every_board",  # makes the KiCad build
    "tests/sim/test_variant_sim.py::test_a_tavli_match",
    "tests/sim/test_firmware.py::test_end_to_end_through_the_firmware",  # makes `whole`
    "tests/sim/test_variant_sim.py::test_a_match_of_every_variant_on_the_firmware[plakoto]",  # makes plakoto's
    "tests/sim/test_variant_sim.py::test_a_match_of_every_variant_on_the_firmware[race]",  # makes race's
    "tests/store/test_crash.py",
    "tests/net/test_club_kills.py",
    "tests/sim/test_variant_sim.py::test_kill_9",
    "tests/test_types.py",
    "tests/sim/test_teach.py::test_every_play_is_graded",  # makes `taught`
    "tests/sim/test_run.py::test_kill_9_at_any_moment",
    "tests/sim/test_variant_sim.py",
    "tests/sim/test_firmware.py",
    "tests/sim/test_teach.py",
    "tests/sim/test_run.py",
    # the next longest (2026-11-26, --durations of two full runs), so that none of them is left
    # for the end: whole matches against the engine, the firmware's self-test, the analysis
    # oracles, the tests that wait out a 10 s timeout, the club's evenings, the wheel's install
    "tests/control/test_opponent.py::test_a_whole_match_against_every_level",
    "tests/sim/test_opponent_firmware.py",
    "tests/firmware/test_selftest.py::test_every_slot_reads_empty_then_its_checker",
    "tests/firmware/test_selftest.py::test_two_crossed_sensor_wires_are_named",
    "tests/analysis/test_agreement.py",
    "tests/analysis/test_board.py::test_bgboard_sim_with_a_hint_engine_ends_on_the_analysis",
    "tests/firmware/test_build.py::test_firmware_type_checks_against_the_rp2_stubs",
    "tests/sim/test_learner_history.py",
    "tests/club/test_club_hostile.py::test_case7_a_named_pipe_nobody_writes_to_is_refused_in_time",
    "tests/club/test_club_hostile.py::test_case2_",
    "tests/club/test_club_hostile.py::test_case11_a_locked_database_names_who_holds_it",
    "tests/club/test_club_hostile.py::test_case13_a_refused_demo",
    "tests/club/test_club_hostile.py::test_case5_parallel_guesses",
    "tests/net/test_club_hostile.py",
    "tests/club/test_backup_serve.py",
    "tests/analysis/test_command.py",
    "tests/club/test_club_evening.py",
    "tests/net/test_club_evening.py",
    "tests/club/test_room_mqtt_browser.py",
    "tests/match/test_gnubg_property.py",
    "tests/test_wheel.py",
    "tests/net/test_demo.py",
    "tests/analysis/test_club_export.py",
    "tests/club/test_board_svg.py::test_any_board_draws_a_well_formed_picture",
    "tests/control/test_opponent.py",
    "tests/control/test_condone.py",
    "tests/display/test_match_states.py",
    "tests/rules/test_differential.py",
    "tests/hardware/test_kicad.py",  # the build's readers, long after it started
)


def _slow_ids() -> frozenset[str]:
    """tests/data/slow_tests.txt: the node ids the quick run leaves to the full run."""
    text = (Path(__file__).parent / "data" / "slow_tests.txt").read_text()
    return frozenset(line.split(" ", 1)[1] for line in text.splitlines() if line and not line.startswith("#"))


SLOW_IDS = _slow_ids()


def pytest_itemcollected(item: pytest.Item) -> None:
    """Marks slow each test tests/data/slow_tests.txt names (before ``-m`` selects)."""
    if item.nodeid in SLOW_IDS:
        item.add_marker(pytest.mark.slow)


@pytest.hookimpl(trylast=True)  # after pytest's own grouping by fixture scope
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    def rank(item: pytest.Item) -> int:
        return next((i for i, prefix in enumerate(FIRST) if item.nodeid.startswith(prefix)), len(FIRST))

    items.sort(key=rank)  # stable: the same order on every xdist worker


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    if not _skips_forbidden() or hasattr(session.config, "workerinput"):
        return  # an xdist worker: the controller sees every worker's skips
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    skipped = reporter.stats.get("skipped", []) if reporter else []
    if skipped:
        reasons = sorted({str(getattr(r, "longrepr", ""))[-160:] for r in skipped})
        print(f"\n{len(skipped)} test(s) skipped in CI on x86-64 Linux, where nothing may skip:")
        for reason in reasons:
            print(f"  {reason}")
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_unconfigure(config: pytest.Config) -> None:
    webrun = sys.modules.get("tests.club.webrun")
    if webrun is not None:
        webrun.close_chromium()  # the test process's one Chromium


@pytest.fixture(scope="session")
def private_postgres():
    """One private PostgreSQL server per test process (bgboard/store/private_postgres.py): a
    real server on a Unix socket in a temporary folder, started once (≈ 0.6 s) and stopped at
    the end.  Not durable (``fsync=off``): no test cuts the power, a killed server keeps every
    commit all the same, and nothing waits for the disk (the stop's checkpoint took 10-16 s
    under load with fsync on).  Missing server programs fail the test that asks
    (tools/test-services installs them), never skip it."""
    from bgboard.store.private_postgres import PrivatePostgres

    with PrivatePostgres(durable=False) as server:
        yield server


@pytest.fixture
def postgres_url(private_postgres, request: pytest.FixtureRequest) -> str:
    """The address of a new, empty database on the test process's private server."""
    import itertools
    import re

    import psycopg

    counter = getattr(private_postgres, "_test_databases", None)
    if counter is None:
        counter = itertools.count(1)
        private_postgres._test_databases = counter
    name = re.sub(r"[^a-z0-9_]", "_", request.node.name.lower())[:40]
    # SQL on the server's socket rather than its createdb program (PrivatePostgres.create_database):
    # the same empty copy of template1 without a process started as the server's account (0.25 s
    # against 0.1 s a database under load)
    database = f"t{next(counter)}_{name}"
    with psycopg.connect(private_postgres.url(), autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {database}")
    return private_postgres.url(database)
