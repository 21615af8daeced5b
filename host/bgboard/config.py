"""The host's configuration file (``bgboard run --config config.toml``).

Every key, its default and a short comment are kept once, in the dataclasses below;
:data:`DEFAULT_TOML` is written from them (:func:`default_toml`) and docs/config.md's tables
are checked against them (tests/test_config.py).  :func:`load_config` reads a TOML file and checks every value;
anything wrong — an unknown table or key, a wrong type, a value out of range — raises
:class:`ConfigError` with one sentence naming the key (the CLI prints it and exits 2).
"""

from __future__ import annotations

import json
import tomllib
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any, Mapping

from bgboard.errors import InputError

def _key(default: Any, comment: str = "", *, texts: bool = False) -> Any:
    """A config key's default and the comment :func:`default_toml` writes beside it;
    ``texts``: the key takes a text or a list of texts."""
    return field(default=default, metadata={"comment": comment, "texts": texts})


class ConfigError(InputError):
    """A configuration file or value that cannot be used (one sentence naming the key)."""


@dataclass(frozen=True, slots=True)
class BoardConfig:
    port: str = _key("/dev/bgboard", "the Pico's serial port (deploy/99-bgboard.rules makes this link)")
    baudrate: int = _key(115200)
    grid: str = _key("", 'sensor grid file; "" = hardware/grid.toml shipped with bgboard')
    settle_ms: int = _key(300, 'act on a board reading once it has been stable this long')


@dataclass(frozen=True, slots=True)
class ButtonsConfig:
    enabled: bool = _key(True)
    pin_factory: str = _key("", 'gpiozero pin back end: "" = gpiozero\'s choice, "mock" = none')
    bounce_ms: int = _key(30, "the pins are hardware/pins.toml's ($BGBOARD_HARDWARE for another copy)")


@dataclass(frozen=True, slots=True)
class DisplayConfig:
    panel: str = _key("waveshare-2in9", 'a panel name (bgboard render --help lists them)')
    frames_dir: str = _key("", 'write PNG frames here instead of driving a panel')
    language: str = _key("", 'en, nl, de, nb, da (el: the tavli names only); "" = the LANG/LC_MESSAGES locale, else English')


@dataclass(frozen=True, slots=True)
class MatchConfig:
    length: int = _key(5, 'points; 0 = money play')
    rules: str = _key("standard", 'rule set (docs/match.md)')
    players: tuple[str, str] = _key(("White", "Black"))
    variant: str = _key("standard", 'standard, nackgammon, hypergammon1..3, plakoto, fevga, anti, race, tavli (Portes, Plakoto, Fevga in rotation)')
    takebacks: bool = _key(False, 'allow taking a finished play back before the opponent rolls')
    condone: bool = _key(False, 'true: the opponent may accept an illegal play (roll button); false: it must be corrected')
    numbering: str = _key("own", 'point numbers in messages: "own" (each player\'s own, as notation) or "physical" (white\'s)')
    jacoby: bool = _key(False, 'money play (length 0, rules "money"): gammons count single while the cube is centred')
    beavers: bool = _key(False, 'money play: a doubled player may beaver (roll button)')
    opponent: str = _key("person", '"person" (two people at the board) or "engine" (the engine plays one side: [opponent])')

    @property
    def illegal(self) -> str:
        """The controller's ``Settings.illegal`` and the rule set's ``illegal_plays``."""
        return "condone" if self.condone else "correct"


@dataclass(frozen=True, slots=True)
class ClockConfig:
    enabled: bool = _key(False)
    per_point_s: float = _key(120.0, 'reserve per match point')
    scored_s: float = _key(60.0, 'less this per point already scored')
    delay_s: float = _key(12.0, 'simple delay per move')
    overtime_s: float = _key(0.0, 'once per player when the reserve runs out; 0 = time-out loses')


@dataclass(frozen=True, slots=True)
class HintsConfig:
    engine: str = _key("none", 'none, auto, bgsage, gnubg-nn, pubeval')


