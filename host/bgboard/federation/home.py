"""The federation's folder (adapter): ``federation.json`` and the broker's files.

``bgboard federation init`` makes the folder: ``federation.json`` (the federation's name, its
database's address and where its broker listens and is reached), the database (on its server,
when it is not there yet) and its schema, and
``broker/`` (:class:`~bgboard.federation.hub_broker.HubBroker`).  Every other ``bgboard
federation`` command reads it (``--dir``, else ``$BGBOARD_FEDERATION_DIR``, else
``./federation``).
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass
from pathlib import Path

from bgboard.errors import InputError
from bgboard.federation.hub_broker import HubBroker
from bgboard.federation.ledger import Ledger, ensure_database

SETTINGS = "federation.json"


@dataclass(frozen=True, slots=True)
class Settings:
    name: str
    db: str
    port: int = 1884
    listen: str = "127.0.0.1"  # where the broker listens ("0.0.0.0": every address)
    public_host: str = "127.0.0.1"  # how the clubs' bridges reach it


class Home:
    """An initialised federation folder."""

    def __init__(self, folder: Path) -> None:
        self.folder = Path(folder)
        path = self.folder / SETTINGS
        if not path.is_file():
            raise InputError(f"there is no federation in {self.folder}: make one with "
                             "'bgboard federation --dir DIR init --name NAME --db postgresql://...'")
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            self.settings = Settings(str(data["name"]), str(data["db"]), int(data["port"]), str(data["listen"]),
                                     str(data["public_host"]))
        except (ValueError, KeyError, TypeError):
            raise InputError(f"{path} is not a federation's settings file: make the folder again with "
                             "'bgboard federation init'") from None
        self.broker = HubBroker(self.folder / "broker", self.settings.port, address=self.settings.listen)

    @classmethod
    def create(cls, folder: Path, settings: Settings) -> "Home":
        folder = Path(folder)
        if (folder / SETTINGS).exists():
            raise InputError(f"{folder} already holds a federation: pick another --dir")
        if not settings.name.strip() or len(settings.name) > 100:
            raise InputError("a federation's name is 1-100 characters")
        if not settings.db.startswith(("postgresql://", "postgres://")):
            raise InputError(f"the federation's database is a postgresql:// address, not {settings.db[:80]!r}")
        ensure_database(settings.db)  # made on its server when it is not there yet
        with Ledger(settings.db) as ledger:
            ledger.set_meta("name", settings.name.strip())
        folder.mkdir(parents=True, exist_ok=True)
        HubBroker(folder / "broker", settings.port, address=settings.listen).write()
        (folder / SETTINGS).write_text(json.dumps(asdict(settings), indent=1) + "\n", encoding="utf-8")
        os.chmod(folder / SETTINGS, 0o600)
        return cls(folder)

    def ledger(self) -> Ledger:
        return Ledger(self.settings.db)

    def join(self, club: str, title: str = "") -> tuple[bool, str]:
        """Add ``club`` to the database and the broker (idempotent): (whether it is new, its
        password on the federation's broker)."""
        with self.ledger() as ledger:
            new = ledger.add_club(club, " ".join(title.split())[:100])
        return new, self.broker.add_club(club)


def home_folder(given: str | None) -> Path:
    return Path(given or os.environ.get("BGBOARD_FEDERATION_DIR") or "federation")


__all__ = ["SETTINGS", "Settings", "Home", "home_folder"]
