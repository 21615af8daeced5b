"""The board's club link on a real Mosquitto: nothing waits on the network, results are kept
in the journal's outbox and re-sent until acked, state is coalesced, the will says offline."""

from __future__ import annotations

import asyncio
import inspect
import json
import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from bgboard.net.boardlink import ClubLink, LinkSettings
from bgboard.net.broker import DIRECTOR, board_user
from bgboard.net.mosquitto import PrivateBroker
from bgboard.net.protocol import Ack, Assignment, Game, Result, decode, encode, parse_broker_url
from bgboard.net.mqtt_client import open_client
from bgboard.store.journal import Journal
from tests.net.conftest import CLUB
from tests.support import until

U1 = "00000000-0000-4000-8000-00000000000a"
BASE = f"bgboard/{CLUB}/board"


def settings(broker: PrivateBroker, board: int = 1, **kw: Any) -> LinkSettings:
    return LinkSettings(
        parse_broker_url(broker.url), CLUB, board, board_user(board), broker.password(board_user(board)),
        resend_s=kw.pop("resend_s", 0.5), backoff_first_s=0.1, backoff_most_s=0.5, keepalive_s=kw.pop("keepalive_s", 5), **kw,
    )


def result(uid: str = U1, board: int = 1) -> Result:
    return Result(uid, board, "Friday", 5, ("Ann", "Bob"), 1, (1, 0), 0, (Game(0, 1, "single"),), "mat\n", 40, 1)


def director(broker: PrivateBroker):  # type: ignore[no-untyped-def]
    return open_client(parse_broker_url(broker.url), username=DIRECTOR, password=broker.password(DIRECTOR), identifier="test-director")


@pytest.mark.slow
def test_a_result_made_while_the_broker_is_down_is_kept_and_sent_until_acked(tmp_path: Path, broker: PrivateBroker) -> None:
    broker.kill()

    async def go() -> list[bytes]:
        journal = Journal(tmp_path / "board.sqlite")
        link = ClubLink(settings(broker), journal)
        task = asyncio.create_task(link.run())
        await until(lambda: bool(link.last_error))  # its first attempt failed
        assert not link.online and link.note()[0].startswith("club not reachable")
        # nothing waits on the network: submit_result is a plain function (it cannot await
        # a broker), and it returns True while the broker is down, the result already durable
        # in the outbox (a clock would prove nothing more and fail on a loaded machine)
        assert not inspect.iscoroutinefunction(ClubLink.submit_result)
        assert link.submit_result(result())
        assert [o.uuid for o in journal.outbox_pending()] == [U1]
        assert "1 result(s) kept" in link.note()[0]
        broker.start()
        got: list[bytes] = []
        async with director(broker) as d:
            await d.subscribe(f"{BASE}/+/result", qos=1)
            async with asyncio.timeout(10):
                async for m in d.messages:
                    got.append(m.payload)
                    if len(got) == 2:  # not acked the first time: it comes again
                        await d.publish(f"{BASE}/1/ack", encode(Ack(U1, "stored")), qos=1)
                        break
            await until(lambda: not journal.outbox_pending())
        assert link.online and link.note() == ()
        link.stop()
        await task
        journal.close()
        return got

    got = asyncio.run(go())
    assert [decode("result", p).uuid for p in got] == [U1, U1]


def test_the_outbox_outlives_a_reboot_and_a_refusal_is_shown(tmp_path: Path, broker: PrivateBroker) -> None:
    path = tmp_path / "board.sqlite"
    with Journal(path) as journal:  # the board put the result away, then lost power
        journal.outbox_put(U1, encode(result()).decode(), 1)

    async def go() -> ClubLink:
        journal = Journal(path)
        link = ClubLink(settings(broker), journal)
        async with director(broker) as d:
            await d.subscribe(f"{BASE}/+/result", qos=1)
            task = asyncio.create_task(link.run())
            async with asyncio.timeout(10):
                async for m in d.messages:
                    r = decode("result", m.payload)
                    await d.publish(f"{BASE}/1/ack", encode(Ack(r.uuid, "refused", "the score does not match the .mat")), qos=1)
                    break
            await until(lambda: not journal.outbox_pending())
        link.stop()
        await task
        journal.close()
        return link

    link = asyncio.run(go())
    assert link.note() == ("the director refused the result: the score does not match the .mat", "result refused")


