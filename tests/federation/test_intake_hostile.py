"""What a club (or whoever has its password) can send the federation: junk, oversized or deeply
nested payloads, a result naming another club — each dropped or refused with one sentence,
nothing stored, the service going on to store the next good result once."""

from __future__ import annotations

import asyncio
import json

from bgboard.federation.bridge_conf import SERVICE_USER, club_user
from bgboard.federation.home import Home, Settings
from bgboard.federation.intake import IntakeSettings, ResultsIntake
from bgboard.federation.ledger import Ledger
from bgboard.net.mosquitto import free_port
from bgboard.net.mqtt_client import open_client
from bgboard.net.protocol import parse_broker_url
from bgboard.net.results_feed import ClubResult, ack_topic, decode_ack, encode_result, result_topic

GOOD = ClubResult("0b6c5e4a-8c1e-4c31-9a4e-2f6f1d2d3e4f", "north", "Friday", 3, ("Ann", "Bob"), ("M1", "M2"), 5,
                  (5, 2), 0, True, 1, "2026-11-29T20:15:00+00:00", revision=1)


def test_junk_and_forgeries_are_dropped_and_the_good_result_stored_once(tmp_path, postgres_url):
    home = Home.create(tmp_path / "fed", Settings("F", postgres_url, free_port()))
    home.join("north")
    home.join("south")
    home.broker.start()
    url = parse_broker_url(home.broker.url)
    forged = json.loads(encode_result(GOOD))
    forged.update(club="south", id="1b6c5e4a-8c1e-4c31-9a4e-2f6f1d2d3e4f")

    async def evening() -> tuple[dict[str, int], list[str]]:
        intake = ResultsIntake(IntakeSettings(url, home.broker.password(SERVICE_USER)), lambda: Ledger(postgres_url))
        subscribed = asyncio.Event()
        intake.on_subscribed = subscribed.set
        running = asyncio.ensure_future(intake.run())
        answers: list[str] = []
        north = open_client(url, username=club_user("north"), password=home.broker.password(club_user("north")),
                            identifier="north")
        async with north:
            await asyncio.wait_for(subscribed.wait(), 20)
            await north.subscribe(ack_topic("north"), qos=1)
            for junk in (b"", b"{not json", b"[" * 5000, b"x" * 100_000, json.dumps(forged).encode()):
                await north.publish(result_topic("north"), junk, qos=1)
            for _ in range(3):  # the same result three times: stored once
                await north.publish(result_topic("north"), encode_result(GOOD), qos=1)

            async def read() -> None:
                async for m in north.messages:
                    answers.append(f"{decode_ack(bytes(m.payload)).id[:8]}:{decode_ack(bytes(m.payload)).status}")
                    if len(answers) == 4:
                        return

            await asyncio.wait_for(read(), 20)
        intake.stop()
        await running
        return intake.counts, answers

    try:
        counts, answers = asyncio.run(evening())
    finally:
        home.broker.stop()
    assert counts == {"stored": 1, "duplicate": 2, "refused": 1, "bad": 4}
    assert sorted(answers) == ["0b6c5e4a:duplicate", "0b6c5e4a:duplicate", "0b6c5e4a:stored", "1b6c5e4a:refused"]
    with Ledger(postgres_url) as ledger:
        assert [(r.club, r.id) for r in ledger.results()] == [("north", GOOD.id)]
