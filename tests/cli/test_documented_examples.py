"""docs/engine-cli.md is a published contract: every console example in it is run here and must
print exactly what the page shows (standard output and standard error, and the exit status where
the example echoes it)."""

from __future__ import annotations

import io
import json
import re
import shlex
import sys
from contextlib import redirect_stderr
from pathlib import Path
from typing import Any

import pytest

import backend.cli.replay as replay_cli

DOC = Path(__file__).resolve().parents[2] / "docs" / "engine-cli.md"
FENCE = re.compile(r"```(console|json)\n(.*?)```", re.S)


def examples() -> list[tuple[str, str, list[str], int | None]]:
    """Every ``$ … python -m backend.cli.replay …`` line: (command, input text, expected lines, status)."""
    files: dict[str, str] = {}
    last_json: Any = None
    found = []
    for kind, body in FENCE.findall(DOC.read_text(encoding="utf-8")):
        if kind == "json":
            try:
                last_json = json.loads(body)
            except json.JSONDecodeError:
                last_json = None  # an illustration with "…" in it
            continue
        lines = body.rstrip("\n").split("\n")
        i = 0
        while i < len(lines):
            line = lines[i]
            i += 1
            if not line.startswith("$ "):
                continue
            command = line[2:]
            output = []
            while i < len(lines) and not lines[i].startswith("$ "):
                output.append(lines[i])
                i += 1
            if command.startswith("cat "):
                files[command[4:]] = "\n".join(output)
                continue
            if "backend.cli.replay" not in command:
                continue
            status = None
            if output and output[-1].startswith("exit="):
                status = int(output.pop()[5:])
            found.append((command, _input(command, files, last_json), output, status))
    return found


def _input(command: str, files: dict[str, str], last_json: Any) -> str:
    pipeline = command.split("; echo")[0]
    if pipeline.startswith("echo "):
        return shlex.split(pipeline.split(" | ")[0])[1] + "\n"  # echo ends its line
    if pipeline.startswith("jq "):  # the match document shown just above, cut to the named deal
        return json.dumps(last_json["replay"])
    name = pipeline.split()[-1]
    if name == "phase2-illegal.json":  # "with one more action, {"seat": 0, "play": "9C"}"
        doc = json.loads(files["phase2.json"])
        doc["actions"].append({"seat": 0, "play": "9C"})
        return json.dumps(doc)
    return files[name]


EXAMPLES = examples()


def test_the_page_has_its_examples() -> None:
    assert len(EXAMPLES) >= 30


@pytest.mark.parametrize(("command", "text", "expected", "status"), EXAMPLES, ids=[e[0][:60] for e in EXAMPLES])
def test_a_documented_example_prints_what_the_page_shows(
    command: str, text: str, expected: list[str], status: int | None
) -> None:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stderr(err):
        code = replay_cli.main(["-"], stdin=io.StringIO(text), stdout=out)
    printed = (out.getvalue() + err.getvalue()).rstrip("\n").split("\n")
    assert printed == expected, command
    if status is not None:
        assert code == status
    assert sys.stderr is not err
