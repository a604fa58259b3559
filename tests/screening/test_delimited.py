"""A delimited table (CSV, TSV, ``;``) whose header names a credential: each row read as its cells
under their headings (``tact_memory/screening/delimited.py``)."""

from __future__ import annotations

import string

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tact_memory.screening.credentials import find_secret
from tact_memory.screening.delimited import MAX_ROWS, delimited_rows

from .test_sentences import mixed

CREDENTIAL_HEADINGS = ["password", "Password", "PASSWORD", "passwd", "api_key", "API Key", "token", "secret", "pwd"]
OTHER_HEADINGS = ["username", "email", "Login Name", "host", "role", "env", "id"]
OTHER_CELLS = st.sampled_from(["bob", "qa@example.com", "staging", "admin2", "db.internal", "42", ""])


@st.composite
def tables(draw: st.DrawFn) -> tuple[str, str]:
    """A header with a credential's heading among others, and a row whose cell under it is a
    password; returned with the delimiter."""
    delimiter = draw(st.sampled_from([",", "\t", ";", ", "]))
    others = draw(st.lists(st.sampled_from(OTHER_HEADINGS), min_size=1, max_size=4, unique=True))
    at = draw(st.integers(0, len(others)))
    headings = others[:at] + [draw(st.sampled_from(CREDENTIAL_HEADINGS))] + others[at:]
    cells = [draw(OTHER_CELLS) for _ in others]
    value = draw(mixed.filter(lambda v: not set(v) & set(",;\t\"")))
    row = cells[:at] + [value] + cells[at:]
    quoted = draw(st.booleans())
    header = delimiter.join(f'"{h}"' if quoted else h for h in headings)
    return f"{header}\n{delimiter.join(row)}", delimiter


@given(table=tables(), before=st.sampled_from(["", "test accounts (users.csv):\n", "```csv\n"]))
def test_a_password_under_a_credential_s_heading_is_refused(table: tuple[str, str], before: str) -> None:
    text = before + table[0]
    assert find_secret(text) == "credential_assignment", text


@given(table=tables(), rows=st.integers(1, 5))
def test_every_row_under_the_header_is_read(table: tuple[str, str], rows: int) -> None:
    text, delimiter = table
    header, row = text.split("\n")
    filler = delimiter.join(["x"] * (header.count(delimiter) + 1))
    assert find_secret("\n".join([header, *[filler] * rows, row])) == "credential_assignment"


@pytest.mark.parametrize(
    "text",
    [
        # Hashes, stand-ins and empty cells under the heading; a heading that names no credential.
        "name,password_hash\nbob,$2b$12$abcdefghijklmnopqrstuv", "user,password\nbob,<see vault>", "name,password\nbob,\nann,",
        "id,token_count,model\n1,512,gpt-4o\n2,1024,claude", "key,value\nregion,us-east-1\ntimeout,30",
        "user,role\nbob,Xk9v2LmQ7t!", "username,password\nbob,${BOB_PASSWORD}",
        # Sentences and code with commas: no header's shape, or a row of no value.
        "SELECT user, password FROM t\nORDER BY a, b", "We rotated the password, token and key\nnext week, maybe, later",
        "def login(user, password):\n    return check(user, password)", "user, password = creds()\nx, y = 1, 2",
        # A header's shape among lines of code (pygments' Robot Framework lexer).
        "    def _tokenize(self, var, string, orig_token):\n        before = string[:var.start]\n"
        "        yield before, orig_token\n        yield var.identifier + '{', SYNTAX",
        "x = 1\nyield before, orig_token\nyield var.identifier + '{', SYNTAX",
        # A row with another count of fields ends the table; the line is read as written.
        "user,password\nbob,Xk9v2LmQ7t!,extra", "user,password\nthe rest is prose, Xk9v2LmQ7t! and more, here",
    ],
)  # fmt: skip
def test_other_tables_and_lines_with_commas_are_kept(text: str) -> None:
    assert find_secret(text) is None, text


def test_rows_past_the_bound_are_read_as_written() -> None:
    header = "user,password"
    rows = ["bob,"] * MAX_ROWS
    assert find_secret("\n".join([header, *rows, "ann,Xk9v2LmQ7t!"])) is None
    assert find_secret("\n".join([header, *rows[1:], "ann,Xk9v2LmQ7t!"])) == "credential_assignment"


@given(st.text(string.printable.replace("\r", ""), max_size=300))
def test_the_reading_keeps_every_line_and_changes_only_rows_under_a_header(text: str) -> None:
    shown = delimited_rows(text)
    assert shown.count("\n") == text.count("\n")
    lines, read = text.split("\n"), shown.split("\n")
    for number, (line, seen) in enumerate(zip(lines, read)):
        if seen != line:
            assert number > 0 and ": " in seen  # a row, read under the headings above it


# Letters that spell none of the words a credential's heading holds (no "p", "s", "t", "k", "e").
@given(st.text("abcdfghijlmnoqruvwxyzABCDFGHIJ0123456789_,;\t \n\"", max_size=300))
def test_text_that_names_no_credential_is_read_as_written(text: str) -> None:
    assert delimited_rows(text) == text


@st.composite
def markdown_tables(draw: st.DrawFn) -> str:
    """A Markdown table without its delimiter row (its rows opening and closing with ``|``, or
    one-word headings without them), with a credential's heading and a password under it."""
    outer = draw(st.booleans())
    headings_pool = OTHER_HEADINGS if outer else [h for h in OTHER_HEADINGS if " " not in h]
    others = draw(st.lists(st.sampled_from(headings_pool), min_size=1, max_size=3, unique=True))
    at = draw(st.integers(0, len(others)))
    credential = draw(st.sampled_from(CREDENTIAL_HEADINGS if outer else [h for h in CREDENTIAL_HEADINGS if " " not in h]))
    headings = others[:at] + [credential] + others[at:]
    cells = [draw(OTHER_CELLS.filter(bool)) for _ in others]
    row = cells[:at] + [draw(mixed)] + cells[at:]

    def line(fields: list[str]) -> str:
        return f"| {' | '.join(fields)} |" if outer else " | ".join(fields)

    return f"{line(headings)}\n{line(row)}"


@given(table=markdown_tables(), before=st.sampled_from(["", "Staging accounts:\n", "\n"]))
def test_a_password_in_a_markdown_table_without_its_delimiter_row_is_refused(table: str, before: str) -> None:
    text = before + table
    assert find_secret(text) == "credential_assignment", text


@pytest.mark.parametrize(
    "text",
    [
        # a shell's pipelines, whose commands take arguments
        "cat a | grep password | wc\nls | sort | head", "ps aux | grep token | wc -l\nfoo | bar | baz",
        # a table with its delimiter row, read as one, and cells that hold no password
        "| service | user | password |\n|---|---|---|\n| grafana | admin | see vault |",
        "| name | password |\n| ann | <set in vault> |", "| name | password |\n| ann | $DB_PW |",
        "| Option | Default | Description |\n| --token | none | The API token |",
    ],
)  # fmt: skip
def test_pipelines_and_tables_that_hold_no_password_are_kept(text: str) -> None:
    assert find_secret(text) is None, text
