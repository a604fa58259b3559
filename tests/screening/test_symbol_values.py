"""Unquoted values after a credential name that start with a symbol or hold a separator.

A generated password starts with ``$``, ``%``, ``#``, ``!`` or ``&`` often enough, and holds ``,``,
``;`` or ``&`` often enough, that a value is not a stand-in for starting with one or a list for
holding one: a variable, a format field, an anchor or a tag is one only in the shapes shells,
format strings and YAML give them. YAML's node properties before a value (``&anchor``,
``!!str``) are passed over, and the value after them is judged.
"""

from __future__ import annotations

import random
import re
import string

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from tact_memory.screening.credentials import find_secret

REFUSED = [
    # what follows $, %, # or ! is no name, or a name mixing cases and digits as a password does
    "DB_PASSWORD=$I2R9Rkhr8wlbidxJy6",
    "DB_PASSWORD=$Y9nq5^%&dLuzVX%P",
    "password: $YebHJ@o!0JmhS!",
    "password: $$Tr0ub4dor3x",
    "DB_PASSWORD=$J$4zH8lrxERIqi#",
    "password: %jy0S^@Sp5QbCM0ryJ",
    "DB_PASSWORD=%cBoVf5iPml%UDlQqFSEI",
    "DB_PASSWORD=%d@GX#aLZoLd&uKehNOWB",
    "DB_PASSWORD=#NAKtaRp2W$w45&4UAgk",
    "secret = #a!B8OqlHf9Nb3ra",
    "password: !bfxjnPZoBtqMIzp",
    # letters and "=" at its start make an option list only when the letters are in lower case
    "DB_PASSWORD=rDar9eO=L=!Ih$7czGuy2z",
    "secret = Yc=_Rv98Xzcni_VB0pCzX8U",
    # a separator inside the value, which ended it too soon to be judged
    "DB_PASSWORD=p&OO@RO7P!Y&BvE&zFgP",
    "DB_PASSWORD=&jFY7pgXlm9f%EbcN7J1vrO",
    "DB_PASSWORD=Xk9,mQ2!zL9",
    "export API_KEY=6&^ue2CG%4yf",
    "password: Tr0ub(4dor&3",
    # YAML's anchor and string tag before the value
    "password: &pw Xk9v2LmQ7t",
    "password: !!str Xk9v2LmQ7t",
    "db:\n  password: &db_password !!str Xk9v2LmQ7t\n",
    # a value that starts with "*" and is no alias's name
    "password: *Xk9mQ2vLp7", "PASSWORD=*Hunter2024!", "PASS=*a0", "DB_PASSWORD=*db_password",
]

KEPT = [
    "password=$password;",
    "password: $PASSWORD_FROM_ENV",
    "TOKEN=$GITHUB_TOKEN",
    "token=$1",
    "secret=$RANDOM$RANDOM",
    "key=$HOME/.ssh/id_rsa",
    "password=$Env:DB_PASSWORD",
    "password=$this->password;",
    "password: $_ENV[DB_PASSWORD]",
    "password: $(cat /run/secrets/db)",
    "token: ${{ secrets.TOKEN }}",
    "api_key = %(api_key)s",
    "password=%s)",
    "secret=%SECRET%",
    "secret: %kernel.secret%",
    "secret: '%env(APP_SECRET)%'",
    "key=%ProgramFiles(x86)%\\app\\key.pem",
    "key: #ff0000",
    "password = #{password}",
    "password: #TODO",
    "token: #set-via-env",
    "api_key=***REDACTED***",
    "DB_PASSWORD: !Ref DbPasswordParam",
    "password: &pw ${DB_PASSWORD}",
    # a YAML alias: the value is the anchor's, written elsewhere
    "password: *pw", "password: *db_password", "db:\n  password: *shared-db-pw\n",
    "token = &mut value",
    "let token = &mut tokens[i];",
    "key=&lt;API_KEY&gt;",
    "keys=key1,key2,key3",
    "secret=id=npmrc,src=$HOME/.npmrc",
    "--mount=type=secret,id=github_token,env=GITHUB_TOKEN",
    "https://example.com/login?token=$TOKEN&next=/home",
    # a query's empty parameter before the request line's protocol, or a quote
    "GET /login?user=bob&password= HTTP/1.1", 'curl "https://example.com/a?token= "', "POST /auth?client_secret= HTTP/2",
    # from botocore's service descriptions: variables in markup, named by words
    "<code>otpauth://totp/$virtualMFADeviceName@$AccountName?secret=$Base32String</code> where",
    "<code>aws transfer list-executions --max-results 10 --next-token $somePointerReturnedFromPreviousListResult</code>",
]


