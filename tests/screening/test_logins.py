"""Passwords given where a login happens: to a login call, or typed into a password field by a
browser test (:mod:`tact_memory.screening.logins`)."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tact_memory.screening.credentials import KINDS, find_secret
from tact_memory.screening.logins import PASSWORD_FIELD

from .test_sentences import mixed

# A call that logs in, or makes a login's credentials, from a user (a string or a variable) and a
# password, in the languages and libraries that name them so.
LOGIN_CALLS = [
    'server.login("ops@example.com", "{v}")', "ftp.login('deploy', '{v}')", "imap.login(user, '{v}')",
    'requests.get(url, auth=HTTPBasicAuth("admin", "{v}"))', 'auth = httpx.DigestAuth("admin", "{v}")',
    'session = aiohttp.ClientSession(auth=aiohttp.BasicAuth("bot", "{v}"))', 'var cred = new NetworkCredential("svc", "{v}");',
    'new PasswordAuthentication("smtp-user", "{v}".toCharArray())', 'Connection c = DriverManager.getConnection(url, "app", "{v}");',
    'token = UsernamePasswordAuthenticationToken("ann", "{v}")', 'def test_admin(client):\n    client.login("admin", "{v}")',
    'smtp.login(os.environ["SMTP_USER"], "{v}")', "ftp.login(cfg['ftp']['user'], '{v}')", 'imap.login(get_user(), "{v}")',
    'smtp.login(users[0].name, "{v}")', 'imap.login(get_user().email, "{v}")', "ftp.login(self.hosts['a'].user, '{v}')",
    # an LDAP bind as a directory's user (python-ldap)
    'conn.simple_bind_s("cn=admin,dc=example,dc=org", "{v}")', "l.simple_bind(bind_dn, '{v}')",
    # Firebase's sign-in and sign-up, the modular SDK's with the auth instance first
    'firebase.auth().signInWithEmailAndPassword("ann@example.com", "{v}")', 'await signInWithEmailAndPassword(auth, "ann@example.com", "{v}")',
    "createUserWithEmailAndPassword(getAuth(), email, '{v}')", 'auth.sign_in_with_email_and_password(email, "{v}")',
    # a user and a password that code encodes in base64 for HTTP Basic authentication
    'headers["Authorization"] = "Basic " + base64.b64encode(b"svc:{v}").decode()', "const encoded = btoa('svc_ci:{v}');",
    "Buffer.from('svc:{v}').toString('base64')", "Buffer.from(`svc:{v}`, 'utf8').toString('base64')",
    'Base64.strict_encode64("svc:{v}")', 'base64.StdEncoding.EncodeToString([]byte("svc:{v}"))',
    # what a program stores in the system's keyring
    'keyring.set_password("smtp", "ann", "{v}")', "await keytar.setPassword('gh-cli', account, '{v}');",
    # an MQTT client's user and password
    'client.username_pw_set("sensor", "{v}")', 'mqttClient.setCredentials("sensor", "{v}");', 'pika.PlainCredentials("app", "{v}")',
    # superagent's and supertest's auth, Spring's DataSource made from a URL, a user and a password
    'request(app).get("/admin").auth("ann", "{v}")', 'client.auth("svc", "{v}")', 'db.changeUserPassword("app", "{v}")',
    'new JdbcTemplate(new DriverManagerDataSource("jdbc:mysql://db/app", "root", "{v}"));',
    # sbt's credentials for a repository, Azure's credentials of a user or an application
    'credentials += Credentials("Sonatype Nexus Repository Manager", "nexus.example.com", "ann", "{v}")',
    'UsernamePasswordCredential(client_id, "ann@example.com", "{v}")', 'ClientSecretCredential(tenant_id, client_id, "{v}")',
    # a Java keystore's or key's password as a character array, and libcurl's user and password
    'keyStore.load(in, "{v}".toCharArray());', 'kmf.init(ks, "{v}".toCharArray());', 'new PBEKeySpec("{v}".toCharArray(), salt, 65536, 256)',
    'curl_setopt($ch, CURLOPT_USERPWD, "ann:{v}");', 'c.setopt(pycurl.USERPWD, "ann:{v}")',
    # a wireless network's name and passphrase, as a board joins or opens it
    'WiFi.begin("HomeNet", "{v}");', 'WiFi.begin(ssid, "{v}");', 'WiFi.softAP("esp-ap", "{v}");', 'wifiMulti.addAP("HomeNet", "{v}");',
    'wlan.connect("HomeNet", "{v}")', 'sta_if.connect(SSID, "{v}")', 'wifi.radio.connect("HomeNet", "{v}")',
]  # fmt: skip

# What a browser test types into a password field, named by the selector given with the value or
# by one in the chain before the method, on its line or on the line before a line that starts with ".".
TYPED_FIELDS = [
    "await page.fill('#password', '{v}');", 'await page.getByLabel("Password").fill("{v}");',
    "await page.locator('input[name=\"password\"]').fill('{v}');", "await page.type('#user-password', '{v}')",
    "cy.get('[data-test=password]').type('{v}')", "cy.get('#password')\n  .should('be.visible')\n  .type('{v}')",
    'driver.find_element(By.ID, "password").send_keys("{v}")', 'driver.findElement(By.name("passwd")).sendKeys("{v}");',
    "await $('#pwd').setValue('{v}')", "await t.typeText('#password', '{v}')", 'fill_in "Password", with: "{v}"',
    "fill_in 'user[password]', with: '{v}'", "await page.getByPlaceholder('Passwort').pressSequentially('{v}')",
]  # fmt: skip


# A Redis server's password: in redis.conf, on redis-server's command line (a Compose file's
# command), set at run time, and given to AUTH in redis-cli, alone or after a user.
REDIS_SETTINGS = [
    "requirepass {v}", "  masterauth {v}  # replica", "command: redis-server --appendonly yes --requirepass {v}",
    'redis-server --requirepass "{v}"', 'redis-cli CONFIG SET requirepass "{v}"',
]  # fmt: skip
REDIS_LOGINS = [
    "redis-cli AUTH {v}", "redis-cli -h cache.internal -p 6380 AUTH default {v}", "127.0.0.1:6379> AUTH {v}",
    "127.0.0.1:6379[2]> AUTH {v}", "redis> AUTH default {v}",
    # a note that names Redis on AUTH's line or the line before
    "Redis: AUTH {v}", "in redis-cli run AUTH {v} first", "Staging Redis:\n  AUTH default {v}", "AUTH {v} (the redis cache)",
]  # fmt: skip


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ('smtp.login("me@gmail.com", "qwerasdfzxcvtyui")', "login_password"),
        ('server.login("me@gmail.com", "qwer asdf zxcv tyui")', "login_password"),
        ("server.login('ann@googlemail.com', 'qwerasdfzxcvtyui')", "login_password"),
        # another mail host, a word, a user in a variable: a password needs its texture there
        ('smtp.login("me@example.com", "qwerasdfzxcvtyui")', None),
        ('smtp.login("me@gmail.com", "password")', None),
        ('smtp.login(user, "qwerasdfzxcvtyui")', None),
    ],
)
def test_a_google_app_password_given_with_a_gmail_address_is_refused(text: str, kind: str | None) -> None:
    assert find_secret(text) == kind, text


def test_the_kind_is_described() -> None:
    assert KINDS["login_password"].startswith("a password")


@given(form=st.sampled_from(LOGIN_CALLS + TYPED_FIELDS), value=mixed)
def test_a_password_given_to_a_login_is_refused(form: str, value: str) -> None:
    text = form.format(v=value)
    assert find_secret(text) == "login_password", text


# Logins with no literal password.
KEPT = [
    # no literal, a word or a placeholder, and anonymous FTP's convention
    "login(user, password)", 'login("admin", "secret")', 'login("ops@example.com", "<password>")',
    'login("ops@example.com", "********")', 'ftp.login("anonymous", "anonymous@")', 'login("Sign in", "Log in here")',
    # a field that is no password's, or a value that is code or a key to press
    "await page.fill('#password', password);", "await page.fill('#password', process.env.E2E_PASSWORD!);",
    "cy.get('#password').type('{enter}')", "cy.get('#email').type('ann.lee+test1@example.com')",
    "cy.get('#password').clear(); cy.get('#email').type('ann.lee+test1@example.com')",
    "await page.fill('#search', 'Q3 report 2024!')", "new Array(5).fill('x1!')", "str.type('Xk9vQ2mN5p')",
    "page.getByLabel('Passport number').fill('X1234567')", "await page.getByLabel('Username').fill('ann_Lee2');",
    'fill_in "Email", with: "ann@example.com"', 'fill_in "Password", with: password',
    # redis.conf's own example, a variable, prose about the directive, and AUTH with no password
    "# requirepass foobared", "requirepass ${REDIS_PASSWORD}", "command: redis-server --requirepass $$REDIS_PASSWORD",
    "Set requirepass in redis.conf to protect the server.", "redis-cli AUTH $REDIS_PASSWORD", "redis-cli AUTH default",
    "masterauth <master-password>",
    # a keystore's default password, an alphabet made an array, a variable; a user and password from variables
    'ks.load(null, "changeit".toCharArray());', 'private static final char[] HEX = "0123456789ABCDEF".toCharArray();',
    'for (char c : "Abc123!".toCharArray()) {}', "ks.load(in, pw.toCharArray());", 'curl_setopt($ch, CURLOPT_USERPWD, "$user:$pass");',
    "client.auth(token)",
    # a user's attribute before a password that is no literal
    "smtp.login(users[0].name, users[0].password)",
    "signInWithEmailAndPassword(auth, email, password)", 'signInWithEmailAndPassword(auth, email, "")',
    # encoded pairs: a word after the colon, a template, a data URI, a Buffer not for base64, a space
    'base64.b64encode(b"user:pass")', 'btoa("a:b")', "btoa(`${user}:${pass}`)", 'Buffer.from("bob:" + password)',
    'Buffer.from("data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAE", "utf8")', 'Buffer.from("hello:World2")', 'btoa("data:Text2024!")',
    'base64.b64encode(b"key:value pair 2")',
    'keyring.set_password("smtp", user, password)', 'keyring.set_password("smtp", "ann", "")',
    # a board's network and MQTT calls given variables, nothing or a placeholder
    "WiFi.begin(ssid, password);", 'WiFi.begin("HomeNet", "");', 'WiFi.begin("HomeNet");', 'WiFi.begin("HomeNet", "password");',
    'client.username_pw_set("sensor", None)', "client.username_pw_set(MQTT_USER, MQTT_PASS)", 'pika.PlainCredentials("guest", "guest")',
    'Credentials("Sonatype Nexus", "nexus.example.com", sys.env("USER"), sys.env("PASS"))', 'Credentials(Path.userHome / ".sbt" / ".credentials")',
    'ClientSecretCredential(tenant_id, client_id, os.environ["AZURE_CLIENT_SECRET"])',
    # AUTH in a note: words, a variable or a stand-in after it, or no Redis named near it
    "Redis: AUTH with the password from Vault", "Redis: AUTH is required since 6.0", "Redis: AUTH $REDIS_PASSWORD",
    "Redis: AUTH default <password>", "SMTP: AUTH Xk9mQ2vLp7", "AUTH Xk9mQ2vLp7",
    "Redis runs on cache.internal." + " " * 130 + "\nSMTP: AUTH Xk9mQ2vLp7",
]  # fmt: skip


@given(form=st.sampled_from(REDIS_SETTINGS + REDIS_LOGINS), value=mixed.filter(lambda v: " " not in v and "#" not in v))
def test_a_redis_password_is_refused(form: str, value: str) -> None:
    text = form.format(v=value)
    assert find_secret(text) == ("login_password" if form in REDIS_LOGINS else "credential_assignment"), text


@pytest.mark.parametrize("text", KEPT)
def test_a_login_without_a_literal_password_is_kept(text: str) -> None:
    assert find_secret(text) is None, text


@pytest.mark.parametrize(
    ("label", "named"),
    [
        ("#password", True), ('input[name="passwd"]', True), ("[data-test=pwd]", True), ("newPassword", True),
        ("#pass", True), ("Passcode", True), ("Passwort", True), ("contraseña", True), ("passport", False),
        ("#email", False), ("Username", False), ("#passenger-name", False),
    ],
)  # fmt: skip
def test_a_password_field_is_named_by_its_selector_or_label(label: str, named: bool) -> None:
    assert (re.search(PASSWORD_FIELD, label.encode()) is not None) == named


@pytest.mark.parametrize(
    "text",
    [
        'WiFi.begin("HomeNet", "Xk9mQ2vLp7Rt");',
        'WiFi.softAP("esp-ap", "Xk9mQ2vLp7Rt");',
        'wifiMulti.addAP("HomeNet", "Xk9mQ2vLp7Rt");',
        'wlan.connect("HomeNet", "Xk9mQ2vLp7Rt")',
        'wifi.radio.connect("HomeNet", "Xk9mQ2vLp7Rt")',
        'client.username_pw_set("sensor", "Xk9mQ2vLp7Rt")',
        'mqttClient.setCredentials("sensor", "Xk9mQ2vLp7Rt");',
        'credentials = pika.PlainCredentials("app", "Xk9mQ2vLp7Rt")',
    ],
)
def test_a_board_s_network_passphrase_and_a_message_broker_s_password_are_refused(text: str) -> None:
    assert find_secret(text) == "login_password"
