"""A room command as JSON, for forwarding it to the room's owner."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from .. import commands as cmd
from ..model import FreshMatch

_COMMANDS: dict[str, type[Any]] = {
    c.__name__: c
    for c in (
        cmd.Join,
        cmd.Leave,
        cmd.Connect,
        cmd.Disconnect,
        cmd.Hello,
        cmd.PlayCard,
        cmd.Bid,
        cmd.Pass,
        cmd.Discard,
        cmd.Resign,
        cmd.Rematch,
        cmd.Chat,
        cmd.React,
        cmd.MuteReactions,
        cmd.Hint,
        cmd.Tick,
        cmd.SetSpectators,
    )
}


def encode_command(command: cmd.Command) -> dict[str, Any]:
    return {"type": type(command).__name__, **asdict(command)}


def decode_command(data: dict[str, Any]) -> cmd.Command:
    fields = dict(data)
    kind = _COMMANDS[fields.pop("type")]
    if "fresh" in fields:
        fields["fresh"] = FreshMatch(**fields["fresh"])
    if "cards" in fields:  # JSON has no tuples
        fields["cards"] = tuple(fields["cards"])
    command: cmd.Command = kind(**fields)
    return command