@pytest.mark.parametrize("text", REFUSED)
def test_a_value_that_starts_with_a_symbol_or_holds_a_separator_is_refused(text: str) -> None:
    assert find_secret(text) == "credential_assignment"


@pytest.mark.parametrize("text", KEPT)
def test_variables_format_fields_anchors_tags_and_lists_are_kept(text: str) -> None:
    assert find_secret(text) is None


# Environment and shell variable names as people write them: upper-case words, lower-case words,
# camel case, each maybe with a digit at the end of a word (DB_PASSWORD, api_key_v2, dbPassword).
VARIABLE_NAMES = st.from_regex(r"[A-Z]{2,8}(?:_[A-Z]{2,8}[0-9]?){0,3}|[a-z]{2,8}(?:_[a-z]{2,8}[0-9]?){0,3}|[a-z]{2,8}(?:[A-Z][a-z]{2,8}){1,3}", fullmatch=True)


@given(
    name=VARIABLE_NAMES,
    # $$ is how Compose files and Makefiles write a $ that the shell is to read: $$DB_PASSWORD
    shape=st.sampled_from(["${n}", "${{{n}}}", "${{{n}:-none}}", "${n}/.config/app", "${n}:${n}", "${n}${n}", "%{n}%", "$${n}", "$${{{n}}}"]),
    form=st.sampled_from(["DB_PASSWORD={v}", "password: {v}", "export API_KEY={v}", "token={v};"]),
)
def test_a_variable_in_any_of_its_shapes_is_kept(name: str, shape: str, form: str) -> None:
    if shape.startswith("%"):
        name = re.sub("[0-9]", "", name)  # a name between percent signs holds no digit
    value = shape.format(n=name)
    assert find_secret(form.format(v=value)) is None


@given(
    first=st.text(string.ascii_letters + string.digits + "!@#$%^*", min_size=4, max_size=12),
    rest=st.text(string.ascii_letters + string.digits + "!@#$%^*", min_size=4, max_size=12),
    separator=st.sampled_from([",", ";", "&"]),
)
def test_a_generated_value_cut_by_a_separator_is_judged_whole(first: str, rest: str, separator: str) -> None:
    """Whatever the value found before the separator was judged to be, the whole run that mixes
    three classes and looks generated is refused after a credential name."""
    value = first + separator + rest
    assume(sum(any(f(c) for c in first + rest) for f in (str.islower, str.isupper, str.isdigit, lambda c: not c.isalnum())) >= 3)
    assume(len(set(value)) >= 6 and not first.startswith(("$", "%", "#")))
    assert find_secret(f"DB_PASSWORD={value}") == "credential_assignment"


@pytest.mark.parametrize(("symbols", "most"), [("!@#$%^&*", 6), ("!#$%&*+-=?@^_", 20)])
def test_generated_passwords_with_symbols_are_rarely_kept(symbols: str, most: int) -> None:
    """Of 3,000 random passwords of 12 to 24 letters, digits and a password manager's symbols after
    a credential name, at most one in five hundred is kept with the first set (before, about one in
    fourteen was: those starting with $, %, # or &, or with & early in them), and one in a hundred
    and fifty with the second (before, one in twenty, most with "=" after their first letters; what
    is left is mostly "&" before letters and "=", which a query string's next pair has). One that
    starts with "=" is left out: after "=" it makes "==", a comparison in code, not an assignment."""
    rng = random.Random(20261205)
    names = ["DB_PASSWORD=", "password: ", "export API_KEY=", "secret = "]
    texts = []
    while len(texts) < 3000:
        value = "".join(rng.choices(string.ascii_letters + string.digits + symbols, k=rng.randint(12, 24)))
        if not value.startswith("="):
            texts.append(names[len(texts) % len(names)] + value)
    kept = [text for text in texts if find_secret(text) is None]
    assert len(kept) <= most, kept
