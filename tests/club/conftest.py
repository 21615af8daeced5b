import pytest

from bgboard.club.director import Director
from bgboard.match import export_mat
from bgboard.match.selfplay import selfplay


@pytest.fixture
def club(tmp_path):
    with Director.create(tmp_path / "club.sqlite", "Test Club", at="2026-11-23T19:00:00+00:00") as d:
        yield d


def selfplay_mat(length: int, seed: int, players: tuple[str, str] = ("White", "Black")) -> tuple[str, tuple[int, int]]:
    """A real self-played match record between ``players`` and its final score (player 0 first)."""
    from bgboard.match import replay

    actions = selfplay(length, seed, "standard", players=tuple(players))
    return export_mat(actions), tuple(replay(actions).score)