@pytest.mark.slow
def test_states_are_coalesced_and_the_newest_is_retained(tmp_path: Path, broker: PrivateBroker) -> None:
    from bgboard.match import OpeningRoll, StartMatch, apply
    from bgboard.net.board_report import board_state

    s0 = apply(None, StartMatch(length=3, players=("Ann", "Bob")))

    async def go() -> tuple[int, Any]:
        journal = Journal(tmp_path / "b.sqlite")
        link = ClubLink(settings(broker, state_interval_s=0.2), journal)
        task = asyncio.create_task(link.run())
        await until(lambda: link.online)
        async with director(broker) as d:
            await d.subscribe(f"{BASE}/1/state", qos=1)
            loop = asyncio.get_running_loop()
            t0 = loop.time()
            for i in range(100):  # a burst of changes, far faster than the interval
                link.publish_state(board_state(s0, i))
                await asyncio.sleep(0.005)
            final = board_state(apply(s0, OpeningRoll((6, 1))), 100)
            link.publish_state(final)
            seen = []
            async with asyncio.timeout(60):
                async for m in d.messages:
                    seen.append(decode("state", m.payload))
                    if seen[-1] == final:
                        break
            took = loop.time() - t0
        async with director(broker) as late:  # a director connecting later gets the retained newest
            await late.subscribe(f"{BASE}/1/state", qos=1)
            async with asyncio.timeout(60):
                retained = decode("state", (await anext(aiter(late.messages))).payload)
        link.stop()
        await task
        journal.close()
        return len(seen), took, retained

    count, took, retained = asyncio.run(go())
    # at most one state per 0.2 s interval (and the first at once): on an idle machine the
    # 0.5 s burst goes out as a few states; a loaded one that stretches the burst may send
    # more, never more than the interval allows, and always far fewer than the 101 made
    assert count <= 2 + took / 0.2 and count < 101, (count, took)
    assert retained.dice == (6, 1) and retained.updated_ms == 100


def test_assignments_arrive_and_bad_messages_are_ignored(tmp_path: Path, broker: PrivateBroker, caplog: Any) -> None:
    a = Assignment("Friday", 7, 1, ("Ann", "Bob"), 5, "standard", 1)

    async def go() -> list[Assignment]:
        got: list[Assignment] = []
        journal = Journal(tmp_path / "b.sqlite")
        link = ClubLink(settings(broker), journal, on_assignment=got.append)
        task = asyncio.create_task(link.run())
        await until(lambda: link.online)
        async with director(broker) as d:
            await d.publish(f"{BASE}/1/assign", b"not json", qos=1)
            await d.publish(f"{BASE}/1/assign", encode(Assignment("Friday", 8, 2, ("A", "B"), 5)), qos=1)  # for board 2
            await d.publish(f"{BASE}/1/ack", b'{"v": 1, "type": "ack"}', qos=1)
            await d.publish(f"{BASE}/1/assign", encode(a), qos=1, retain=True)
        await until(lambda: bool(got))
        link.stop()
        await task
        journal.close()
        return got

    with caplog.at_level("WARNING", logger="bgboard.net.boardlink"):
        got = asyncio.run(go())
    assert got == [a]
    warnings = [r.getMessage() for r in caplog.records]
    assert any("is not JSON" in w for w in warnings)
    assert any("an assignment for board 2 arrived on board 1's topic" in w for w in warnings)
    assert any("'status' is missing" in w for w in warnings)


