"""A user and a password before an address written without its scheme.

pip's ``--proxy`` documents ``[user:passwd@]proxy.server:port``, git's ``http.proxy`` and curl's
``-x`` take the same, and ``HTTPS_PROXY`` is often set that way; Go's MySQL driver writes its DSN
as ``user:password@tcp(host:3306)/db``; a note gives a database as ``admin:...@db.internal:5432``.
The password is a URL's, only the ``scheme://`` a URL rule looks for is missing. The same shape is
an IAM member (``serviceAccount:name@project.iam.gserviceaccount.com``), an image pinned to a digest
(``name:tag@sha256:...``), a package's alias (``npm:name@1.2.3``) or an address after a label
(``Contact:jane.doe@corp.com``), which are kept.
"""

from __future__ import annotations

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from tact_memory.screening.credentials import find_secret

from .test_credential_urls import code_call, url_passwords
from .test_credentials import coincides_with_a_kind_name, shares_a_run
from .test_sentences import generated as generated_in_words


def refused_without_echo(text: str, password: str) -> None:
    """``text`` is refused as a credential URL, and the kind named echoes no part of ``password``."""
    assume(not code_call(password))
    kind = find_secret(text)
    assert kind == "credential_url", text
    assume(not coincides_with_a_kind_name(password))
    assert not shares_a_run(kind, password)


FORMS = [
    "pip install --proxy {u} requests", "pip config set global.proxy {u}", "proxy = {u}", "proxy: {u}",
    "HTTPS_PROXY={u}", "export https_proxy='{u}'", '"http_proxy": "{u}"', "git config --global http.proxy {u}",
    "npm config set https-proxy {u}", "curl -sS -x {u} https://pypi.org/simple/", "Proxy: {u} (office)",
    "set HTTP_PROXY={u}.",
]  # fmt: skip
HOSTS = ["proxy.corp.example:3128", "proxy:8080", "10.20.0.4:3128", "[fd00::4]:3128", "squid.internal"]


@given(
    form=st.sampled_from(FORMS),
    user=st.sampled_from(["ann", "ci-bot", "svc_proxy", "DOMAIN%5Cann", "user"]),
    password=url_passwords,
    host=st.sampled_from(HOSTS),
)
def test_a_proxy_address_with_a_password_is_refused_without_echo(form: str, user: str, password: str, host: str) -> None:
    refused_without_echo(form.format(u=f"{user}:{password}@{host}"), password)


@pytest.mark.parametrize(
    "text",
    [
        # No password, a template or a placeholder in its place, or the user's name again.
        "pip install --proxy proxy.corp.example:3128 requests", "HTTPS_PROXY=ann@proxy.corp.example:3128",
        "HTTPS_PROXY=ann:${PROXY_PASSWORD}@proxy:3128", "proxy = user:<password>@proxy:3128",
        "pip --proxy [user:passwd@]proxy.server:port", "HTTP_PROXY=user:****@proxy:3128", "proxy: user:x@proxy",
        "HTTP_PROXY=alice:alice@proxy:3128", "HTTP_PROXY=user:%s@proxy:3128",
        # Not after the word in a sentence, and never an IAM member, a digest or a version.
        "the proxy user:ann2@example.com has read access", "proxy: serviceAccount:sql-proxy2@billing.iam.gserviceaccount.com",
        "proxy: group:proxy-admins2@example.com", "proxy image: cloud-sql-proxy:2.8.0@sha256:4b0c9d1e",
        "proxy = npm:my-proxy2@1.0.0", "proxy_pass http://backend:8080;", "PROXY_IMAGE=cloud-sql-proxy:2.8.0@sha256:4b0c9d1e",
        # -x is curl's proxy only on a curl command line.
        "tar -x release:v2.3.1@build.tar", "set -x; tar -x ann:Xk9mQ2vLp@proxy.corp.example",
    ],
)  # fmt: skip
def test_other_things_of_the_same_shape_are_kept(text: str) -> None:
    assert find_secret(text) is None, text


