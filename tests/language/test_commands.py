"""The commands that speak to players in their language: `legal --play`'s explanation,
`hint --grade`'s verdict and `analyse`'s table (--lang; LANG when it is not given)."""

from __future__ import annotations

import os
import subprocess
import sys

from bgboard.commands.analyse import _text  # pyright: ignore[reportPrivateUsage]
from bgboard.language.catalogues import words_for

START = "4HPwATDgc/ABMA"


def bgboard(*args: str, lang: str = "C") -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "LANG": lang, "LC_ALL": "", "LC_MESSAGES": "", "LANGUAGE": ""}
    return subprocess.run([sys.executable, "-m", "bgboard", *args], capture_output=True, text=True, env=env)


def test_legal_explains_an_illegal_play_in_the_language_asked():
    english = bgboard("legal", START, "31", "--play", "13/7")
    assert english.returncode == 2
    assert english.stderr.strip() == "bgboard: 13/7 is not legal: 13/7 moves 6 pips: the roll 3-1 cannot play that"
    german = bgboard("legal", START, "31", "--play", "13/7", "--lang", "de")
    assert german.returncode == 2
    assert german.stderr.strip() == "bgboard: 13/7 ist nicht gültig: 13/7 zieht 6 Felder: der Wurf 3-1 kann das nicht"
    dutch = bgboard("legal", START, "31", "--play", "13/7", lang="nl_NL.UTF-8")  # the locale, without --lang
    assert dutch.stderr.strip() == "bgboard: 13/7 is niet geldig: 13/7 gaat 6 stappen: de worp 3-1 kan dat niet spelen"


def test_hint_grade_says_its_verdict_in_the_language_asked():
    graded = bgboard("hint", START, "31", "--grade", "24/20", "--engine", "pubeval", "--lang", "nb")
    assert graded.returncode == 0, graded.stderr
    assert graded.stdout.strip() == "Motoren foretrekker 8/5 6/5 framfor 24/20 (den kan ikke måle hvor mye)."


def test_the_analysis_table_in_german():
    player = {"name": "Anna", "total_moves": 40, "unforced_moves": 31, "checker_error_emg": 0.5,
              "checker_rate_memg": 8.1, "cube_decisions": 4, "close_cube_decisions": 2, "cube_error_emg": 0.0,
              "error_rate_memg": 7.0, "snowie_error_rate": 7.0, "pr": 4.2, "overall_rating": "Expert",
              "luck_emg": 0.1, "luck_rating": "None", "pr_low": 2.0, "pr_high": 6.5, "decisions": 35,
              "worst": [{"game": 1, "move": 7, "played": "24/18 13/10", "better": "13/7 13/10", "error_emg": 0.1}]}
    table = _text({"file": "m.mat", "engine": "gnubg-nn", "plies": 0, "players": [player, {**player, "name": "Bert"}]},
                  words_for("de"))
    assert "Züge insgesamt" in table and "Freie Züge" in table and "Glücksbewertung" in table
    assert "Anna: PR 4.20, 95-%-Intervall 2.0–6.5 über 35 Entscheidungen" in table
    assert "Spiel 1 Zug 7: 24/18 13/10 — besser 13/7 13/10 (−0.100 EMG)" in table


def test_run_takes_lang_and_the_config_checks_display_language(tmp_path):
    assert bgboard("run", "--check", "--lang", "nb").returncode == 0
    wrong = bgboard("run", "--check", "--lang", "xx")
    assert wrong.returncode == 2 and wrong.stderr.strip() == (
        "bgboard: --lang: no language 'xx'; choose one of en, nl, de, nb, da, el")
    config = tmp_path / "config.toml"
    config.write_text('[display]\nlanguage = "fr"\n')
    bad = bgboard("run", "--check", "--config", str(config))
    assert bad.returncode == 2
    assert bad.stderr.strip() == "bgboard: display.language: no language 'fr'; choose one of en, nl, de, nb, da, el"
    config.write_text('[display]\nlanguage = "da"\n')
    assert bgboard("run", "--check", "--config", str(config)).returncode == 0