def test_the_last_will_says_offline_when_a_board_dies(tmp_path: Path, broker: PrivateBroker) -> None:
    script = textwrap.dedent(f"""
        import asyncio, sys
        from bgboard.net.boardlink import ClubLink, LinkSettings
        from bgboard.net.protocol import parse_broker_url
        from bgboard.store.journal import MemoryJournal
        s = LinkSettings(parse_broker_url({broker.url!r}), {CLUB!r}, 3, "board3", {broker.password(board_user(3))!r}, keepalive_s=1)
        link = ClubLink(s, MemoryJournal(), on_status=lambda up: print("up" if up else "down", flush=True))
        asyncio.run(link.run())
    """)

    async def go() -> list[bool]:
        seen: list[bool] = []
        async with director(broker) as d:
            await d.subscribe(f"{BASE}/3/online", qos=1)
            proc = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, env={**os.environ})
            try:
                async with asyncio.timeout(15):
                    async for m in d.messages:
                        seen.append(json.loads(m.payload)["online"])
                        if seen[-1]:
                            proc.send_signal(signal.SIGKILL)  # no goodbye: the broker publishes the will
                        else:
                            break
            finally:
                proc.kill()
                proc.wait()
                assert proc.stdout is not None
                proc.stdout.close()
        return seen

    assert asyncio.run(go()) == [True, False]


@pytest.mark.slow
def test_a_finished_match_sends_its_last_state_then_its_result_at_once(tmp_path: Path, broker: PrivateBroker) -> None:
    """The last state of a match, held by the states' pause (600 s here), goes out with the
    result, before it: the room's last word on the board is the final score even when the
    board leaves as soon as the result is acked."""
    from bgboard.match import OpeningRoll, StartMatch, apply
    from bgboard.net.board_report import board_state

    s0 = apply(None, StartMatch(length=1, players=("Ann", "Bob")))
    first, last = board_state(s0, 1), board_state(apply(s0, OpeningRoll((6, 1))), 2)

    async def go() -> list[str]:
        journal = Journal(tmp_path / "b.sqlite")
        link = ClubLink(settings(broker, resend_s=600.0, state_interval_s=600.0), journal)
        task = asyncio.create_task(link.run())
        await until(lambda: link.online)
        seen: list[str] = []
        async with director(broker) as d:
            await d.subscribe([(f"{BASE}/1/state", 1), (f"{BASE}/1/result", 1)])
            link.publish_state(first)
            async with asyncio.timeout(120):  # against a hang; 600 s is the pause and the resend
                async for m in d.messages:
                    if str(m.topic).endswith("/state") and decode("state", m.payload) == first:
                        break
                link.publish_state(last)  # held by the pause after the first state
                link.submit_result(result())
                async for m in d.messages:
                    kind = str(m.topic).rsplit("/", 1)[1]
                    seen.append("last state" if kind == "state" and decode("state", m.payload) == last else kind)
                    if kind == "result":
                        break
        link.stop()
        await task
        journal.close()
        return seen

    assert asyncio.run(go()) == ["last state", "result"]


@pytest.mark.slow
def test_a_result_goes_at_once_even_right_after_a_state(tmp_path: Path, broker: PrivateBroker) -> None:
    """A result submitted while the link is coalescing states is sent at once, not after the
    states' pause nor at the next resend (600 s each here: far beyond the wait below, however
    loaded the machine)."""
    from bgboard.match import StartMatch, apply
    from bgboard.net.board_report import board_state

    s0 = apply(None, StartMatch(length=1, players=("Ann", "Bob")))

    async def go() -> float:
        journal = Journal(tmp_path / "b.sqlite")
        link = ClubLink(settings(broker, resend_s=600.0, state_interval_s=600.0), journal)
        task = asyncio.create_task(link.run())
        await until(lambda: link.online)
        async with director(broker) as d:
            await d.subscribe(f"{BASE}/1/result", qos=1)
            await asyncio.sleep(0.5)  # the first resend round (empty) is behind us
            loop = asyncio.get_running_loop()
            link.publish_state(board_state(s0, 1))
            await asyncio.sleep(0.05)  # the link is now inside its coalescing pause
            t0 = loop.time()
            link.submit_result(result())
            async with asyncio.timeout(120):   # against a hang; 600 s is the next resend
                await anext(aiter(d.messages))
            took = loop.time() - t0
        link.stop()
        await task
        journal.close()
        return took

    assert asyncio.run(go()) < 120   # so it was neither the resend nor the end of the pause