@pytest.mark.parametrize("host", ["proxy.corp.example", "proxy.corp.example:3128", "1.2.3.4", "[::1]"])
def test_a_full_stop_after_the_host_ends_the_sentence_not_the_host(host: str) -> None:
    assert find_secret(f"Set HTTPS_PROXY=ann:Xk9mQ2vLp@{host}.") == "credential_url"


@pytest.mark.parametrize("after", ["1.2.3.4.5", "1.0.0", "sha256:4b0c9d1e", "2024", "example.5"])
def test_what_names_no_host_after_the_at_sign_is_kept(after: str) -> None:
    assert find_secret(f"HTTPS_PROXY=ann:Xk9mQ2vLp@{after}") is None


# With no port, the service or the tool whose account it is, named right before the user.
LABELLED_FORMS = [
    "FTP: {u}", "sftp {u}", "Redis: {u}/0", "postgres = {u}/app", "ssh {u}", "lftp {u}", "git clone {u}/repo.git",
    "- smtp: {u}", "SMB: {u}/share",
]  # fmt: skip


@given(
    form=st.sampled_from(LABELLED_FORMS),
    user=st.sampled_from(["deploy", "app", "svc_ftp", "ann.lee"]),
    password=url_passwords,
    host=st.sampled_from(["ftp.example.com", "cache.internal", "10.0.0.5", "[fd00::4]", "files"]),
)
def test_a_password_before_a_host_after_its_service_is_refused_without_echo(form: str, user: str, password: str, host: str) -> None:
    refused_without_echo(form.format(u=f"{user}:{password}@{host}"), password)


@pytest.mark.parametrize(
    "text",
    [
        # no service named right before the user: an e-mail address after a label
        "email:John.Smith1990@gmail.com", "contact: john:doe@example.com", "reply to: Sales:Jane.Doe1@corp.com",
        # no password, a template, a placeholder, the user's name again
        "FTP: deploy:${FTP_PASSWORD}@ftp.example.com", "FTP: deploy:password@ftp.example.com", "sftp: deploy:deploy@files",
        "FTP: user:***@ftp.example.com", "ssh deploy@host", "scp app.tar deploy@host:/srv/", "git clone git@github.com:org/repo.git",
        # an IAM member, an image pinned to a digest
        "git: serviceAccount:ci@project.iam.gserviceaccount.com", "redis: redis:7.2@sha256:4b0c9d1e",
        # anonymous FTP's convention; a host and its port before another name
        "FTP: anonymous:guest@ftp.example.com", "redis: cache:6379@v2.example",
    ],
)  # fmt: skip
def test_the_same_shape_without_a_service_or_a_password_is_kept(text: str) -> None:
    assert find_secret(text) is None, text


DSN_FORMS = [
    'DSN={u}', 'db, err := sql.Open("mysql", "{u}")', 'dsn := "{u}?parseTime=true"', "mysql_dsn: {u}",
    "MYSQL_DSN='{u}' go run ./cmd/api",
]  # fmt: skip
DSN_ADDRESSES = ["tcp(localhost:3306)/app", "tcp(127.0.0.1:3306)/orders", "tcp6([::1]:3306)/db", "unix(/run/mysqld/mysqld.sock)/db", "tcp(db)/"]


@given(
    form=st.sampled_from(DSN_FORMS),
    user=st.sampled_from(["root", "app", "svc_billing", ""]),
    password=url_passwords,
    address=st.sampled_from(DSN_ADDRESSES),
)
def test_a_password_in_a_go_mysql_dsn_is_refused_without_echo(form: str, user: str, password: str, address: str) -> None:
    refused_without_echo(form.format(u=f"{user}:{password}@{address}"), password)