@dataclass(frozen=True, slots=True)
class OpponentConfig:
    engine: str = _key("gnubg-nn", '[match] opponent = "engine": pubeval, gnubg-nn or bgsage')
    level: str = _key("", 'the engine\'s level (docs/opponent.md); "" = its full strength')
    side: str = _key("black", 'the side the engine plays: "white" or "black"')
    dice: str = _key("module", '"module": the engine rolls the dice module itself; "person": the person presses it')


@dataclass(frozen=True, slots=True)
class TeachConfig:
    mode: str = _key("off", 'off, learner (no hint unless asked; every play graded), practice (drills)')
    drills: str | tuple[str, ...] = _key(
        "all", 'practice: "all", "mine", or a list of kinds, drill names, Position IDs ("ID:31")', texts=True)
    learner: str = _key("both", 'whose learner report: "white", "black" or "both" (one section each)')


@dataclass(frozen=True, slots=True)
class JournalConfig:
    path: str = _key("/var/lib/bgboard/journal.db")


@dataclass(frozen=True, slots=True)
class ClubConfig:
    broker: str = _key("", 'the club\'s MQTT broker, e.g. "mqtt://director.local:1883"; "" = not networked')
    club: str = _key("club", "the club's topic name (docs/club-protocol.md)")
    board: int = _key(1, "this board's number")
    username: str = _key("", 'the broker user of this board ("" = "board" + number)')
    password_file: str = _key("", "a file holding this board's broker password")
    ca_file: str = _key("", 'TLS (mqtts://): the club\'s CA certificate; "" = the system\'s')

    @property
    def enabled(self) -> bool:
        """The board reports to a club director."""
        return bool(self.broker.strip())

    @property
    def user(self) -> str:
        """The broker user name (``board<n>`` unless set)."""
        return self.username or f"board{self.board}"


@dataclass(frozen=True, slots=True)
class RemoteConfig:
    broker: str = _key("", 'play a person at another board through this MQTT broker, e.g. "mqtt://club.example:1883"; "" = not')
    match: str = _key("", "the match both boards join (1-32 lower-case letters, digits, '-', '_')")
    side: str = _key("white", 'the side this board\'s person plays: "white" or "black"')
    invitation: str = _key("", 'instead of match and side: the code the other player gave, "MATCH:white" or "MATCH:black"')
    username: str = _key("", "this board's broker user")
    password_file: str = _key("", "a file holding this board's broker password")
    ca_file: str = _key("", 'TLS (mqtts://): the broker\'s CA certificate; "" = the system\'s')

    @property
    def enabled(self) -> bool:
        """The board plays a person at another board."""
        return bool(self.broker.strip())


@dataclass(frozen=True, slots=True)
class Config:
    """The whole configuration (see docs/config.md)."""

    board: BoardConfig = field(default_factory=BoardConfig)
    buttons: ButtonsConfig = field(default_factory=ButtonsConfig)
    display: DisplayConfig = field(default_factory=DisplayConfig)
    match: MatchConfig = field(default_factory=MatchConfig)
    clock: ClockConfig = field(default_factory=ClockConfig)
    hints: HintsConfig = field(default_factory=HintsConfig)
    opponent: OpponentConfig = field(default_factory=OpponentConfig)
    teach: TeachConfig = field(default_factory=TeachConfig)
    journal: JournalConfig = field(default_factory=JournalConfig)
    club: ClubConfig = field(default_factory=ClubConfig)
    remote: RemoteConfig = field(default_factory=RemoteConfig)


SECTIONS: dict[str, Any] = {
    "board": BoardConfig,
    "buttons": ButtonsConfig,
    "display": DisplayConfig,
    "match": MatchConfig,
    "clock": ClockConfig,
    "hints": HintsConfig,
    "opponent": OpponentConfig,
    "teach": TeachConfig,
    "journal": JournalConfig,
    "club": ClubConfig,
    "remote": RemoteConfig,
}
#: The first line of the default file.
HEADER = "# bgboard host configuration (every key is optional; these are the defaults)."


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, str):
        return json.dumps(value)
    return "[" + ", ".join(_toml_value(v) for v in value) + "]"


def default_toml() -> str:
    """The default config file, written from the dataclasses' defaults and comments (the one
    place they are kept; docs/config.md's tables are checked against them)."""
    lines = [HEADER]
    for name, cls in SECTIONS.items():
        lines += ["", f"[{name}]"]
        for f in fields(cls):
            text = f"{f.name} = {_toml_value(f.default)}"
            comment = f.metadata.get("comment", "")
            lines.append(f"{text:<30} # {comment}" if comment else text)
    return "\n".join(lines) + "\n"


