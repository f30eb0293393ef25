"""A notification's words in the device's language (en, de, ru): what the service worker shows."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

LANGS = ("en", "de", "ru")

TITLES: dict[str, dict[str, str]] = {
    "turn": {"en": "Your turn", "de": "Du bist dran", "ru": "Ваш ход"},
    "reminder": {
        "en": "A quarter of your time is left",
        "de": "Nur noch ein Viertel deiner Zeit",
        "ru": "Осталась четверть вашего времени",
    },
    "end": {"en": "The match is over", "de": "Die Partie ist vorbei", "ru": "Партия окончена"},
    "invite": {
        "en": "{name} invites you to play again",
        "de": "{name} lädt dich zu einer neuen Partie ein",
        "ru": "{name} зовёт вас сыграть ещё",
    },
}
BODIES: dict[str, dict[str, str]] = {
    "turn": {
        "en": "Against {names}: {left} left.",
        "de": "Gegen {names}: noch {left}.",
        "ru": "Против: {names}. Осталось {left}.",
    },
    "turn_open": {"en": "Against {names}.", "de": "Gegen {names}.", "ru": "Против: {names}."},
    "reminder": {
        "en": "Against {names}: {left} left.",
        "de": "Gegen {names}: noch {left}.",
        "ru": "Против: {names}. Осталось {left}.",
    },
    "end": {"en": "Against {names}: {result}", "de": "Gegen {names}: {result}", "ru": "Против: {names}. {result}"},
    "invite": {
        "en": "Tap to join the table.",
        "de": "Tippe, um an den Tisch zu kommen.",
        "ru": "Нажмите, чтобы сесть за стол.",
    },
}
RESULTS: dict[str, dict[str, str]] = {
    "won": {"en": "you won.", "de": "du hast gewonnen.", "ru": "вы выиграли."},
    "lost": {"en": "you lost.", "de": "du hast verloren.", "ru": "вы проиграли."},
    "shared": {"en": "a shared first place.", "de": "geteilter erster Platz.", "ru": "первое место поделено."},
}
UNITS = {"en": ("d", "h", "min"), "de": ("T.", "Std.", "Min."), "ru": ("дн.", "ч", "мин")}


def time_left(left: timedelta, lang: str) -> str:
    """ "1 d 23 h", "5 h 10 min", "12 min" (never below a minute)."""
    day, hour, minute = UNITS.get(lang, UNITS["en"])
    minutes = max(1, int(left.total_seconds() // 60))
    d, rest = divmod(minutes, 1440)
    h, m = divmod(rest, 60)
    if d:
        return f"{d} {day} {h} {hour}"
    if h:
        return f"{h} {hour} {m} {minute}"
    return f"{m} {minute}"


def words(kind: str, params: dict[str, Any], lang: str, left: timedelta | None) -> tuple[str, str]:
    """(title, body) of a notification of ``kind`` in ``lang`` (English if it has no words for it)."""
    lang = lang if lang in LANGS else "en"
    names = ", ".join(str(name) for name in params.get("names", [])) or "?"
    title = TITLES[kind][lang].format(name=params.get("name", "?"))
    body_kind = "turn_open" if kind == "turn" and left is None else kind
    result = RESULTS.get(str(params.get("result")), RESULTS["lost"])[lang] if kind == "end" else ""
    body = BODIES[body_kind][lang].format(names=names, left=time_left(left, lang) if left else "", result=result)
    return title, body
