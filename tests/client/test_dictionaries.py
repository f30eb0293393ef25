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
