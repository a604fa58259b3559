"""Values an SQL INSERT gives, by position, to a column named for a credential.

A seed script, a migration or a fixture writes ``INSERT INTO users (name, password) VALUES ('bob',
'...')``: the column is named in one list and its value given in another. The literal at the
credential column's position, in any row, is judged as a quoted value after the name; so is a
settings table's value (``(key, value)``, WordPress's ``(option_name, option_value)``) in a row
whose name is a credential's, and a bare ``value`` or ``key`` column of a table named for
credentials (``INSERT INTO api_keys (name, key)``). Placeholders, expressions, empty and stand-in values, other columns
and SQL that names no credential's column are kept.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tact_memory.screening.credentials import find_secret

from .test_configuration_paths import ORDINARY_NAMES, PLAIN_NAMES
from .test_credentials import credential_values

SQL_NAMES = [n for n in PLAIN_NAMES if "-" not in n]
OTHER_COLUMNS = ["id", "name", "email", "created_at", "role", "is_admin"]
OTHER_ITEMS = ["'bob'", "'ann@example.com'", "now()", "NULL", "42", "'it''s, fine'", "lower('ANN')", "true"]
QUOTING = ["{c}", '"{c}"', "`{c}`", "[{c}]"]


@given(
    column=st.sampled_from(SQL_NAMES),
    before=st.lists(st.sampled_from(OTHER_COLUMNS), max_size=3, unique=True),
    after=st.lists(st.sampled_from(OTHER_COLUMNS), max_size=2, unique=True),
    items=st.lists(st.sampled_from(OTHER_ITEMS), min_size=5, max_size=5),
    value=credential_values,
    quoting=st.sampled_from(QUOTING),
    rows=st.integers(0, 3),
    keyword=st.sampled_from(["VALUES", "values", "Values"]),
    spacing=st.sampled_from([" ", "\n", "\n  "]),
)
def test_a_literal_in_a_credential_column_is_refused_in_any_row(
    column: str, before: list[str], after: list[str], items: list[str], value: str, quoting: str, rows: int, keyword: str, spacing: str
) -> None:
    columns = ", ".join(quoting.format(c=c) for c in [*before, column, *after])
    other_row = "(" + ", ".join(["NULL"] * (len(before) + 1 + len(after))) + ")"
    row = "(" + ", ".join([*items[: len(before)], f"'{value}'", *items[len(before) : len(before) + len(after)]]) + ")"
    text = f"INSERT INTO users ({columns}){spacing}{keyword}{spacing}" + ",\n".join([other_row] * rows + [row]) + ";"
    assert find_secret(text) == "credential_assignment", text


@given(name=st.sampled_from(SQL_NAMES), value=credential_values, columns=st.sampled_from([("key", "value"), ("name", "value"), ("option_name", "option_value"), ("setting_key", "setting_value")]))
def test_a_settings_rows_value_is_refused_when_its_name_is_a_credentials(name: str, value: str, columns: tuple[str, str]) -> None:
    text = f"INSERT INTO settings ({columns[0]}, {columns[1]}) VALUES ('site_name', 'Acme'), ('{name}', '{value}');"
    assert find_secret(text) == "credential_assignment", text


@given(
    table=st.sampled_from(["api_keys", "public.api_keys", '"access_tokens"', "`secrets`", "[dbo].[ApiKeys]", "passwords"]),
    columns=st.sampled_from([("name", "key"), ("user_id", "value"), ("key", "value"), ("id", "label", "key")]),
    value=credential_values,
)
def test_a_bare_key_or_value_column_of_a_table_of_credentials_is_refused(table: str, columns: tuple[str, ...], value: str) -> None:
    items = ", ".join(["'DB_URL'"] * (len(columns) - 1) + [f"'{value}'"])
    text = f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({items});"
    assert find_secret(text) == "credential_assignment", text


@pytest.mark.parametrize(
    "text",
    [
        # tables of other things, a key beside a value column, what no credential's table holds
        "INSERT INTO keys (name, key) VALUES ('ci', 'Qw8vZx12pL')",
        "INSERT INTO translations (key, value) VALUES ('Login-2', 'Qw8vZx12pL')",
        "INSERT INTO password_resets (email, key) VALUES ('a@b.c', 'Qw8vZx12pL')",
        "INSERT INTO secrets (key, value) VALUES ('DB_URL_2', '')",
        "INSERT INTO api_keys (name, key) VALUES ('ci', ?)",
        "INSERT INTO api_keys (key, name) VALUES (gen_random_uuid(), 'Build-Bot-2')",
    ],
)
def test_other_tables_and_placeholders_for_bare_columns_are_kept(text: str) -> None:
    assert find_secret(text) is None, text


@given(column=st.sampled_from([n for n in ORDINARY_NAMES if "-" not in n and " " not in n]), value=credential_values)
def test_the_same_literal_in_an_ordinary_column_is_kept(column: str, value: str) -> None:
    assert find_secret(f"INSERT INTO users (name, {column}) VALUES ('bob', '{value}');") is None


@pytest.mark.parametrize(
    "text",
    [
        # Placeholders and expressions: the value is not in the statement.
        "INSERT INTO users (name, password) VALUES (?, ?)",
        "INSERT INTO users (name, password) VALUES ($1, $2)",
        "INSERT INTO users (name, password) VALUES (:name, :password)",
        'cursor.execute("INSERT INTO users (name, password) VALUES (%s, %s)", (name, pw))',
        "INSERT INTO users (name, password) VALUES ('bob', NULL)",
        "INSERT INTO users (name, password) VALUES ('bob', gen_random_uuid())",
        # Empty, stand-in and word values, and columns that only hold a credential's word.
        "INSERT INTO users (name, password) VALUES ('bob', '')",
        "INSERT INTO users (name, password) VALUES ('bob', 'password')",
        "INSERT INTO users (name, password) VALUES ('bob', '${DB_PASSWORD}')",
        "INSERT INTO users (password, name) VALUES ('changeme', 'Bob-2')",
        "INSERT INTO users (name, password_reset_at) VALUES ('bob', '2024-01-01T10:00:00Z')",
        "INSERT INTO users (name, token_ttl) VALUES ('bob', '3600s-v2')",
        # A settings row of another name; a message that mentions a password; prose.
        "INSERT INTO settings (key, value) VALUES ('site_name', 'My-Site-2')",
        "INSERT INTO settings (value, key) VALUES ('Qw8vZx12pL', 'smtp_password')",
        "INSERT INTO logs (message) VALUES ('password reset for Bob-2')",
        "The values (a, b) were set; the password column (Xk9vQ2mN5p) is elsewhere.",
        # A row that breaks off, and a string that does not close on its line.
        "INSERT INTO users (name, password) VALUES ('bob'",
        "INSERT INTO users (name, password) VALUES ('bob', 'Qw8vZx12pL\nmore')",
    ],
)
def test_inserts_that_give_no_credential_are_kept(text: str) -> None:
    assert find_secret(text) is None, text


@pytest.mark.parametrize(
    "text",
    [
        "INSERT INTO users (name, password) VALUES ('bob', crypt('Qw8-fake-Zx12pL', gen_salt('bf')));",  # pgcrypto
        "INSERT INTO t (a, password) VALUES ('x, y', 'Qw8-fake-Zx12pL')",  # a comma inside a string
        "INSERT INTO t (a, password) VALUES (concat('a', ')'), 'Qw8-fake-Zx12pL')",  # a bracket inside one
        "INSERT OR REPLACE INTO main.users (name, api_key) VALUES ('ci', 'Qw8-fake-Zx12pL')",
    ],
)
def test_values_past_strings_and_expressions_and_crypts_argument_are_refused(text: str) -> None:
    assert find_secret(text) == "credential_assignment", text