HINT_ENGINES = ("none", "auto", "bgsage", "gnubg-nn", "pubeval")
TEACH_MODES = ("off", "learner", "practice")
LEARNERS = {"white": (0,), "black": (1,), "both": (0, 1)}
NUMBERINGS = ("own", "physical")
PIN_FACTORIES = ("", "mock", "lgpio", "rpigpio", "pigpio", "native")


def _typed(key: str, value: Any, default: Any) -> Any:
    """``value`` checked against the type of ``default``."""
    if isinstance(default, bool):
        if not isinstance(value, bool):
            raise ConfigError(f"{key} must be true or false, not {value!r}")
        return value
    if isinstance(default, int):
        if not isinstance(value, int) or isinstance(value, bool):
            raise ConfigError(f"{key} must be a whole number, not {value!r}")
        return value
    if isinstance(default, float):
        if not isinstance(value, (int, float)) or isinstance(value, bool):
            raise ConfigError(f"{key} must be a number, not {value!r}")
        return float(value)
    if isinstance(default, str):
        if not isinstance(value, str):
            raise ConfigError(f"{key} must be a text in quotes, not {value!r}")
        return value
    if isinstance(default, tuple):
        if not isinstance(value, list) or len(value) != len(default) or not all(isinstance(v, str) and v.strip() for v in value):
            raise ConfigError(f"{key} must be a list of {len(default)} names, not {value!r}")
        return tuple(value)
    raise TypeError(f"no check for {key}")  # pragma: no cover - a program error


def _texts(key: str, value: Any) -> str | tuple[str, ...]:
    """A text, or a list of texts (kept as a tuple)."""
    if isinstance(value, str):
        return value
    if isinstance(value, list) and value and all(isinstance(v, str) and v.strip() for v in value):
        return tuple(value)
    raise ConfigError(f"{key} must be a text in quotes or a list of texts, not {value!r}")


def config_from_dict(data: Mapping[str, Any]) -> Config:
    """A checked :class:`Config` from parsed TOML (see the module docstring)."""
    sections: dict[str, Any] = {}
    for name, table in data.items():
        if name not in SECTIONS:
            raise ConfigError(f"unknown table [{name}]: the tables are {', '.join(SECTIONS)}")
        if not isinstance(table, Mapping):
            raise ConfigError(f"[{name}] must be a table of keys")
        cls = SECTIONS[name]
        defaults = cls()
        values = {}
        for key, value in table.items():
            if key not in cls.__dataclass_fields__:
                raise ConfigError(f"unknown key {name}.{key}: [{name}] has {', '.join(cls.__dataclass_fields__)}")
            if cls.__dataclass_fields__[key].metadata.get("texts"):
                values[key] = _texts(f"{name}.{key}", value)
            else:
                values[key] = _typed(f"{name}.{key}", value, getattr(defaults, key))
        sections[name] = cls(**values)
    config = Config(**sections)
    _check(config)
    return config


def _check(c: Config) -> None:
    """Raise :class:`ConfigError` with the first thing wrong in ``c``, section by section."""
    _check_board(c)
    _check_display(c)
    _check_match(c)
    _check_teaching(c)
    _check_opponent(c)
    if not c.journal.path.strip():
        raise ConfigError("journal.path must name the journal file")
    _check_club(c.club)
    _check_remote(c)


def _check_board(c: Config) -> None:
    """``[board]`` and ``[buttons]``: the serial port, its speed and settling time, the
    buttons' pin factory and bounce time."""
    if not c.board.port.strip():
        raise ConfigError("board.port must name the board's serial port, e.g. \"/dev/bgboard\"")
    if c.board.baudrate <= 0:
        raise ConfigError(f"board.baudrate must be positive, not {c.board.baudrate}")
    if not 0 <= c.board.settle_ms <= 5000:
        raise ConfigError(f"board.settle_ms must be 0..5000, not {c.board.settle_ms}")
    if c.buttons.pin_factory not in PIN_FACTORIES:
        raise ConfigError(f"buttons.pin_factory must be one of {', '.join(repr(p) for p in PIN_FACTORIES)}")
    if not 0 <= c.buttons.bounce_ms <= 1000:
        raise ConfigError(f"buttons.bounce_ms must be 0..1000, not {c.buttons.bounce_ms}")


