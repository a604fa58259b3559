"""A credential in a note written in Markdown: emphasis around its name or its separator, as a
reader of the rendered note sees it (``**Password:** …`` reads as ``Password: …``)."""

from __future__ import annotations

import re
import string

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tact_memory.screening.buffers import unwrapped
from tact_memory.screening.credentials import find_secret
from tact_memory.screening.markup import MAX_EMPHASIS, rendered

from .test_clause_values import weak
from .test_sentences import mixed

NAMES = ["Password", "password", "DB password", "Admin password", "Passphrase", "API token", "Secret key", "DB_PASSWORD", "client secret"]
# Where Markdown puts its markers around a label: the colon inside or outside the emphasis.
LABELS = ["**{}:**", "**{}**:", "*{}*:", "*{}:*", "_{}:_", "__{}__:", "***{}:***", "~~{}~~:"]
BEFORE = ["", "- ", "* ", "1. ", "> ", "Staging box. ", "**Username:** admin  "]


@given(before=st.sampled_from(BEFORE), label=st.sampled_from(LABELS), name=st.sampled_from(NAMES), value=mixed, after=st.sampled_from(["", "\n", "  ", " (rotated monthly)"]))
def test_a_credential_under_an_emphasised_label_is_refused(before: str, label: str, name: str, value: str, after: str) -> None:
    assert find_secret(before + label.format(name) + " " + value + after) == "credential_assignment"


@given(label=st.sampled_from(["**Password:**", "**Password**:", "_Password:_", "**Wi-Fi password**:"]), value=weak)
def test_a_weak_password_under_an_emphasised_label_is_refused(label: str, value: str) -> None:
    assert find_secret(f"{label} {value}") == "credential_assignment"


@pytest.mark.parametrize(
    "text",
    [
        # Emphasis in notes that give no credential.
        "**Note:** the password is in the vault",
        "**Password:** see 1Password",
        "**Token:** *required*",
        "*Password*: `${DB_PASSWORD}`",
        "**Password:** required",
        "**The token is required**",
        "**To set the global endpoint token version**",
        "_The password is optional_",
        "the token is **invalid** since Monday",
        # Markers that are no emphasis: code, globs, products, names.
        "def f(*args, **kwargs): password = kwargs.get('password')",
        "rm **/*.py and keep *.txt",
        "a * b * c and 2*3*4",
        "self.__password = None  # set in __init__",
    ],
)
def test_emphasis_around_no_credential_is_kept(text: str) -> None:
    assert find_secret(text) is None


def test_rendered_removes_each_pair_and_keeps_what_is_no_emphasis() -> None:
    assert rendered("**Username:** admin  **Password:** x") == "Username: admin  Password: x"
    assert rendered("- *password*: x and __token__: y, ~~old~~") == "- password: x and token: y, old"
    assert rendered("DB_PASSWORD_FILE and my_var_name") is None  # a "_" inside a name
    assert rendered("f(*args, **kwargs) a * b *.py") is None
    assert rendered("** spaced ** and *x *") is None  # text that starts or ends with a space
    assert rendered("no markers at all") is None
    assert rendered("**one\ntwo**") is None  # a pair is on one line


words = st.text(string.ascii_letters + string.digits + " :*_~-.\n", max_size=60)


@given(text=words)
def test_rendered_only_removes_markers(text: str) -> None:
    shown = rendered(text)
    if shown is None:
        return
    assert len(shown) < len(text)
    # What is left is the text in order, with nothing but markers taken out (and a colon put after
    # a line that reads as a heading: a line all in bold, or one over an underline, which goes).
    rest = iter(text.replace(":", ""))
    assert all(any(c == kept for c in rest) for kept in shown.replace(":", ""))
    taken = list(text.replace(":", ""))
    for kept in shown.replace(":", ""):
        taken.remove(kept)
    underlined = re.search(r"(?m)^[^\n]*\S[^\n]*\n[ ]{0,3}(?:=+|-+)[ \t]*$", text) is not None
    assert set(taken) <= set("*_~") | (set("-=\n \t") if underlined else set())


@given(parts=st.lists(st.text(string.ascii_lowercase + string.digits, min_size=1, max_size=8), min_size=2, max_size=5))
def test_a_name_joined_by_underscores_is_no_emphasis(parts: list[str]) -> None:
    name = "_".join(parts)
    assert rendered(f"{name} = {name}") is None


# Tables: a row of a name and its value, or a value under a heading that names the credential.
@given(name=st.sampled_from(["Password", "DB password", "API token", "client_secret"]), value=mixed, end=st.sampled_from([" |", ""]))
def test_a_table_row_of_a_name_and_its_value_is_refused(name: str, value: str, end: str) -> None:
    assert find_secret(f"| {name} | {value}{end}") == "credential_assignment"
    assert find_secret(f"| Setting | Value |\n|---|:---:|\n| Host | db.internal |\n| **{name}** | {value}{end}") == "credential_assignment"


@given(heading=st.sampled_from(["Password", "Admin password", "Token"]), value=mixed)
def test_a_value_under_a_heading_that_names_the_credential_is_refused(heading: str, value: str) -> None:
    table = f"| Service | User | {heading} |\n| --- | --- | --- |\n| grafana | admin | {value} |\n"
    assert find_secret(table) == "credential_assignment"


