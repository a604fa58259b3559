"""A note read without the margin its lines share: indentation, or a comment's or a quote's marks."""

from __future__ import annotations

import string

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tact_memory.screening.credentials import find_secret
from tact_memory.screening.margins import MAX_NESTED, unmargined

MARKS = ["#", "//", "--", ";", "%", "!", "*", ">"]


def test_a_run_loses_its_marks_and_one_space_and_keeps_its_indentation() -> None:
    assert unmargined("# db:\n#   password: |\n#     value") == "db:\n  password: |\n    value"
    assert unmargined("x = 1\n  // a\n  //b\ny") == "x = 1\n  a\n  b\ny"
    assert unmargined("-- one\n--   two") == "one\n  two"
    assert unmargined("> > a\n> > b") == "a\nb"  # a quote in a quote


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
    st.sampled_from(string.ascii_letters),  # a line that starts with no mark: the run is one deep
    st.text(string.ascii_letters + string.digits + " :=|#/-;%!*>", max_size=30),
)


@given(mark=st.sampled_from(MARKS), margin=margins, body=st.lists(lines, min_size=2, max_size=6))
def test_a_run_reads_as_the_lines_it_marks(mark: str, margin: str, body: list[str]) -> None:
    """Every line given the same margin, mark and one space reads as the lines without the mark and
    the space (a code block's margin as one space)."""
    marked = "\n".join(margin + mark + " " + line for line in body)
    kept = " " if "\t" in margin or len(margin) >= 4 else margin
    assert unmargined(marked) == "\n".join(kept + line for line in body)


@given(text=st.text(string.ascii_letters + " \t\n#/-;%!*>:=", max_size=80))
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
    assert set(taken) <= set("#/-;%!*>")


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
    ],
)
def test_commented_or_indented_code_and_notes_of_no_credential_are_kept(text: str) -> None:
    assert find_secret(text) is None