def _check_display(c: Config) -> None:
    """``[display]``: a known panel and language."""
    from bgboard.display.panels import panel_spec

    try:
        panel_spec(c.display.panel)
    except InputError as exc:
        raise ConfigError(f"display.panel: {exc}") from None
    if c.display.language:
        from bgboard.language import checked_language

        try:
            checked_language(c.display.language, "display.language")
        except InputError as exc:
            raise ConfigError(str(exc)) from None


def _check_match(c: Config) -> None:
    """``[match]`` and ``[clock]``: the rules and the game with a length they allow, the
    clock's times, the numbering, and Jacoby and beavers only in money play."""
    from bgboard.match import rule_set
    from bgboard.rules.games import VARIANTS

    try:
        rule_set(c.match.rules).check_length(c.match.length)
    except InputError as exc:
        raise ConfigError(f"match: {exc}") from None
    if c.match.variant not in VARIANTS:
        raise ConfigError(f"match.variant must be one of {', '.join(VARIANTS)}, not {c.match.variant!r}")
    if VARIANTS[c.match.variant].rotates:  # tavli: its own rule set's lengths
        try:
            rule_set(c.match.variant).check_length(c.match.length)
        except InputError as exc:
            raise ConfigError(f"match: {exc}") from None
    for key in ("per_point_s", "scored_s", "delay_s", "overtime_s"):
        if getattr(c.clock, key) < 0:
            raise ConfigError(f"clock.{key} cannot be negative")
    if c.match.numbering not in NUMBERINGS:
        raise ConfigError(f"match.numbering must be one of {', '.join(NUMBERINGS)}, not {c.match.numbering!r}")
    if (c.match.jacoby or c.match.beavers) and c.match.length != 0:
        raise ConfigError("match.jacoby and match.beavers apply to money play only: set match.length = 0 and rules = \"money\"")


def _check_teaching(c: Config) -> None:
    """``[teach]`` and ``[hints]``: a known mode, learner and drills, and a hint engine
    to grade with when teaching."""
    if c.teach.mode not in TEACH_MODES:
        raise ConfigError(f"teach.mode must be one of {', '.join(TEACH_MODES)}, not {c.teach.mode!r}")
    if c.teach.learner not in LEARNERS:
        raise ConfigError(f"teach.learner must be one of {', '.join(LEARNERS)}, not {c.teach.learner!r}")
    if c.teach.mode == "practice":
        from bgboard.hints.drills import select_drills

        try:
            select_drills(c.teach.drills)
        except InputError as exc:
            raise ConfigError(str(exc)) from None
    if c.teach.mode != "off" and c.hints.engine == "none":
        raise ConfigError(f'teach.mode = "{c.teach.mode}" grades every play with a hint engine: '
                          'set [hints] engine to auto, bgsage, gnubg-nn or pubeval')
    if c.hints.engine not in HINT_ENGINES:
        raise ConfigError(f"hints.engine must be one of {', '.join(HINT_ENGINES)}, not {c.hints.engine!r}")


def _check_opponent(c: Config) -> None:
    if c.match.opponent not in ("person", "engine"):
        raise ConfigError(f'match.opponent must be "person" or "engine", not {c.match.opponent!r}')
    if c.opponent.side not in ("white", "black"):
        raise ConfigError(f'opponent.side must be "white" or "black", not {c.opponent.side!r}')
    if c.opponent.dice not in ("module", "person"):
        raise ConfigError(f'opponent.dice must be "module" or "person", not {c.opponent.dice!r}')
    from bgboard.hints.levels import level_of

    try:
        level_of(c.opponent.engine, c.opponent.level)
    except InputError as exc:
        raise ConfigError(f"opponent: {exc}") from None
    from bgboard.rules.games import supporting, variant

    if c.match.opponent == "engine" and (not variant(c.match.variant).engine_play or c.teach.mode == "practice"):
        raise ConfigError(f'match.opponent = "engine" plays backgammon matches (variant {" or ".join(supporting("engine_play"))}), '
                          'not practice or the seed variants')


