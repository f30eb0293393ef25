"""Comments and indentation out of the served CSS and JavaScript (what a minifier's first pass does).

Both strippers are tokenizers, not patterns: they copy strings (and in JavaScript template literals
with their nested ``${…}`` and regular expression literals) untouched, drop comments, and shrink
the whitespace between tokens — a run holding a line break becomes one line break (so automatic
semicolon insertion reads the code as before), any other run one space. Names, tokens and their
order stay the same; ``tests/api/test_static.py`` runs ``node --check`` on every stripped module
and compares its imports and exports with the original's.
"""

from __future__ import annotations

WORD_EXTRA = frozenset("_$#\\")
# After these words a `/` starts a regular expression, after any other word it divides.
REGEX_AFTER_WORDS = frozenset(
    {
        "return",
        "typeof",
        "instanceof",
        "in",
        "of",
        "new",
        "delete",
        "void",
        "throw",
        "case",
        "do",
        "else",
        "yield",
        "await",
    }
)


def is_word(char: str) -> bool:
    return char.isalnum() or char in WORD_EXTRA or ord(char) > 127


def squeeze(run: str) -> str:
    """The whitespace between two tokens: a line break when it held one, else one space."""
    return "\n" if ("\n" in run or "\r" in run or "\u2028" in run or "\u2029" in run) else " "


def strip_css(source: str) -> str:
    """A stylesheet without comments, indentation and blank lines."""
    out: list[str] = []
    i, n = 0, len(source)
    pending = ""  # whitespace seen since the last token (comments count as nothing, as in CSS)
    while i < n:
        char = source[i]
        if char.isspace():
            pending += char
            i += 1
        elif source.startswith("/*", i):
            end = source.find("*/", i + 2)
            i = n if end < 0 else end + 2
        else:
            if pending and out:
                out.append(squeeze(pending))
            pending = ""
            if char in "\"'":
                end = string_end(source, i)
                out.append(source[i:end])
                i = end
            else:
                out.append(char)
                i += 1
    return "".join(out) + "\n"


def string_end(source: str, start: int) -> int:
    """The index after a quoted string (CSS or JavaScript) opening at ``start``."""
    quote, i, n = source[start], start + 1, len(source)
    while i < n:
        char = source[i]
        if char == "\\":
            i += 2
        elif char == quote or char == "\n":
            return i + 1
        else:
            i += 1
    return n


def regex_end(source: str, start: int) -> int:
    """The index after a regular expression literal (and its flags) opening at ``start``."""
    i, n, in_class = start + 1, len(source), False
    while i < n:
        char = source[i]
        if char == "\\":
            i += 2
            continue
        if char == "\n":
            raise ValueError(f"unterminated regular expression at {start}")
        if in_class:
            in_class = char != "]"
        elif char == "[":
            in_class = True
        elif char == "/":
            i += 1
            while i < n and is_word(source[i]):
                i += 1
            return i
        i += 1
    raise ValueError(f"unterminated regular expression at {start}")


def strip_js(source: str) -> str:
    """An ES module without comments, indentation and blank lines; strings, template literals and
    regular expressions kept as they are. Raises ``ValueError`` on what it cannot read."""
    out: list[str] = []
    i, n = 0, len(source)
    pending = ""
    prev = ""  # the last token: a word, a punctuator, or "lit" (string, template, regex, number)
    braces: list[int] = []  # open `{` inside each `${` of the template literals we are in
    while i < n:
        char = source[i]
        if char.isspace():
            pending += char
            i += 1
            continue
        if source.startswith("//", i):
            end = source.find("\n", i)
            i = n if end < 0 else end
            continue
        if source.startswith("/*", i):
            end = source.find("*/", i + 2)
            if end < 0:
                raise ValueError(f"unterminated comment at {i}")
            pending += "\n" if "\n" in source[i:end] else " "
            i = end + 2
            continue
        if pending and out:
            out.append(squeeze(pending))
        pending = ""
        if char in "\"'":
            end = string_end(source, i)
            out.append(source[i:end])
            i, prev = end, "lit"
        elif char == "`" or (char == "}" and braces and braces[-1] == 0):
            if char == "}":
                braces.pop()
            end, opened = template_end(source, i + 1)
            out.append(source[i:end])
            i, prev = end, "lit"
            if opened:
                braces.append(0)
                prev = "{"
        elif char == "/" and regex_allowed(prev):
            end = regex_end(source, i)
            out.append(source[i:end])
            i, prev = end, "lit"
        elif is_word(char):
            start = i
            while i < n and is_word(source[i]):
                i += 1
            out.append(source[start:i])
            prev = source[start:i]
        else:
            if braces and char == "{":
                braces[-1] += 1
            elif braces and char == "}":
                braces[-1] -= 1
            out.append(char)
            prev = char
            i += 1
    if braces:
        raise ValueError("unterminated template literal")
    return "".join(out) + "\n"


def template_end(source: str, i: int) -> tuple[int, bool]:
    """From inside a template literal at ``i``: the index after its closing backtick (False) or
    after the ``${`` of its next substitution (True)."""
    n = len(source)
    while i < n:
        char = source[i]
        if char == "\\":
            i += 2
        elif char == "`":
            return i + 1, False
        elif source.startswith("${", i):
            return i + 2, True
        else:
            i += 1
    raise ValueError("unterminated template literal")


def regex_allowed(prev: str) -> bool:
    """Whether a `/` after the token ``prev`` starts a regular expression (else it divides)."""
    if not prev:
        return True
    if prev == "lit" or prev in (")", "]"):
        return False
    if is_word(prev[0]):
        return prev in REGEX_AFTER_WORDS
    return True
