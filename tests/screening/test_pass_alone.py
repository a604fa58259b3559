"""``pass`` alone as a name: a password after it, or a count, a test's result and the statement.

``PASS`` names a password in a shell or an env file (``PASS=hunter2``, ``export PASS="..."``) and a
result or a count in a test runner (``PASS = "PASS"``, ``PASS = 0``, ``pass: 14, fail: 0``). A value
written as one (tight against its separator, quoted, or ending its clause) is refused after it when
it is one run with a letter and a digit or a symbol; a plain word, a number and a phrase are kept.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tact_memory.screening.credentials import find_secret

from .test_clause_values import weak
from .test_credentials import TIGHT_FORMS, short_values
from .test_sentences import ends, generated, mixed

PASS_NAMES = ["PASS", "pass", "Pass"]
NUMBER = re.compile(r"[0-9][0-9_.]*(?:[eE][-+]?[0-9]+)?|0[xX][0-9A-Fa-f_]+|0[oObB][0-7_]+")
textured = short_values.filter(
    lambda v: len(v) >= 2
    and re.search(r"[A-Za-z]", v) is not None
    and re.search(r"[0-9!@^*+?~]", v) is not None
    and NUMBER.fullmatch(v) is None
    and v.lower() != "pass"
    and "test" not in v.lower()  # PASS: test1 is a test runner's result line
)


@pytest.mark.parametrize(
    "text",
    [
        "PASS=hunter2", "pass=hunter2", 'export PASS="hunter2"', 'PASS = "hunter2"', "pass: hunter2",
        '{"pass": "hunter2"}', "user=admin&pass=hunter2", "PASS=p@ss", "Pass: hunter2  # staging",
    ],
)  # fmt: skip
def test_a_password_after_pass_alone_is_refused(text: str) -> None:
    assert find_secret(text) == "credential_assignment"


@given(name=st.sampled_from(PASS_NAMES), form=st.sampled_from(TIGHT_FORMS), value=textured)
def test_any_value_with_a_password_s_texture_after_pass_is_refused(name: str, form: str, value: str) -> None:
    text = form.format(n=name, v=value)
    assert find_secret(text) == "credential_assignment", text


RESULTS = ["PASS", "pass", "Pass", "passed", "ok", "OK", "success", "green", "true", "P", "[PASS]", "\u2713", "PASSED"]
numbers = st.one_of(
    st.integers(0, 10**6).map(str), st.integers(0, 255).map(hex), st.floats(0, 100, allow_nan=False).map(repr)
)


@given(name=st.sampled_from(PASS_NAMES), form=st.sampled_from(TIGHT_FORMS), value=st.sampled_from(RESULTS) | numbers)
def test_a_result_or_a_number_after_pass_is_kept(name: str, form: str, value: str) -> None:
    text = form.format(n=name, v=value)
    assert find_secret(text) is None, text


@pytest.mark.parametrize(
    "text",
    [
        "status: PASS", "result=pass", "TEST_PASS_COUNT = 3", "PASS_COUNT=12", "Pass: 12 tests, fail: 0",
        "pass: 14, fail: 0, skipped: 2", "PASS = auto()", "PASS=$1", 'PASS = "Pass 2"', "pass: hunter2 for the box",
        "pass=100%", "pass=3/5", "bypass=hunter2",
        "try:\n    run()\nexcept OSError: pass\n", "class Empty:\n    pass\n", "if done:\n    pass\nelse: pass",
        "First pass: adjacent or overlapping intervals collapse", "The content pass: everything above moved",
    ],
)  # fmt: skip
def test_pass_as_a_word_a_status_or_a_statement_is_kept(text: str) -> None:
    assert find_secret(text) is None


@given(count=st.integers(0, 10**4), other=st.sampled_from(["fail", "skip", "error", "xfail"]), name=st.sampled_from(PASS_NAMES))
def test_test_counts_are_kept(count: int, other: str, name: str) -> None:
    assert find_secret(f"{name}: {count}, {other}: 0") is None
    assert find_secret(f"{name}={count} {other}=0") is None



# "pass" as a sentence's name for a password, given after a linking word: only a value with a
# generated password's texture counts, since "the first pass is ..." describes a step.
@given(
    before=st.sampled_from(["the wifi ", "vault ", "The ", "our VPN ", "the guest "]),
    name=st.sampled_from(PASS_NAMES),
    link=st.sampled_from(["is", "was", "is now", "was changed to"]),
    value=mixed,
    after=st.sampled_from(["", ".", " (rotate monthly)", "\n"]),
)
def test_a_generated_value_after_pass_and_a_linking_word_is_refused(before: str, name: str, link: str, value: str, after: str) -> None:
    text = f"{before}{name.lower() if before.strip() else name} {link} {value}{after}"
    assert find_secret(text) == "credential_assignment", text


@pytest.mark.parametrize(
    "text",
    [
        "the first pass is O(n^2) in time", "the pass is x86_64-linux-gnu", "this pass is LLVM-IR-only",
        "The pass is True", "the pass is needed", "the pass is 12345678", "the second pass was 3x faster",
        "bypass is Xk9mQ2vLp", "the pass is run before codegen2", "compass is Tr0ub4dor3",
        # "pass to" and "pass as" are the verb (the first two from the docstrings of openai and pydantic-ai).
        "The safety alert ID to pass to `GET /v1/safety/alerts/{id}`.", "Pass to `Agent(retries=...)` as a dict",
        "pass as Xk9mQ2vLp",
    ],
)  # fmt: skip
def test_a_description_after_pass_and_a_linking_word_is_kept(text: str) -> None:
    assert find_secret(text) is None


@given(
    name=st.sampled_from(["pass phrase", "Pass phrase", "PASS PHRASE", "pass  phrase", "pass phrases"]),
    value=st.one_of(mixed, weak),
    after=st.sampled_from([".", "\n", " (rotate monthly)"]),
)
def test_a_pass_phrase_written_apart_names_a_password(name: str, value: str, after: str) -> None:
    text = f"the {name} is {value}{after}"
    assert find_secret(text) == "credential_assignment", text


# Right after what the password opens, "pass" or "pw" with no verb is the password's name: a value
# with a password's texture after it is refused, as after "password" with no verb.
HOLDERS = ["keystore", "the Keystore", "wifi", "Wi-Fi", "root", "sudo", "db", "the database", "vault", "pfx", "- admin"]
PASS_WORDS = [" pass", " pw"]  # lower case, as a note writes them mid-line


@given(text=st.builds("{}{} {}{}".format, st.sampled_from(HOLDERS), st.sampled_from(PASS_WORDS), generated, ends))
def test_a_generated_password_after_pass_right_after_what_it_opens_is_refused(text: str) -> None:
    assert find_secret(text) == "credential_assignment", text


@pytest.mark.parametrize(
    "text",
    [
        "keystore pass hunter22", "as admin pass the flag", "root pass rate is 98%", "the key pass through Xk7pQ2mZ9w",
        "wifi pass ${WIFI_PASS}", "keystore pass <your-password>", "we pass Xk7pQ2mZ9w to the db",
        "monkey pass Xk7pQ2mZ9w", "the keyroot pass Xk7pQ2mZ9w",  # nothing a password opens, or its word inside another
    ],
)  # fmt: skip
def test_what_follows_pass_after_what_a_password_opens_that_is_no_password_is_kept(text: str) -> None:
    assert find_secret(text) is None


# "pass" run into what the password opens, with no joint, names the password as DB_PASS does
# (PHP's $dbpass, SSHPASS, offlineimap's remotepass); run into any other word it is that word.
RUN_ON = ["dbpass", "DBPASS", "$dbpass", "rootpass", "remotepass", "localpass", "SSHPASS", "smtppass", "my_dbpass", "adminpass_prod"]


@given(name=st.sampled_from(RUN_ON), form=st.sampled_from(TIGHT_FORMS), value=st.one_of(mixed, weak))
def test_a_password_after_pass_run_into_what_it_opens_is_refused(name: str, form: str, value: str) -> None:
    text = form.format(n=name, v=value)
    assert find_secret(text) == "credential_assignment", text


@pytest.mark.parametrize(
    "text",
    [
        "bypass = true", "compass = north", "trespass = 3", "multipass = 2", "firstpass = 3", "renderpass = shadow",
        "testpass = 12", "testpass: 14, testfail: 0", "devpass = 1", "dbpass = get_password()", "rootpass=", "userpass: enabled",
        "vault login -method=userpass username=ann", "SSHPASS=$(cat pw.txt) sshpass -e ssh host", "surpass: Xk7pQ2mZ9w",
    ],
)  # fmt: skip
def test_pass_run_into_another_word_or_given_no_value_is_kept(text: str) -> None:
    assert find_secret(text) is None, text


@pytest.mark.parametrize(
    "text",
    [
        "--- PASS: TestParseV2 (0.01s)", "    --- PASS: TestRun/case_1 (0.00s)", "--- PASS: TestFoo (0.00s)",
        "PASS: t0001-init.sh 3 - init with --template", "PASS: gdb.base/break.exp: run until function breakpoint",
        "PASS: gdb.ada/assign_1.exp: set convenience variable $xxx to 1", "PASS: test_login2", "PASS: tests/unit/auth_test2.sh",
        "FAIL: t0002-env.sh 4\nPASS: t0001-init.sh 3 - init", "PASS: test_v2.py", "=== RUN   TestX\n--- PASS: TestX (0.12s)\nPASS\nok  \texample.com/pkg\t0.2s",
        # DejaGnu's summary: any name, when another line is a result too
        "PASS: vers1\nPASS: vers2\nXFAIL: vers3", "FAIL: pr20995-2\nPASS: indirect5a dynsym", "Results:\n  PASS: x86_64\n  UNSUPPORTED: i386",
    ],
)  # fmt: skip
def test_a_test_runner_s_result_line_is_kept(text: str) -> None:
    # Automake, DejaGnu and Go print PASS in capitals, a colon and the test's name.
    assert find_secret(text) is None, text


@pytest.mark.parametrize(
    "text",
    [
        "PASS: hunter2", "PASS: Tr0ub4dor&3", "PASS=test_v2", "pass: test_login2", "PASS: Test1234!", "PASS: hunter2.", "Pass: Xk9mP2vQ.sh2",
        "USER: admin\nPASS: hunter2", "PASS: hunter2\nPASS=hunter3", "PASS: hunter2  # FAIL: later",
    ],
)  # fmt: skip
def test_a_password_after_pass_that_is_no_test_s_name_is_refused(text: str) -> None:
    assert find_secret(text) == "credential_assignment", text
