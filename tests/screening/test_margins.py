"""A note read without the margin its lines share: a comment's or a quote's marks, indentation, a
listing's line numbers, a diff's signs."""

from __future__ import annotations

import string

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tact_memory.screening.credentials import find_secret
from tact_memory.screening.margins import MAX_NESTED, unmargined

MARKS = ["#", "//", "--", ";", "%", "!", "*", ">", "+", "///", "REM", "@rem", "::", "'", '"', ":"]


def test_a_run_loses_its_marks_and_one_space_and_keeps_its_indentation() -> None:
    assert unmargined("# db:\n#   password: |\n#     value") == "db:\n  password: |\n    value"
    assert unmargined("x = 1\n  // a\n  // b\ny") == "x = 1\n  a\n  b\ny"
    assert unmargined("x = 1\n  // a\n  //b\ny") == "x = 1\n   a\n  b\ny"  # a line without the space: the mark alone goes
    assert unmargined("-- one\n--   two") == "one\n  two"
    assert unmargined("> > a\n> > b") == "a\nb"  # a quote in a quote


def test_the_lines_a_diff_adds_or_removes_read_without_their_sign() -> None:
    assert unmargined("+db:\n+  password: |\n+    value") == "db:\n  password: |\n    value"
    assert unmargined("-db:\n-  password: |\n-    value") == "db:\n  password: |\n    value"
    assert unmargined("------BEGIN RSA PRIVATE KEY-----\n-MIIEpAIBAAKCAQEA") == "-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA"
    assert unmargined("-- a\n-- b") == "a\nb"  # SQL's comments
    assert unmargined("- a\n- b") is None  # a list's items


def test_a_listing_numbered_line_by_line_reads_without_its_numbers() -> None:
    assert unmargined("     7\tdb:\n     8\t  password: |") == "db:\n  password: |"  # cat -n
    assert unmargined("  12\u2192a\n  13\u2192  b") == "a\n  b"
    assert unmargined("3: a\n4: b") == "a\nb"
    assert unmargined("3: a\n5: b") is None  # not one after another
    assert unmargined("2024: a year") is None
    assert unmargined("    42\u2192-----BEGIN OPENSSH PRIVATE KEY-----") == "-----BEGIN OPENSSH PRIVATE KEY-----"  # one line
    assert unmargined("    42\tdb.example.com:5432:app:app:x") == "db.example.com:5432:app:app:x"  # cat -n's, right-aligned
    assert unmargined("42\tsecond column") is None  # a table's first column, one line


def test_indentation_all_lines_share_reads_as_one_space() -> None:
    """One space: within the three that a Markdown heading or fence may have before it, and still
    indented, as a statement in a function's body is (``    token = nextchar`` is code)."""
    assert unmargined("    db:\n      password: |\n\n        value") == " db:\n   password: |\n\n     value"
    assert unmargined("\tkey: a\n\tother: b") == " key: a\n other: b"
    assert unmargined(" one space already\n two") is None
    assert unmargined("  two spaces\n  hide nothing") is None  # fewer than four: no code block


def test_a_list_items_text_and_the_lines_under_it_read_as_a_block() -> None:
    assert unmargined("- | User | Password |\n  |---|---|\n- next") == " | User | Password |\n |---|---|\n- next"
    assert unmargined("12. ## Heading\n\n    ```\n    value\n    ```") == " ## Heading\n\n ```\n value\n ```"
    assert unmargined("- one line\n- another") is None  # items of one line each


def test_a_block_under_an_indented_line_keeps_its_indentation() -> None:
    # One space would take the value out of its key (a YAML block scalar), so it is left.
    assert unmargined("db:\n  password: |\n    value") is None
    assert unmargined("notes: |\n      ## Heading") == "notes: |\n ## Heading"  # under a line at the margin


@pytest.mark.parametrize(
    "text",
    [
        "# one line commented out\nthen code",  # one marked line: the rules read it as written
        "# a heading\n// a comment in other words",  # two marks, no run
        "no margin\n  an indented line",
        "\tone tab\n    four spaces",  # no indentation the lines share
        "",
    ],
)
def test_what_has_no_run_and_no_shared_indentation_is_left(text: str) -> None:
    assert unmargined(text) is None


margins = st.sampled_from(["", " ", "  ", "    ", "\t", " \t"])
lines = st.builds(
    str.__add__,
    st.sampled_from(string.ascii_letters.replace("r", "").replace("R", "")),  # no mark, no REM: the run is one deep
    st.text(string.ascii_letters + string.digits + " :=|#/-;%!*>", max_size=30),
)


@given(mark=st.sampled_from(MARKS), margin=margins, body=st.lists(lines, min_size=2, max_size=6))
def test_a_run_reads_as_the_lines_it_marks(mark: str, margin: str, body: list[str]) -> None:
    """Every line given the same margin, mark and one space reads as the lines without the mark and
    the space (a code block's margin as one space)."""
    marked = "\n".join(margin + mark + " " + line for line in body)
    kept = " " if "\t" in margin or len(margin) >= 4 else margin
    assert unmargined(marked) == "\n".join(kept + line for line in body)


