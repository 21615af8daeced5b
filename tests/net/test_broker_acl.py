"""Security where boards meet: the club broker's passwords and ACL, on a real Mosquitto."""

from __future__ import annotations

import asyncio

import pytest

from bgboard.net.broker import DIRECTOR, board_user
from bgboard.net.mosquitto import PrivateBroker
from bgboard.net.protocol import parse_broker_url
from bgboard.net.mqtt_client import MqttError, open_client
from tests.net.conftest import CLUB


def client(broker: PrivateBroker, user: str, password: str | None = None):  # type: ignore[no-untyped-def]
    return open_client(
        parse_broker_url(broker.url), username=user, password=password if password is not None else broker.password(user),
        identifier=f"test-{user}",
    )


def test_a_board_with_the_wrong_password_is_refused(broker: PrivateBroker) -> None:
    async def go() -> None:
        with pytest.raises(MqttError):
            async with client(broker, board_user(1), "not-the-password"):
                pass
        with pytest.raises(MqttError):
            async with client(broker, board_user(1), broker.password(board_user(2))):  # another board's password
                pass
        with pytest.raises(MqttError):  # no anonymous clients
            async with open_client(parse_broker_url(broker.url), username="", password="", identifier="anon"):
                pass
        async with client(broker, board_user(1)):  # the right one is let in
            pass

    asyncio.run(go())


def test_a_board_cannot_publish_for_another_board_nor_assign(broker: PrivateBroker) -> None:
    """Board 1 writes forged messages on board 2's topics and an assignment; the director (and
    board 2) receive only board 1's own, legitimate message, which is sent last."""
    base = f"bgboard/{CLUB}/board"

    async def go() -> list[tuple[str, bytes]]:
        seen: list[tuple[str, bytes]] = []
        async with client(broker, DIRECTOR) as director, client(broker, board_user(2)) as board2:
            await director.subscribe([(f"{base}/+/state", 1), (f"{base}/+/result", 1), (f"{base}/+/online", 1)])
            await board2.subscribe([(f"{base}/2/assign", 1), (f"{base}/2/ack", 1)])
            async with client(broker, board_user(1)) as board1:
                await board1.publish(f"{base}/2/state", b"forged state", qos=1)
                await board1.publish(f"{base}/2/result", b"forged result", qos=1)
                await board1.publish(f"{base}/2/assign", b"forged assignment", qos=1, retain=True)
                await board1.publish(f"{base}/2/ack", b"forged ack", qos=1)
                await board1.publish(f"{base}/1/result", b"board 1's own", qos=1)
            async with asyncio.timeout(60):
                async for m in director.messages:
                    seen.append((str(m.topic), m.payload))
                    if m.payload == b"board 1's own":
                        break
            # the director's own message to board 2, sent after every forgery had its answer from
            # the broker: board 2 reads up to it (a forgery let through would come before it)
            await director.publish(f"{base}/2/ack", b"the director's own", qos=1)
            async with asyncio.timeout(60):
                async for m in board2.messages:
                    seen.append((str(m.topic), m.payload))
                    if m.payload == b"the director's own":
                        break
        return seen

    seen = asyncio.run(go())
    assert seen == [(f"{base}/1/result", b"board 1's own"), (f"{base}/2/ack", b"the director's own")]


@pytest.mark.slow
def test_a_board_cannot_read_another_boards_assignment(broker: PrivateBroker) -> None:
    base = f"bgboard/{CLUB}/board"

    async def go() -> list[str]:
        async with client(broker, DIRECTOR) as director:
            await director.publish(f"{base}/2/assign", b"for board 2", qos=1, retain=True)
            await director.publish(f"{base}/1/assign", b"for board 1", qos=1, retain=True)
        got = []
        async with client(broker, board_user(1)) as board1, client(broker, DIRECTOR) as director:
            await board1.subscribe(f"{base}/+/assign", qos=1)
            # the retained assignments it may read were queued for it when it subscribed; the
            # director's next message comes after them: board 1 reads up to that one
            await director.publish(f"{base}/1/assign", b"the director's next", qos=1)
            async with asyncio.timeout(60):
                async for m in board1.messages:
                    got.append(m.payload.decode())
                    if got[-1] == "the director's next":
                        break
        return got

    assert asyncio.run(go()) == ["for board 1", "the director's next"]