# Passwords that look generated: eight bytes or more that mix three of lower case, upper case,
# digits and symbols.
generated = url_passwords.filter(
    lambda p: len(p) >= 8 and sum((any(c.islower() for c in p), any(c.isupper() for c in p), any(c.isdigit() for c in p), any(c in "!$&()*+,;=~" for c in p))) >= 3
)


# An e-mail address and a password after its colon, as a list of test accounts or a leaked
# combination writes them: only a password that looks generated.
@given(
    form=st.sampled_from(["{a}:{p}", "- {a}:{p}", "test accounts:\n{a}:{p}\n", '"{a}:{p}"', "({a}:{p})", "{a}:{p}. Rotate it."]),
    address=st.sampled_from(["qa@example.com", "ann.lee+test@corp.example", "svc_ci@mail.example.co.uk"]),
    password=generated_in_words.filter(lambda p: "@" not in p),
)
def test_an_address_and_a_generated_password_after_its_colon_are_refused(form: str, address: str, password: str) -> None:
    text = form.format(a=address, p=password)
    assert find_secret(text) == "credential_assignment", text


@pytest.mark.parametrize(
    "text",
    [
        # a path, a port or a target a copy names; a weak value, a word, a stand-in or a template
        "git@github.com:Org2/Repo.git", "scp app.tar deploy@web1.example.com:Releases2024X", "ssh -p 22 deploy@web1:Build2024X",
        "rsync -a dist/ deploy@web1:Site2024Xy", "deploy@web1.example.com:2222", "qa@example.com:hunter22", "qa@example.com:password",
        "ann@example.com:Subject", "mailto:ann@example.com:Re2Subject", "ann@example.com:${QA_PASSWORD}", "ann@example.com:<password>",
        "see ann@example.com: Xk9mQ2vLp7 is her id",
    ],
)  # fmt: skip
def test_an_address_before_a_colon_and_no_generated_password_is_kept(text: str) -> None:
    assert find_secret(text) is None, text


@given(
    form=st.sampled_from(["the staging db is {u}/app", "DATABASE={u}", "connect to {u} with psql", "- redis: {u}/0"]),
    user=st.sampled_from(["admin", "app", "postgres", "ann.lee"]),
    password=generated,
    host=st.sampled_from(["db.internal:5432", "10.0.4.2:6379", "localhost:3306", "[fd00::4]:5432", "pg-1:5432"]),
)
def test_a_generated_password_before_a_host_and_port_is_refused_without_echo(form: str, user: str, password: str, host: str) -> None:
    refused_without_echo(form.format(u=f"{user}:{password}@{host}"), password)


@pytest.mark.parametrize(
    "text",
    [
        # No password, a template or a placeholder in its place.
        "DSN=root@tcp(localhost:3306)/app", "DSN=root:@tcp(localhost:3306)/app", "DSN=user:password@tcp(localhost:3306)/dbname",
        'dsn := fmt.Sprintf("%s:%s@tcp(%s:%d)/%s", user, pass, host, port, name)',
        'DSN="${DB_USER}:${DB_PASS}@tcp(${DB_HOST}:3306)/app"', 'url = f"{user}:{password}@{host}:{port}"',
        "%(user)s:%(password)s@%(host)s:5432", "$USER:$PASSWORD@$HOST:5432",
        # Before a host and a port, a password that does not look generated: a note's words, a time.
        "the staging db is admin:hunter22@db.internal:5432/app", "meet at 12:30@room-b:12", "ann:secret@db:5432",
        # An address after a label, with or without a port; an IAM member; a digest; a version.
        "Contact:Jane.Doe1@corp.com", "mail:Jane.Doe1@corp.com (ext:4412)", "write to jane@corp.com:5432",
        "serviceAccount:Sa-Bot2024x@proj.iam.gserviceaccount.com:443", "image:v2.3.1-RC1@sha256:1234",
        "npm:Left-Pad2@1.3.0:80",
    ],
)  # fmt: skip
def test_the_same_shapes_without_a_password_are_kept(text: str) -> None:
    assert find_secret(text) is None, text