@given(text=st.text(string.ascii_letters + "0123 \t\n#/-+;%!*>:=|'\"@\u2192", max_size=80))
def test_reading_a_margin_only_takes_marks_and_spaces_away(text: str) -> None:
    shown = unmargined(text)
    if shown is None:
        return
    assert len(shown) <= len(text)
    visible, shown_visible = (part.replace(" ", "").replace("\t", "") for part in (text, shown))
    rest = iter(visible)
    assert all(any(c == kept for c in rest) for kept in shown_visible)  # what is left is in the text, in order
    taken = list(visible)
    for kept in shown_visible:
        taken.remove(kept)
    assert set(taken) <= set("#/-+;%!*>:|'\"@REMrem\u21920123")  # marks (REM too), and a listing's numbers


def test_marks_are_read_at_most_max_nested_deep() -> None:
    deep = "\n".join("# " * (MAX_NESTED + 1) + line for line in ("a", "b"))
    assert unmargined(deep) == "# a\n# b"


# Found by putting a margin before each line of every fixture (the test that does so for all of
# them is in test_credentials): what spans lines, and a passphrase after an indented name.
@pytest.mark.parametrize(
    "text",
    [
        "# db:\n#   password: |\n#     FAKETr0ub4dor&3",  # a YAML block scalar commented out
        "// | Service | User | Password |\n// |---|---|---|\n// | grafana | admin | Tr0ub4dor&3x |",
        "-- Example admin password:\n--   FAKEnextLine42",  # a label and the value under it
        "; Staging database\n;\n; :password: FAKEhunter22\n; :host: db.internal",
        "> > kind: Secret\n> > data:\n> >   extra: RkFLRWFkbWluOnBhc3N3b3Jk",
        "    ## Staging DB password\n\n    ```\n    FAKE-Summer2024!\n    ```",  # indented as a code block
        "\tdb:\n\t  password: >-\n\t    FAKETr0ub4dor&3",
        "  DB_PASSWORD = correct horse battery fakestaple",  # a passphrase after an indented name
        "; password => Correct Horse Battery Fakestaple",
        "@@ -1,3 +1,3 @@\n db:\n-  password: |\n-    Fak3Block!2024\n+  password_file: /run/secrets/db",  # a diff's hunk
        "--- a/values.yaml\n+++ b/values.yaml\n+db:\n+  password: |\n+    Fak3Block!2024",
        "     7\tdb:\n     8\t  password: |\n     9\t    Fak3Block!2024",  # a listing numbered by cat -n
        "    12\u2192| User | Password |\n    13\u2192|---|---|\n    14\u2192| admin | Tr0ub4dor&3x |",
        # The line comments of other languages: a batch file's, doc comments, Visual Basic's, Vim's,
        # the comments Sphinx documents attributes with, R's documentation.
        "REM db:\nREM   password: |\nREM     FAKETr0ub4dor&3",
        ":: -----BEGIN OPENSSH PRIVATE KEY-----\n:: b3BlbnNzaC1rZXktdjEAAAAAFAKEEXAMPLEbm9uZQAAAARub25lAAAAAAAAAAEAAAAzAAAAC3\n"
        ":: -----END OPENSSH PRIVATE KEY-----",
        "/// Example admin password:\n///   FAKEnextLine42",
        "' | User | Password |\n' |---|---|\n' | admin | Tr0ub4dor&3x |",
        '" kind: Secret\n" data:\n"   extra: RkFLRWFkbWluOnBhc3N3b3Jk',
        "#: Example admin password:\n#:   FAKEnextLine42",
        "#' db:\n#'   password: |\n#'     FAKETr0ub4dor&3",
    ],
)
def test_what_spans_lines_is_refused_behind_a_margin(text: str) -> None:
    assert find_secret(text) is not None


@pytest.mark.parametrize(
    "text",
    [
        "# Password:\n# ask the on-call engineer for it",  # a label and a reference
        "// TODO: rotate the token\n// once the vault is up",
        "    def login(self, password: str) -> None:\n        self.password = password",
        "# username, password = proxy_auth",  # names unpacked from a name, commented out
        "> username, password = proxy_auth",
        "  // user, pw = credentials\n  // connect(user, pw)",
        "-- SELECT user, password_hash\n-- FROM accounts",
        "    token = nextchar\n    credentials = in_memory",  # statements in a body give names
        "\tself.token = token_value\n\treturn token",
        "@@ -3,2 +3,2 @@\n-secretKey: postgres-password\n+secretKey: redis-password",  # a diff of a chart's key names
        "-secret: db-credentials\n+secret: app-credentials",
        "REM username, password = proxy_auth",  # unpacked names after a batch file's comment word
        "@rem user, pw = credentials\n@rem connect(user, pw)",
        "' Dim password As String\n' password = InputBox(\"Password\")",  # Visual Basic commented out
        "#' @param password The password to log in with.\n#' @param token An API token.",  # R's documentation
        'x = [\n    " token",\n    " password",\n]',  # strings that start with a space, one a line
    ],
)
def test_commented_or_indented_code_and_notes_of_no_credential_are_kept(text: str) -> None:
    assert find_secret(text) is None