def _check_club(c: ClubConfig) -> None:
    if not c.enabled:
        return
    from bgboard.net.protocol import MAX_BOARD, check_club, parse_broker_url

    try:
        parse_broker_url(c.broker)
        check_club(c.club)
    except InputError as exc:
        raise ConfigError(f"club: {exc}") from None
    if not 1 <= c.board <= MAX_BOARD:
        raise ConfigError(f"club.board must be 1..{MAX_BOARD}, not {c.board}")
    if not c.password_file.strip():
        raise ConfigError("club.password_file must name the file holding this board's broker password")


def _check_remote(c: Config) -> None:
    r = c.remote
    if not r.enabled:
        return
    from bgboard.net.protocol import parse_broker_url

    try:
        parse_broker_url(r.broker)
        remote_place(r)
    except InputError as exc:
        raise ConfigError(f"remote: {exc}") from None
    if not r.username.strip():
        raise ConfigError("remote.username must name this board's broker user")
    if not r.password_file.strip():
        raise ConfigError("remote.password_file must name the file holding this board's broker password")
    if c.match.opponent != "person" or c.club.enabled or c.teach.mode == "practice":
        raise ConfigError('[remote] plays a person at another board: leave match.opponent = "person", [club] broker '
                          'and teach.mode = "practice" out')
    from bgboard.rules.games import supporting, variant

    if not variant(c.match.variant).remote_play:
        raise ConfigError(f"[remote] plays backgammon matches (variant {' or '.join(supporting('remote_play'))}), not the seed variants")


def remote_place(r: RemoteConfig) -> tuple[str, str]:
    """The match and side of ``[remote]``: from ``invitation`` when given, else ``match`` and ``side``."""
    from bgboard.net.remote_wire import SIDES, check_match, parse_invitation

    if r.invitation.strip():
        return parse_invitation(r.invitation)
    if r.side not in SIDES:
        raise ConfigError(f'remote.side must be "white" or "black", not {r.side!r}')
    if not r.match.strip():
        raise ConfigError("remote.match must name the match both boards join (or give remote.invitation)")
    return check_match(r.match), r.side


def remote_settings(c: Config) -> Any:
    """A :class:`bgboard.net.remote_wire.RemoteSettings` of ``[remote]`` (its password read now)."""
    from bgboard.net.protocol import parse_broker_url
    from bgboard.net.remote_wire import RemoteSettings

    r = c.remote
    match, side = remote_place(r)
    return RemoteSettings(parse_broker_url(r.broker), match, side, r.username, remote_password(r), ca_file=r.ca_file)


def remote_password(r: RemoteConfig) -> str:
    """The board's broker password for remote play, read from ``remote.password_file``."""
    from bgboard.files import FileProblemError, read_text

    try:
        text = read_text(r.password_file, "remote.password_file", limit=64 * 1024).strip()
    except FileProblemError as exc:
        raise ConfigError(str(exc)) from None
    if not text:
        raise ConfigError(f"remote.password_file {r.password_file} is empty: put the board's broker password in it")
    return text


def club_password(c: ClubConfig) -> str:
    """The board's broker password, read from ``club.password_file`` (one sentence if not)."""
    from bgboard.files import FileProblemError, read_text

    try:  # bounded by the bytes read and, for a named pipe, in time
        text = read_text(c.password_file, "club.password_file", limit=64 * 1024).strip()
    except FileProblemError as exc:
        raise ConfigError(str(exc)) from None
    if not text:
        raise ConfigError(f"club.password_file {c.password_file} is empty: put the board's broker password in it")
    return text


def load_config(path: str | Path | None) -> Config:
    """Read and check a config file (None: all defaults)."""
    if path is None:
        return config_from_dict({})
    from bgboard.files import FileProblemError, read_text

    try:
        text = read_text(path, "the config file", limit=1024 * 1024)
    except FileProblemError as exc:  # the same sentence, as the config's own error
        raise ConfigError(str(exc)) from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"the config file {path} is not valid TOML ({exc})") from None
    return config_from_dict(data)


DEFAULT_TOML = default_toml()