@pytest.mark.parametrize(
    "text",
    [
        "| Name | Type | Description |\n|---|---|---|\n| password | str | The password. |\n| token | SecretStr | Required. |",
        "| Option | Default |\n|---|---|\n| token | None |\n| password_file | `~/.pgpass` |",
        "| `token` | The API token used to authenticate |",
        "| password | string | required |",
        "| Service | Password |\n|---|---|\n| grafana | in the vault |",
        "cat token.txt | grep -v '^#' | head",
        # A word after a name's colon that inline code follows is prose, not a value.
        "- **api_key:** explicit ``api_key`` (returned unchanged) > the gateway key",
        "token: see `TOKEN` below",
    ],
)
def test_tables_and_inline_code_that_give_no_credential_are_kept(text: str) -> None:
    assert find_secret(text) is None


@pytest.mark.parametrize("text", ['"password: sunshine2 "', "`password: sunshine2`", "password: sunshine2 `# rotate`"])
def test_a_value_before_a_closing_quote_still_ends_its_clause(text: str) -> None:
    assert find_secret(text) == "credential_assignment"


def test_rendered_reads_table_rows_under_their_headings() -> None:
    table = "| Service | User | Password |\n|---|---|---|\n| grafana | admin | x |"
    assert rendered(table) == "| Service | User | Password |\n|---|---|---|\nService: grafana; User: admin; Password: x"
    assert rendered("| Password | x |") == "Password: x"
    assert rendered("| a \\| b | c |") == "a \\| b: c"  # an escaped border is in the cell
    assert rendered("|a|b|c|") is None  # three cells and no headings: nothing to pair
    assert rendered("echo x | grep y") is None  # a row starts with "|"


@given(
    before=st.sampled_from(["", "**Note:** ", "_Update_: "]),
    name=st.sampled_from(["the password", "the API token", "our secret"]),
    value=weak,
    mark=st.sampled_from(["*", "**", "_", "__", "~~", "***"]),
)
def test_a_value_in_emphasis_is_judged_without_it(before: str, name: str, value: str, mark: str) -> None:
    assert find_secret(f"{before}{name} is {mark}{value}{mark}") == "credential_assignment"
    word = "".join(c for c in value if c.isalpha())  # the same value without its digits: a word
    assert find_secret(f"{before}{name} is {mark}{word}{mark}") is None


@pytest.mark.parametrize("text", ["**Note:** the token is **invalid**", "the token is ~~expired~~", "the token is ~~expired~~ replaced", "_Update_: the key is *rotated*"])
def test_a_word_in_emphasis_after_a_linking_word_is_kept(text: str) -> None:
    assert find_secret(text) is None


@given(mark=st.sampled_from(["*", "**", "***", "_", "__", "~", "~~"]), inner=st.text(string.ascii_letters + string.digits + "&!#", min_size=1, max_size=12))
def test_unwrapped_takes_off_one_pair_of_marks(mark: str, inner: str) -> None:
    buffer = bytearray(f"x {mark}{inner}{mark} y", "ascii")
    start, end = 2, 2 + len(mark) * 2 + len(inner)
    assert unwrapped(buffer, start, end) == (start + len(mark), end - len(mark))
    assert unwrapped(buffer, start, end - len(mark)) == (start, end - len(mark))  # no closing run
    spaced = bytearray(f"{mark} {inner}{mark}", "ascii")
    assert unwrapped(spaced, 0, len(spaced)) == (0, len(spaced))  # text that starts with a space


def test_an_emphasis_pair_holds_at_most_max_emphasis_characters() -> None:
    longest = "a" * MAX_EMPHASIS
    assert rendered(f"**{longest}**") == longest
    assert rendered(f"**{longest}a**") is None  # longer than any label or value: left as it is


# HTML: inline tags around a label, and the cells of a table row or a definition list.
HTML_LABELS = [
    "<b>{}:</b> {}", "<strong>{}</strong>: {}", "<li><b>{}:</b> {}</li>", "<p><em>{}</em>: {}</p>",
    "<tr><td>{}</td><td>{}</td></tr>", "<tr>\n  <th>{}</th>\n  <td>{}</td>\n</tr>", "<dt>{}</dt><dd>{}</dd>",
    '<span class="label">{}:</span> <mark>{}</mark>',
    "{}: <code>{}</code>", "<b>{}:</b> <code>{}</code>", "<li>{}: <kbd>{}</kbd></li>", "<dt>{}</dt><dd><code>{}</code></dd>",
    '<td>{}</td><td><code class="literal">{}</code></td>',
]  # fmt: skip


@given(label=st.sampled_from(HTML_LABELS), name=st.sampled_from(["Password", "API key", "Secret"]), value=mixed)
def test_a_credential_in_html_that_a_reader_sees_as_a_label_and_its_value_is_refused(label: str, name: str, value: str) -> None:
    assert find_secret(label.format(name, value)) == "credential_assignment"


