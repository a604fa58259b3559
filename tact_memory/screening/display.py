"""Stored text made safe to show a person on a terminal.

Record content reaches people through the browser, ``tact-memory list`` and ``show``, the
``delete`` confirmation and the commands that print records as JSON. The store refuses ASCII
control characters other than tab, newline and carriage return at ``put`` (it keeps the C1 controls,
which text mis-decoded from Windows-1252 is full of), but a database file can be written by
anything, so what is shown must be safe whatever the rows hold. A terminal acts on some characters instead of showing them: an escape sequence can
recolour, move the cursor, retitle the window or hide the rest of a line; a carriage return lets
later text overwrite earlier text; a bidirectional override or isolate reorders what follows it,
so a command can read differently from what it is. Each such character is shown as a visible
escape instead, in Python's spelling:

* C0 controls other than tab and newline, DEL and the C1 controls: ``\\r``, ``\\x1b``, ``\\x9b``;
* the bidirectional formatting characters (embeddings, overrides, isolates, their terminators and
  the LRM, RLM and ALM marks): ``\\u202e``;
* the line and paragraph separators U+2028 and U+2029, which some terminals break lines on:
  ``\\u2028``;
* lone surrogates, which cannot be encoded for output at all: ``\\ud800``.

A backslash is left as it is, so Windows paths stay readable; the price is that content holding
the four characters ``\\x1b`` looks the same as content holding an escape character. JSON output
writes the same characters as ``\\uXXXX`` escapes instead (:func:`json_safe`), which JSON reads
back as the characters themselves, so nothing is lost. Everything here is a pure function.
"""

from __future__ import annotations

from ..retrieval.lexer import BIDI_CONTROLS

__all__ = ["json_safe", "one_line", "terminal_safe"]


def _escape(code: int) -> str:
    if code == 0x0D:
        return "\\r"
    return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"


_UNSAFE = (
    [code for code in range(0x20) if chr(code) not in "\t\n"]
    + list(range(0x7F, 0xA0))
    + [ord(ch) for ch in BIDI_CONTROLS]
    + [0x2028, 0x2029]
    + list(range(0xD800, 0xE000))
)
_TABLE: dict[int, str] = {code: _escape(code) for code in _UNSAFE}
_JSON_TABLE: dict[int, str] = {code: f"\\u{code:04x}" for code in _UNSAFE}


def terminal_safe(text: str) -> str:
    """Return ``text`` with every character a terminal would act on shown as an escape.

    Args:
        text: Stored text, of any origin.

    Returns:
        ``text`` with tab and newline kept and the characters listed in the module docstring
        replaced by their escapes; unchanged when it holds none.

    Example:
        >>> terminal_safe("ok\\x1b[2Jgone\\r\\u202eevil")
        'ok\\\\x1b[2Jgone\\\\r\\\\u202eevil'
    """
    return text.translate(_TABLE)


def one_line(text: str) -> str:
    """Return ``text`` made :func:`terminal_safe`, with each run of white space as one space.

    Args:
        text: Stored text, of any origin.

    Returns:
        One line for a list row: escapes as in :func:`terminal_safe`, then white space collapsed
        and the ends stripped.
    """
    return " ".join(terminal_safe(text).split())


def json_safe(text: str) -> str:
    """Return JSON ``text`` with every character a terminal would act on written as a JSON escape.

    Args:
        text: What :func:`json.dumps` wrote with ``ensure_ascii=False`` (which escapes the C0
            controls, but not DEL, the C1 controls or the bidirectional characters).

    Returns:
        The same JSON value: such a character can only stand inside a string, where ``\\u202e``
        means the character itself.

    Example:
        >>> json_safe('{"content": "evil\\u202etxt.exe"}')
        '{"content": "evil\\\\u202etxt.exe"}'
    """
    return text.translate(_JSON_TABLE)
