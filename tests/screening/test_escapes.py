"""A note read with its string literals' escapes written out, and the readings of how it was typed
or rendered that came with it: typographic quotes, HTML's line breaks, blocks and character
references."""

from __future__ import annotations

import json

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from tact_memory.screening.credentials import find_secret
from tact_memory.screening.escapes import unescaped
from tact_memory.screening.markup import rendered

# Text a string may hold: anything but control characters (a line break and a tab aside) and
# surrogates, with a line break somewhere.
characters = st.characters(blacklist_categories=("Cc", "Cs")) | st.sampled_from("\n\t\"'\\")
lines = st.builds(lambda head, tail: head + "\n" + tail, st.text(characters, max_size=40), st.text(characters, max_size=40))


def ended(text: str) -> str:
    """``text`` ending its last line: how a literal written out on lines of its own ends."""
    return text if text.endswith("\n") else text + "\n"


@given(text=lines, ascii_only=st.booleans())
def test_a_json_string_reads_as_its_text_on_lines_of_its_own(text: str, ascii_only: bool) -> None:
    assert unescaped(json.dumps(text, ensure_ascii=ascii_only)) == ended(text)
    assert unescaped(json.dumps({"note": text})) == '{"note": \n' + ended(text) + "}"


@given(text=lines)
def test_a_python_repr_reads_as_its_text_on_lines_of_its_own(text: str) -> None:
    assume(all(c.isprintable() or c in "\n\t" for c in text))  # repr writes the others as \U or \x
    assert unescaped("NOTE = " + repr(text)) == "NOTE = \n" + ended(text)


@given(text=lines)
def test_a_list_of_lines_reads_as_the_lines_joined(text: str) -> None:
    """A notebook keeps a cell as a list of strings, one a line, each with its line break."""
    cell = [line + "\n" for line in text.split("\n")]
    assert unescaped('"source": ' + json.dumps(cell)) == '"source": [\n' + "".join(cell) + "]"
    assert "\n" + "".join(cell) in (unescaped('"source": ' + json.dumps(cell, indent=1)) or "")  # one after another


@given(text=st.text(st.characters(blacklist_characters="\\"), max_size=80))
def test_a_note_with_no_backslash_has_no_such_reading(text: str) -> None:
    assert unescaped(text) is None


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("print('a\\nb')", "print(\na\nb\n)"),
        ('say "use \\"x\\""', 'say \nuse "x"\n'),  # a literal that quotes: on lines of its own
        ('x = "a\\n" +\n    "b\\n"', "x = \na\nb\n"),  # a string split over lines, joined
        ("'\\x1b[0mPASS'", None),  # a terminal's colour stays escaped, in its quotes
        ("'caf\\u00e9'", "'caf\u00e9'"),  # a code point alone: written out in its quotes
        ('"\\ud83d\\ude00\\n"', "\U0001f600\n"),  # a character escaped as its two surrogates, joined
        ("C:\\\\new\\\\table", "C:\\new\\table"),  # an escaped backslash, then a letter: no line break
        ("db:\\n  password: |", "db:\n  password: |"),  # no whole literal: every escape written out
    ],
)
def test_escapes_are_written_out(text: str, shown: str | None) -> None:
    assert unescaped(text) == shown


def test_a_literal_that_never_closes_is_read_once() -> None:
    # An opening quote before a line of escaped quotes: each escape is no new start.
    text = '"' + '\\"' * 400
    assert unescaped(text) == text.replace('\\"', '"')


REFUSED = [
    '{"values": "db:\\n  password: |\\n    Fak3Block!2024\\n"}',  # a chart's values in a JSON field
    '"| Service | User | Password |\\n|---|---|---|\\n| grafana (FAKE) | admin | Tr0ub4dor&3x |"',
    '"For the FAKE test account, use the password \\"hunt3r-EXAMPLE\\" and the admin login."',
    "NOTE = 'Example admin password:\\n  FAKEnextLine42\\n'",  # Python's repr of a label over its value
    '"\\uff50\\uff41\\uff53\\uff53\\uff57\\uff4f\\uff52\\uff44\\uff1d\\uff48\\uff55\\uff4e\\uff54\\uff45\\uff52\\uff12 (FAKE)"',
    # Typed where quotes are replaced as they are typed.
    "password = \u201cFak3Curly!2024\u201d",
    "define(\u2018DB_PASSWORD\u2019, 'Xk9mP2vFAKE');",
    # Rendered: a break in a table's cell, a character reference, a table saved with trailing spaces.
    "| Host | Notes |\n|---|---|\n| staging | Password:<br>Fak3Cell!2024 |",
    "Staging login<br>user: app<br>password:<br>Fak3Cell!2024",
    "password=&quot;Fak3Entity!2024&quot;",
    "<pre><code>db.example.com:5432:app:app:FAKEpgpass77</code></pre>",  # a block starts its own line
    '<div class="note">FAKE example:<pre>-----BEGIN OPENSSH PRIVATE KEY-----</pre></div>',
    "export AWS_SECRET_ACCESS_KEY=&#x27;FAKEwJalrXUtnEXAMPLE/K7MDENG+bPxRfiCY07e&#x27;",
    "| Service | User | Password |  \n|---|---|---|  \n| grafana (FAKE) | admin | Tr0ub4dor&3x |  ",
]
KEPT = [
    'print("Retrying\\n")\nlog.info("token refreshed\\n")',
    "PASS = '\\x1b[92m'\nFAIL = '\\x1b[91m'",
    'parser.error("a password is required with a token\\n")',
    "password = os.environ[\u201cDB_PASSWORD\u201d]",  # typographic quotes around a name
    "It\u2019s the token\u2019s scope that matters, not its age.",
    "https://example.com/search?q=1&para=2&token=&lt;yours&gt;",
    "password: &lt;your password&gt;",
    '<pre><code>password = os.environ["DB_PASSWORD"]</code></pre>',
    "<p>Rotate the token monthly.</p><p>The password lives in the vault.</p>",
]


@pytest.mark.parametrize(("text", "refused"), [(text, True) for text in REFUSED] + [(text, False) for text in KEPT])
def test_escaped_typographic_and_html_forms_get_the_verdict_of_what_they_stand_for(text: str, refused: bool) -> None:
    """Refused where what they stand for holds a credential, kept where it names one or holds none."""
    assert (find_secret(text) is not None) == refused


def test_a_reference_without_its_semicolon_is_left_as_written() -> None:
    assert rendered("see ?q=1&para=2") is None  # &para; would be a pilcrow; a query's &para= is not
    assert rendered("a&amp;b") == "a&b"
    assert rendered("one<br>two<BR/>three") == "one\ntwo\nthree"
