"""The club network: the MQTT protocol between boards and the director (pure), the broker's
configuration and a private Mosquitto, a board's club link and seat, and the MQTT session
(the one adapter that imports aiomqtt).

The config and the core import ``net.protocol`` alone, so the public names are imported on
first use (:mod:`bgboard.exports`): importing the package does not load the MQTT library.
docs/club-protocol.md describes the wire."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bgboard.exports import exports

if TYPE_CHECKING:
    from bgboard.net.boardlink import ClubLink, LinkSettings
    from bgboard.net.broker import DIRECTOR, Listener, acl_text, board_user, mosquitto_conf
    from bgboard.net.mosquitto import (
        BrokerMissingError,
        PrivateBroker,
        free_port,
        mosquitto_binary,
        write_password_file,
    )
    from bgboard.net.protocol import (
        MAX_BOARD,
        Ack,
        Assignment,
        BoardState,
        BrokerUrl,
        ClockSettings,
        Game,
        Online,
        ProtocolError,
        Result,
        board_filter,
        check_club,
        clear_assignment,
        decode,
        encode,
        parse_broker_url,
        parse_topic,
        topic,
    )
    from bgboard.net.board_report import board_state, mat_info, result_of
    from bgboard.net.seat import CLUB_KIND, ClubSeat, assignment_from, club_match_of
    from bgboard.net.mqtt_client import Backoff, MqttError, open_client

#: Each submodule and the public names it defines (imported when a name is first used).
__getattr__ = exports(__name__, {
    "boardlink": "ClubLink LinkSettings",
    "broker": "DIRECTOR Listener acl_text board_user mosquitto_conf",
    "mosquitto": "BrokerMissingError PrivateBroker free_port mosquitto_binary write_password_file",
    "protocol": (
        "MAX_BOARD Ack Assignment BoardState BrokerUrl ClockSettings Game Online "
        "ProtocolError Result board_filter check_club clear_assignment decode encode "
        "parse_broker_url parse_topic topic"
    ),
    "board_report": "board_state mat_info result_of",
    "seat": "CLUB_KIND ClubSeat assignment_from club_match_of",
    "mqtt_client": "Backoff MqttError open_client",
})

__all__ = [
    "CLUB_KIND", "DIRECTOR", "MAX_BOARD", "Ack", "Assignment", "Backoff", "BoardState",
    "BrokerMissingError", "BrokerUrl", "ClockSettings", "ClubLink", "ClubSeat", "Game",
    "LinkSettings", "Listener", "MqttError", "Online", "PrivateBroker", "ProtocolError", "Result",
    "acl_text", "assignment_from", "board_filter", "board_state", "board_user", "check_club",
    "clear_assignment", "club_match_of", "decode", "encode", "free_port", "mat_info",
    "mosquitto_binary", "mosquitto_conf", "open_client", "parse_broker_url", "parse_topic",
    "result_of", "topic", "write_password_file",
]