@given(
    level=st.sampled_from(["#", "##", "###", "######"]),
    name=st.sampled_from(["Password", "Staging password", "API token", "Secret key"]),
    close=st.sampled_from(["", " ##"]),
    between=st.sampled_from(["\n", "\n\n", "\n\n```\n", "\n```text\n"]),
    value=mixed,
)
def test_a_value_alone_under_a_heading_that_names_the_credential_is_refused(
    level: str, name: str, close: str, between: str, value: str
) -> None:
    assert find_secret(f"{level} {name}{close}{between}{value}\n") == "credential_assignment"


@given(
    heading=st.sampled_from(["**{}**", "__{}__", "{}\n" + "-" * 8, "{}\n" + "=" * 12]),
    name=st.sampled_from(["Password", "Staging DB password", "API token"]),
    between=st.sampled_from(["\n", "\n\n", "\n\n```\n"]),
    value=mixed,
)
def test_a_value_alone_under_a_bold_or_underlined_heading_is_refused(heading: str, name: str, between: str, value: str) -> None:
    assert find_secret(heading.format(name) + between + value + "\n") == "credential_assignment"


@pytest.mark.parametrize(
    "text",
    [
        "## Password\n\nThe password must be at least 8 characters.",
        "**Password**\nSee the vault.",
        "**Note**\nhunter22 is the dog's name",
        "password: x\n---\nfoo: bar",
        "Tokens\n------\n\nA token is a unit of text.",
        "__all__\n__version__",
        "## API token\n\nCreate one under Settings, then export it.",
        "# Tokens\n\nUse `tokenize()` to split a string.",
        "#include <password.h>\nint check(void);",
        "## Secret\nsecret-name",
        "# password\nPASSWORD = os.environ['DB_PASSWORD']",
        "### Token: none yet\nAsk ops.",
    ],
)
def test_headings_over_no_lone_value_are_kept(text: str) -> None:
    assert find_secret(text) is None


@pytest.mark.parametrize(
    "text",
    [
        "<p>The <code>password</code> field is required.</p>",
        "<tr><td>token</td><td>string</td><td>The token used to authenticate</td></tr>",
        "<b>Password:</b> see the vault",
        "<dt>token</dt>\n<dd>The API token.</dd>",
        "<td>password</td><td>None</td>",
        # A code element after a word names an example (an API's docs); after a label, a type or a default.
        "Pass the pagination token <code>token1</code> to get the next page.",
        "with the token <code>abcdefg123</code> as the example",
        "<dt>Type:</dt><dd><code>string</code></dd>",
        "password: <code>None</code> (the default)",
        "Token: <code>&lt;your token&gt;</code>",
        "<b>Password:</b> <code>see the vault</code>",
    ],
)
def test_html_that_gives_no_credential_is_kept(text: str) -> None:
    assert find_secret(text) is None


# reStructuredText's field lists: a leading colon is no segment of a path or an ARN.
@given(indent=st.sampled_from(["", "  ", "- ", "x\n"]), name=st.sampled_from(["password", "API token", "client_secret"]), value=mixed)
def test_a_credential_in_a_field_list_is_refused(indent: str, name: str, value: str) -> None:
    assert find_secret(f"{indent}:{name}: {value}") == "credential_assignment"


@pytest.mark.parametrize(
    "text",
    [
        "arn:aws:secretsmanager:us-east-1:123456789012:secret:prod/db-Ab12Cd",
        ":password: the user's password",
        ":param password: The password.",
        ":ivar token: the token",
        "see :token:`Tr0ub4dor` in the grammar",
    ],
)
def test_fields_and_segments_that_give_no_credential_are_kept(text: str) -> None:
    assert find_secret(text) is None


# A block quote reads as the text it quotes: what spans lines (a table, a label and the value
# below it, a YAML block scalar) is read under the quote's marks as without them.
QUOTED = {
    "| Service | Password |\n|---|---|\n| grafana | Tr0ub4dor&3x |": "credential_assignment",
    "Example admin password:\n  Xk9v2LmQ7t42": "credential_assignment",
    "db:\n  password: |\n    Tr0ub4dor&3x": "credential_assignment",
    "## Staging DB password\n\n```\nSummer2024!x\n```": "credential_assignment",
    "**Staging DB password**\n\n`hunter22x`": "credential_assignment",
}


@pytest.mark.parametrize("marks", ["> ", ">", "> > ", "  > "])
@pytest.mark.parametrize("text", QUOTED)
def test_what_spans_lines_is_refused_in_a_block_quote(text: str, marks: str) -> None:
    assert find_secret(text) == QUOTED[text]
    assert find_secret("\n".join(marks + line for line in text.split("\n"))) == QUOTED[text]


@pytest.mark.parametrize(
    "text",
    [
        "> The password policy:\n> at least 12 characters, rotated monthly.",
        "> | Service | Owner |\n> |---|---|\n> | grafana | ops-team2 |",
        "> ## Password reset\n>\n> Use the self-service page.",
        "a > b\nc > d: Tr0ub4dor",  # a comparison, not a quote's mark at a line's start
    ],
)
def test_a_block_quote_of_no_credential_is_kept(text: str) -> None:
    assert find_secret(text) is None
