"""The client's dictionaries: ``frontend/tools/check-i18n.mjs`` (run with node) fails when a key is
missing in any of en, de and ru, when their placeholders or plural forms disagree, or when the code
uses a key no dictionary has; and no German or Russian text says "chips" in English."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.support.services import missing_service

ROOT = Path(__file__).resolve().parents[2]
CHECK = ROOT / "frontend" / "tools" / "check-i18n.mjs"


def node() -> str:
    found = shutil.which("node")
    if found is None:
        missing_service("node is not installed (apt-get install nodejs)")
    assert found is not None
    return found


def run_check(root: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([node(), str(root / "tools" / "check-i18n.mjs")], capture_output=True, text=True, timeout=60)


def test_every_key_is_in_every_language() -> None:
    result = run_check(ROOT / "frontend")
    assert result.returncode == 0, result.stderr or result.stdout
    assert "i18n ok" in result.stdout


def test_the_check_fails_on_a_key_missing_in_one_language(tmp_path: Path) -> None:
    """The check itself bites: a copy of the client with one German key removed is refused."""
    copy = tmp_path / "frontend"
    shutil.copytree(ROOT / "frontend", copy, ignore=shutil.ignore_patterns("node_modules"))
    german = copy / "js" / "i18n" / "de.js"
    text = german.read_text(encoding="utf-8")
    assert "'nav.lobby':" in text
    german.write_text(re.sub(r"^\s*'nav\.lobby':.*\n", "", text, count=1, flags=re.M), encoding="utf-8")
    result = run_check(copy)
    assert result.returncode == 1
    assert "de: missing nav.lobby" in result.stderr


@pytest.mark.parametrize("lang", ["de", "ru"])
def test_no_english_chips_in_german_or_russian(lang: str) -> None:
    lines = (ROOT / "frontend" / "js" / "i18n" / f"{lang}.js").read_text(encoding="utf-8").splitlines()
    texts = [re.sub(r"^\s*'[^']+':", "", line) for line in lines if not line.lstrip().startswith("//")]
    english = [text for text in texts if re.search(r"\bchips?\b", text)]
    assert not english, f"{lang}.js says 'chips' in English: {english}"


def _copy_with(tmp_path: Path, lang: str, key: str, value: str) -> subprocess.CompletedProcess[str]:
    """Run the check on a copy of the client whose `lang` dictionary gives `key` the JS literal `value`."""
    copy = tmp_path / "frontend"
    shutil.copytree(ROOT / "frontend", copy, ignore=shutil.ignore_patterns("node_modules"))
    path = copy / "js" / "i18n" / f"{lang}.js"
    text = path.read_text(encoding="utf-8")
    line = re.compile(rf"^(\s*'{re.escape(key)}':).*$", re.M)
    assert line.search(text), key
    path.write_text(line.sub(lambda m: f"{m.group(1)} {value},", text, count=1), encoding="utf-8")
    return run_check(copy)


def test_no_rule_codes_in_player_text(tmp_path: Path) -> None:
    """Issue 22: "(R4)" or "V1" belong on the rules page (keys rules.*), not in what a player reads at
    the table or in the lobby; the check refuses a refusal message that cites a rule."""
    result = _copy_with(tmp_path, "de", "reject.must_follow_suit", "'Du musst Farbe bekennen: {suit} (R4).'")
    assert result.returncode == 1
    assert "de: reject.must_follow_suit names a rule code" in result.stderr
    for lang in ("en", "de", "ru"):
        text = (ROOT / "frontend" / "js" / "i18n" / f"{lang}.js").read_text(encoding="utf-8")
        entries = re.findall(r"^\s*'([^']+)':(.*)$", text, flags=re.M)
        coded = [
            key for key, value in entries if not key.startswith("rules.") and re.search(r"\b[RV]\d+(\.\d+)?\b", value)
        ]
        assert not coded, f"{lang}: rule codes in player text: {coded}"


@pytest.mark.parametrize(
    ("lang", "key", "value"),
    [
        ("de", "watch.watchers", "'{n} schauen zu'"),  # "1 schauen zu" — issue 22
        ("ru", "table.my_card_points", "'{n} очков во взятках'"),  # "1 очков"
        ("en", "table.opponent_hand", "'{name} holds {n} cards'"),
    ],
)
def test_a_counted_noun_needs_plural_forms(tmp_path: Path, lang: str, key: str, value: str) -> None:
    """A number shown with a noun is a plural entry chosen by Intl.PluralRules (CLDR: one/few/many/
    other in Russian), never one string for every count; placeholders of other types must agree too."""
    result = _copy_with(tmp_path, lang, key, value)
    assert result.returncode == 1
    assert f"{lang}: {key} counts a noun without plural forms" in result.stderr
